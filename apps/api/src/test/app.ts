import type { Database } from '../db/client.ts';
import { buildApp } from '../app.ts';
import { parseEnv, type Env } from '../lib/env.ts';

export const TEST_PUBLIC_URL = 'http://localhost:3000';

/** The env of a test app: no web app unless a test points WEB_DIST at a fake one. */
export function testEnv(overrides: Record<string, string> = {}): Env {
  return parseEnv({
    NODE_ENV: 'test',
    PUBLIC_URL: TEST_PUBLIC_URL,
    WEB_DIST: '/nonexistent/kaminuza-web-dist',
    // Stored files of a test app go to a throwaway folder.
    DATA_DIR: ':memory:',
    ...overrides,
  });
}

export function createTestApp(database: Database, env: Env = testEnv()) {
  return buildApp({ database, env, logger: false });
}
