import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { buildApp } from '../app.ts';
import { createTestDatabase } from '../test/database.ts';
import { testEnv } from '../test/app.ts';
import { createMetrics } from './metrics.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
const PRODUCTION = {
  NODE_ENV: 'production',
  AUTH_SECRET: 'a'.repeat(32),
  PAYMENTS_WEBHOOK_SECRET: 'w'.repeat(32),
  PAYMENTS_PROVIDER: 'sandbox',
};

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** The value of one sample line of the text exposition, e.g. `name{label="x"} 3`. */
function sample(body: string, name: string, labels = ''): number | undefined {
  const line = body.split('\n').find((row) => row.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics', () => {
  it('times requests by route pattern, method and status class, beside the process metrics', async () => {
    const app = await buildApp({ database, env: testEnv(), logger: false });
    const id = randomUUID();
    expect((await app.inject({ url: `/api/v1/catalogue/universities/${id}` })).statusCode).toBe(401);
    expect((await app.inject({ url: `/api/v1/catalogue/universities/${randomUUID()}` })).statusCode).toBe(401);
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/no/such/page' })).statusCode).toBe(404);

    const response = await app.inject({ url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = response.body;
    const histogram = 'kaminuza_http_request_duration_seconds';
    // Two different addresses, one pattern: the raw URL never becomes a label.
    expect(
      sample(
        body,
        `${histogram}_count`,
        '{method="GET",route="/api/v1/catalogue/universities/:partnerId",status_class="4xx"}',
      ),
    ).toBe(2);
    expect(body).not.toContain(id);
    expect(sample(body, `${histogram}_count`, '{method="GET",route="/health",status_class="2xx"}')).toBe(1);
    expect(sample(body, `${histogram}_count`, '{method="GET",route="unmatched",status_class="4xx"}')).toBe(1);
    expect(body).toContain(`${histogram}_bucket{le="0.005",method="GET",route="/health",status_class="2xx"}`);
    expect(sample(body, 'kaminuza_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(body).toMatch(/^kaminuza_nodejs_eventloop_lag_p99_seconds \d/m);
    await app.close();
  });

  it('takes the gauges and counters other parts add, with values read at scrape', async () => {
    const metrics = createMetrics();
    let depth = 3;
    metrics.gauge({
      name: 'test_queue_depth',
      help: 'Jobs waiting',
      labelNames: ['queue'],
      collect: (gauge) => gauge.set({ queue: 'email' }, depth),
    });
    const failures = metrics.counter({ name: 'test_job_failures_total', help: 'Failed jobs', labelNames: ['queue'] });
    failures.inc({ queue: 'email' });
    failures.inc({ queue: 'email' });
    const app = await buildApp({ database, env: testEnv(), logger: false, metrics });

    let body = (await app.inject({ url: '/metrics' })).body;
    expect(sample(body, 'kaminuza_test_queue_depth', '{queue="email"}')).toBe(3);
    expect(sample(body, 'kaminuza_test_job_failures_total', '{queue="email"}')).toBe(2);
    depth = 7;
    body = (await app.inject({ url: '/metrics' })).body;
    expect(sample(body, 'kaminuza_test_queue_depth', '{queue="email"}')).toBe(7);
    await app.close();
  });

  it('is off in production without METRICS_TOKEN, and asks for the token when one is set', async () => {
    const closed = await buildApp({ database, env: testEnv(PRODUCTION), logger: false });
    const off = await closed.inject({ url: '/metrics' });
    expect(off.statusCode).toBe(404);
    expect(off.body).not.toContain('kaminuza_');
    await closed.close();

    const guarded = await buildApp({ database, env: testEnv({ ...PRODUCTION, METRICS_TOKEN: TOKEN }), logger: false });
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, `Basic ${TOKEN}`]) {
      const denied = await guarded.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(denied.statusCode, String(authorization)).toBe(401);
      expect(denied.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(denied.json()).toMatchObject({ error: { status: 'UNAUTHENTICATED' } });
    }
    const allowed = await guarded.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('kaminuza_http_request_duration_seconds');
    await guarded.close();

    // Outside production a token, once set, is asked for as well.
    const development = await buildApp({ database, env: testEnv({ METRICS_TOKEN: TOKEN }), logger: false });
    expect((await development.inject({ url: '/metrics' })).statusCode).toBe(401);
    await development.close();
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'reports the PostgreSQL pool: open, idle and waiting connections',
    async () => {
      expect(database.kind).toBe('postgres');
      const app = await buildApp({ database, env: testEnv(), logger: false });
      // createTestDatabase's pool has 4 connections: 6 slow queries at once leave 2 waiting for one.
      // (A Drizzle query runs once awaited: `then` starts each now.)
      const slow = Array.from({ length: 6 }, () =>
        database.db.execute(sql`select pg_sleep(0.5)`).then(() => undefined),
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      const busy = (await app.inject({ url: '/metrics' })).body;
      expect(sample(busy, 'kaminuza_db_pool_connections')).toBe(4);
      expect(sample(busy, 'kaminuza_db_pool_idle_connections')).toBe(0);
      expect(sample(busy, 'kaminuza_db_pool_waiting_queries')).toBe(2);
      await Promise.all(slow);
      const quiet = (await app.inject({ url: '/metrics' })).body;
      expect(sample(quiet, 'kaminuza_db_pool_waiting_queries')).toBe(0);
      expect(sample(quiet, 'kaminuza_db_pool_idle_connections')).toBe(sample(quiet, 'kaminuza_db_pool_connections'));
      await app.close();
    },
  );

  it.runIf(!process.env.TEST_DATABASE_URL)('has no pool metrics on PGlite, which has no pool', async () => {
    const app = await buildApp({ database, env: testEnv(), logger: false });
    expect((await app.inject({ url: '/metrics' })).body).not.toContain('kaminuza_db_pool');
    await app.close();
  });
});
