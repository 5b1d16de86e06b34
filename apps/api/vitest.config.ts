import { availableParallelism } from 'node:os';
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
    /*
     * A file spends much of its time waiting on its database and on its servers' timers, so twice as many
     * files as cores run at once (vitest's default is one fewer than the cores: a single file at a time on
     * CI's two, which left a core idle a third of the time). Capped so that the files' pools stay well within
     * a PostgreSQL server's 100 connections.
     */
    maxWorkers: Math.min(2 * availableParallelism(), 6),
  },
});
