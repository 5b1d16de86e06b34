import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Each test file opens its own database (PGlite boots in about a second, a real server can be slower).
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
