import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The many-instances test is a project of its own (vitest.cluster.config.ts).
    exclude: [...configDefaults.exclude, 'src/cluster/**'],
    // Each test file opens its own database (PGlite boots in about a second, a real server can be slower).
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
