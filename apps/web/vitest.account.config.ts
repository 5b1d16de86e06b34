import { availableParallelism } from 'node:os';
import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { cldrNames } from './scripts/cldr-names-plugin.ts';
import { accountVariants } from './scripts/account-variants.ts';

/** The entry pages' tests, with the modules their own bundle is built with (ADR 044). */
export default defineProject({
  plugins: [accountVariants(), react(), cldrNames()],
  test: {
    name: 'web-account',
    environment: 'jsdom',
    // A file per core (vitest's default leaves one core to itself, which on CI's two is half the machine).
    maxWorkers: availableParallelism(),
    include: ['src/account/**/*.test.{ts,tsx}'],
  },
});
