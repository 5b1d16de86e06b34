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
    include: ['src/account/**/*.test.{ts,tsx}'],
  },
});
