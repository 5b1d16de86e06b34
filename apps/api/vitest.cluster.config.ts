import { defineConfig } from 'vitest/config';

/**
 * The many-instances test (src/cluster): PostgreSQL, two api processes and nginx, started by the test
 * itself. Its own project, so the api tests never start it; `npm test` runs it as a step of its own.
 */
export default defineConfig({
  test: {
    name: 'cluster',
    root: import.meta.dirname,
    environment: 'node',
    include: ['src/cluster/**/*.cluster.test.ts'],
    // Booting the database and the instances takes seconds; the kill under load takes more.
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // One cluster at a time: the machine's cores are what the instances compete for.
    fileParallelism: false,
  },
});
