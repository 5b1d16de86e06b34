import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { cldrNames } from './scripts/cldr-names-plugin.ts';

export default defineProject({
  plugins: [react(), cldrNames()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'eslint.boundaries.test.ts'],
    // Run by vitest.account.config.ts, with the entry pages' own modules.
    exclude: ['src/account/**', '**/node_modules/**'],
  },
});
