import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/shared',
      'apps/api',
      'apps/api/vitest.cluster.config.ts',
      'apps/web',
      'apps/web/vitest.account.config.ts',
    ],
  },
});
