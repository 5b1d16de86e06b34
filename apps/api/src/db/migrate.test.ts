import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freePort, startServerProcess } from '../test/server-process.ts';
import { MIGRATION_LOCK_KEY, MIGRATIONS_FOLDER, openDatabase, type Database } from './client.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/*
 * Instances of the api booting together against a database nobody migrated yet: each calls migrate()
 * at once, as `docker compose up` with two instances and no migrate step would.
 */
describe.skipIf(!serverUrl)('migrations on PostgreSQL, from several instances at once', () => {
  const created: string[] = [];
  const opened: Database[] = [];

  /** A fresh database of its own, with no migration applied. */
  async function freshDatabase(): Promise<string> {
    const name = `kz_test_${randomBytes(6).toString('hex')}`;
    await onServer(serverUrl!, (client) => client.query(`CREATE DATABASE ${name}`));
    created.push(name);
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    return url.toString();
  }

  async function instances(url: string, count: number): Promise<Database[]> {
    const databases = await Promise.all(
      Array.from({ length: count }, () => openDatabase({ kind: 'postgres', url, poolSize: 2 })),
    );
    opened.push(...databases);
    return databases;
  }

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((database) => database.close()));
    for (const name of created.splice(0)) {
      await onServer(serverUrl!, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }
  });

  it('six instances migrating a fresh database together all succeed and apply each migration once', async () => {
    const url = await freshDatabase();
    const databases = await instances(url, 6);
    expect(await databases[0]!.pendingMigrations()).toBe(journal.entries.length);
    const results = await Promise.allSettled(databases.map((database) => database.migrate()));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);

    const applied = await onServer(url, async (client) => {
      const { rows } = await client.query<{ hash: string }>(
        'SELECT hash FROM drizzle.__drizzle_migrations ORDER BY id',
      );
      return rows;
    });
    expect(applied).toHaveLength(journal.entries.length);
    expect(new Set(applied.map((row) => row.hash)).size).toBe(journal.entries.length);
    // The schema is there and usable from every instance.
    for (const database of databases) {
      expect(await database.ping()).toBe(true);
      expect(await database.pendingMigrations()).toBe(0);
    }
    const { rows } = await onServer(url, (client) =>
      client.query<{ count: string }>(`SELECT count(*) FROM information_schema.tables WHERE table_name = 'users'`),
    );
    expect(rows[0]!.count).toBe('1');

    // The lock is given back: nothing holds it once every migrate() returned.
    const held = await onServer(url, (client) =>
      client.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1::bigint % 4294967296`, [
        MIGRATION_LOCK_KEY.toString(),
      ]),
    );
    expect(held.rowCount).toBe(0);
  });

  it('waits while another holds the migration lock, then migrates', async () => {
    const url = await freshDatabase();
    const [database] = await instances(url, 1);
    const holder = new pg.Client({ connectionString: url });
    holder.on('error', () => undefined);
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
      let done = false;
      const migrating = database!.migrate().then(() => {
        done = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(done).toBe(false);
      const before = await holder.query(`SELECT 1 FROM information_schema.schemata WHERE schema_name = 'drizzle'`);
      expect(before.rowCount).toBe(0);

      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
      await migrating;
      const { rows } = await holder.query<{ count: string }>('SELECT count(*) FROM drizzle.__drizzle_migrations');
      expect(Number(rows[0]!.count)).toBe(journal.entries.length);
    } finally {
      await holder.end();
    }
  });
});

describe.skipIf(!serverUrl)('work done exclusively across instances', () => {
  it('never overlaps under one name, and overlaps freely under two', async () => {
    const databases = await Promise.all(
      [1, 2, 3].map(() => openDatabase({ kind: 'postgres', url: serverUrl!, poolSize: 1 })),
    );
    try {
      let inside = 0;
      let most = 0;
      const work = async () => {
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 50));
        inside -= 1;
      };
      await Promise.all(databases.map((database) => database.exclusively('test-seed', work)));
      expect(most).toBe(1);
      most = 0;
      await Promise.all(databases.map((database, index) => database.exclusively(`test-seed-${index}`, work)));
      expect(most).toBe(3);
    } finally {
      await Promise.all(databases.map((database) => database.close()));
    }
  });
});

describe('migrations on the embedded database', () => {
  it('counts what is pending, none once migrated', async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir: null });
    try {
      expect(await database.pendingMigrations()).toBe(journal.entries.length);
      await database.migrate();
      expect(await database.pendingMigrations()).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('a server told not to migrate refuses to start on a database that lacks migrations', async () => {
    await expect(startServerProcess(await freePort(), { MIGRATE_ON_START: 'false' })).rejects.toThrow(
      'server exited with 1',
    );
  }, 60_000);
});
