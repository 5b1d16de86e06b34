import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { buildApp } from '../../app.ts';
import { createTestApp, testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { openFileStores } from '../../lib/storage/index.ts';
import { drainSwitch } from './drain.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('health', () => {
  it('GET /health is always ok', async () => {
    const app = await createTestApp(database);
    const response = await app.inject({ url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { status: 'ok' } });
    await app.close();
  });

  it('GET /ready is 200 when the database answers', async () => {
    const app = await createTestApp(database);
    const response = await app.inject({ url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { status: 'ready', checks: { database: 'ok', storage: 'ok' } } });
    await app.close();
  });

  it('GET /ready reports a store of files that does not answer, and stays ready (every instance shares it)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kz-ready-'));
    const files = openFileStores(testEnv({ DATA_DIR: dataDir }));
    const app = await buildApp({ database, env: testEnv(), logger: false, files });
    try {
      rmSync(join(dataDir, 'files'), { recursive: true });
      const response = await app.inject({ url: '/ready' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: { status: 'ready', checks: { database: 'ok', storage: 'failed' } } });
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('GET /ready is 503 UNAVAILABLE when the database does not answer', async () => {
    const app = await createTestApp({ ...database, ping: async () => false });
    const response = await app.inject({ url: '/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: {
        status: 'UNAVAILABLE',
        message: 'Something went wrong. Please try again.',
        details: { status: 'not_ready', checks: { database: 'failed', storage: 'ok' } },
      },
    });
    await app.close();
  });

  it('GET /ready is 503 draining once the instance shuts down, while it still serves everything else', async () => {
    const drain = drainSwitch();
    const app = await buildApp({ database, env: testEnv(), logger: false, drain });
    expect((await app.inject({ url: '/ready' })).statusCode).toBe(200);
    drain.start();
    const response = await app.inject({ url: '/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      error: { status: 'UNAVAILABLE', details: { status: 'draining', checks: { database: 'ok', storage: 'ok' } } },
    });
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/v1/catalogue/summary' })).statusCode).toBe(200);
    await app.close();
  });

  it('answers HEAD as well', async () => {
    const app = await createTestApp(database);
    const response = await app.inject({ method: 'HEAD', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    await app.close();
  });
});
