import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { databaseUnavailable } from '../lib/db-errors.ts';
import { createTestDatabase } from '../test/database.ts';
import { freePort } from '../test/server-process.ts';
import { openDatabase, type Database } from './client.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, check: () => boolean, withinMs = 5_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
    await sleep(20);
  }
}

const serverUrl = process.env.TEST_DATABASE_URL;

/*
 * What a server restart or an administrator does to the api's connections: every session of its database
 * is ended by the server (pg_terminate_backend sends the same 57P01 as `pg_ctl stop -m fast`).
 */
describe.skipIf(!serverUrl)('a PostgreSQL connection lost under the api', () => {
  let database: Database;
  let name: string;

  async function terminateSessions(): Promise<void> {
    const admin = new pg.Client({ connectionString: serverUrl });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
    } finally {
      await admin.end();
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const { rows } = await database.db.execute<{ name: string }>(sql`select current_database() as name`);
    name = rows[0]!.name;
  });
  afterAll(() => database.close());

  it('an idle pooled connection ended by the server is reported, not fatal, and the next query gets a new one', async () => {
    const reports: string[] = [];
    const stop = database.onConnectionError((_error, source) => reports.push(source));
    await database.db.execute(sql`select 1`);
    await terminateSessions();
    await waitFor('the pool reporting its lost connection', () => reports.includes('pool'));
    const { rows } = await database.db.execute<{ one: number }>(sql`select 1 as one`);
    expect(rows).toEqual([{ one: 1 }]);
    stop();
  });

  it('a connection lost inside a transaction, between two statements, fails that transaction as unavailable', async () => {
    const failure = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        // The server ends the session while this connection is checked out and idle: it hears of it
        // as an 'error' event on the connection, with no query to fail.
        await terminateSessions();
        await sleep(200);
        await tx.execute(sql`select 1`);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    expect(databaseUnavailable(failure)).toBe(true);
    const { rows } = await database.db.execute<{ one: number }>(sql`select 1 as one`);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('the listener connects again within seconds, says so, and hears notifications sent after', async () => {
    const heard: string[] = [];
    let resubscribed = 0;
    const unlisten = await database.listen(
      'outage_check',
      (payload) => heard.push(payload),
      () => (resubscribed += 1),
    );
    await database.db.execute(sql`select pg_notify('outage_check', 'before')`);
    await waitFor('the notification before', () => heard.includes('before'));
    expect(resubscribed).toBe(0);

    await terminateSessions();
    await waitFor('listening again', () => resubscribed === 1);
    await database.db.execute(sql`select pg_notify('outage_check', 'after')`);
    await waitFor('the notification after', () => heard.includes('after'));
    await unlisten();
  });
});

describe('a PostgreSQL server that cannot be reached', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'postgres', url: `postgres://postgres@127.0.0.1:${await freePort()}/x` });
  });
  afterAll(() => database.close());

  it('fails queries at once as unavailable, ping says so, and listening is refused rather than pending', async () => {
    const started = Date.now();
    const failure = await database.db.execute(sql`select 1`).catch((error: unknown) => error);
    expect(databaseUnavailable(failure)).toBe(true);
    expect(await database.ping()).toBe(false);
    await expect(database.listen('outage_check', () => undefined)).rejects.toSatisfy(databaseUnavailable);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('PGlite after failed statements', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: null });
  });

  it('rolls back a transaction whose statement fails, and keeps answering', async () => {
    await database.db.execute(sql`create table notes (body text not null)`);
    const failure = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into notes values ('kept only if committed')`);
        await tx.execute(sql`select 1 / 0`);
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(databaseUnavailable(failure)).toBe(false);
    // A value the database cannot store (NUL in text) fails its statement and nothing more.
    await expect(database.db.execute(sql`insert into notes values (${'a\u0000b'})`)).rejects.toThrow();
    const { rows } = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from notes`);
    expect(rows).toEqual([{ n: 0 }]);
    expect(await database.ping()).toBe(true);
  });

  it('once closed, fails queries as unavailable and ping says so', async () => {
    await database.close();
    const failure = await database.db.execute(sql`select 1`).catch((error: unknown) => error);
    expect(databaseUnavailable(failure)).toBe(true);
    expect(await database.ping()).toBe(false);
  });
});
