import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../db/client.ts';
import { buildApp, type App, type AppOptions } from '../app.ts';
import { createTestDatabase } from './database.ts';
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

/** Options of the app beyond its database and env: `work: true` runs the background jobs too. */
export type TestAppOptions = Omit<AppOptions, 'database' | 'env'>;

export function createTestApp(database: Database, env: Env = testEnv(), options: TestAppOptions = {}) {
  return buildApp({ database, env, logger: false, ...options });
}

export interface TestAppContext {
  readonly app: App;
  readonly database: Database & { url?: string };
  readonly db: Database['db'];
}

/**
 * One fresh database and app for the calling test file, opened before its tests and closed after them.
 * The returned object's getters are read inside tests, once the hooks have run.
 */
export function useTestApp(env?: Env, options?: TestAppOptions): TestAppContext {
  let database: (Database & { url?: string }) | undefined;
  let app: App | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createTestApp(database, env, options);
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`useTestApp: ${name} is read before beforeAll ran`);
    return value;
  };
  return {
    get app() {
      return ready(app, 'app');
    },
    get database() {
      return ready(database, 'database');
    },
    get db() {
      return ready(database, 'database').db;
    },
  };
}
