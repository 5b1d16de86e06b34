import { availableParallelism } from 'node:os';
import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { cldrNames } from './scripts/cldr-names-plugin.ts';

export default defineProject({
  plugins: [react(), cldrNames()],
  test: {
    name: 'web',
    environment: 'jsdom',
    // A file per core (vitest's default leaves one core to itself, which on CI's two is half the machine).
    maxWorkers: availableParallelism(),
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'eslint.boundaries.test.ts'],
    // Run by vitest.account.config.ts, with the entry pages' own modules.
    exclude: ['src/account/**', '**/node_modules/**'],
  },
});
