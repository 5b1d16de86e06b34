import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { cldrNames } from './scripts/cldr-names-plugin.ts';

export default defineProject({
  plugins: [react(), cldrNames()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'eslint.boundaries.test.ts'],
  },
});
