import pg from 'pg';
import { ERRORS } from '@tus/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { createTestDatabase } from '../../test/database.ts';
import { PostgresLocker } from './upload-locker.ts';

/**
 * The upload lock shared by api instances: two lockers stand for two instances, each with its own
 * connection to the same PostgreSQL database. Embedded PGlite is one process and uses tus's own lock.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the upload lock on PostgreSQL advisory locks', () => {
  let database: Database & { url?: string };
  const lockers: PostgresLocker[] = [];
  const newLocker = (acquireLockTimeoutMs = 2_000) => {
    const locker = new PostgresLocker(database.url!, { acquireLockTimeoutMs });
    lockers.push(locker);
    return locker;
  };
  const never = () => new AbortController().signal;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    for (const locker of lockers) await locker.close();
    await database?.close();
  });

  it('lets one instance hold an upload; the other asks it to let go, then gets it', async () => {
    const [a, b] = [newLocker(), newLocker()];
    const held = a.newLock('upload-1');
    const events: string[] = [];
    await held.lock(never(), async () => {
      // The holder's request ends when asked, as tus aborts it.
      events.push('asked to release');
      await held.unlock();
    });
    await b.newLock('upload-1').lock(never(), () => undefined);
    events.push('acquired by the other');
    expect(events).toEqual(['asked to release', 'acquired by the other']);
  });

  it('times out when the holder does not let go, and never lets two hold one upload', async () => {
    const [a, b] = [newLocker(), newLocker(500)];
    const held = a.newLock('upload-2');
    let asked = 0;
    await held.lock(never(), () => {
      asked++;
    });
    const started = Date.now();
    await expect(b.newLock('upload-2').lock(never(), () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(asked).toBeGreaterThan(0);
    // Released, it is free for the other at once; another upload was never blocked.
    await b.newLock('upload-3').lock(never(), () => undefined);
    await held.unlock();
    await b.newLock('upload-2').lock(never(), () => undefined);
  });

  it('serialises two requests of one instance on the same upload', async () => {
    const a = newLocker(500);
    const first = a.newLock('upload-4');
    await first.lock(never(), () => undefined);
    await expect(a.newLock('upload-4').lock(never(), () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    await first.unlock();
    await a.newLock('upload-4').lock(never(), () => undefined);
  });

  it('stops waiting when the waiting request goes away', async () => {
    const [a, b] = [newLocker(), newLocker(10_000)];
    await a.newLock('upload-5').lock(never(), () => undefined);
    const gone = new AbortController();
    const waiting = b.newLock('upload-5').lock(gone.signal, () => undefined);
    setTimeout(() => gone.abort(), 200);
    const started = Date.now();
    await expect(waiting).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('asks its holders to stop when its connection is lost, and the upload is free for the others', async () => {
    const [a, b] = [newLocker(), newLocker()];
    let asked = false;
    await a.newLock('upload-6').lock(never(), () => {
      asked = true;
    });
    // An administrator's terminate (or a failover) ends the session that held the lock.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid()
           AND objid = (hashtextextended('tus-upload:' || $1, 0) & 4294967295)::oid`,
        ['upload-6'],
      );
    } finally {
      await admin.end();
    }
    await expect.poll(() => asked, { timeout: 5_000 }).toBe(true);
    await b.newLock('upload-6').lock(never(), () => undefined);
    // The first instance locks again on a new connection.
    await a.newLock('upload-7').lock(never(), () => undefined);
  });
});
