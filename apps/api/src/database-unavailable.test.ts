import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { App } from './app.ts';
import type { Database } from './db/client.ts';
import { createTestApp, TEST_PUBLIC_URL } from './test/app.ts';
import { signInAs, type TestAccount } from './test/auth.ts';
import { createTestDatabase } from './test/database.ts';

/*
 * The api keeps answering when its database fails under it (the embedded PGlite by default, a server with
 * TEST_DATABASE_URL): clear answers, nothing left unhandled. The end-to-end outage of a real server, with
 * its recovery, is outage.test.ts.
 */
let database: Database;
let app: App;
let staff: TestAccount;
let student: TestAccount;
let unhandled: unknown[];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  staff = await signInAs(app, 'staff');
  student = await signInAs(app, 'student');
});
afterAll(async () => {
  await app.close();
  await database.close().catch(() => undefined);
});
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});

/** Lets a rejection nobody awaited surface (Node reports them once the microtask queue drains). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('a handler whose statements fail', () => {
  it('answers 500 once, leaves no failure unheard, and serves again when the statements succeed', async () => {
    const queue = `/api/v1/partners/${staff.partnerId}/review/submissions?q=ab`;
    // The review queue reads its page and its total side by side: both fail here.
    await database.db.execute(sql`alter table submissions rename to submissions_away`);
    try {
      const failed = await app.inject({ url: queue, headers: staff.headers });
      expect(failed.statusCode).toBe(500);
      expect(failed.json()).toEqual({
        error: { status: 'INTERNAL', message: 'Something went wrong. Please try again.' },
      });
      await settle();
      expect(unhandled).toEqual([]);
    } finally {
      await database.db.execute(sql`alter table submissions_away rename to submissions`);
    }
    const served = await app.inject({ url: queue, headers: staff.headers });
    expect(served.statusCode).toBe(200);
  });
});

// Last: the database stays closed.
describe('the database gone under a running api', () => {
  it('answers 503 UNAVAILABLE with Retry-After, signed in or not; /health 200 and /ready 503', async () => {
    await database.close();
    const requests = [
      { url: `/api/v1/partners/${staff.partnerId}/review/submissions`, headers: staff.headers },
      { url: '/api/v1/catalogue/universities', headers: student.headers },
      {
        method: 'POST' as const,
        url: '/api/v1/waitlist',
        headers: { origin: TEST_PUBLIC_URL },
        payload: { email: 'during-the-outage@example.com' },
      },
    ];
    for (const request of requests) {
      const response = await app.inject(request);
      expect(response.statusCode, request.url).toBe(503);
      expect(response.headers['retry-after'], request.url).toBe('5');
      expect(response.json(), request.url).toEqual({
        error: { status: 'UNAVAILABLE', message: 'Something went wrong. Please try again.' },
      });
    }
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    const ready = await app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    await settle();
    expect(unhandled).toEqual([]);
  });
});
