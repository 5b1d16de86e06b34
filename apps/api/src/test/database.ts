import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client.ts';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default; with TEST_DATABASE_URL,
 * a uniquely named database on that server, dropped again on close.
 */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({ kind: 'pglite', dataDir: null });
    await database.migrate();
    return database;
  }

  const name = `kz_test_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    throw error;
  }
  return {
    ...database,
    // A second connection (another api instance in a test) opens the same database with this.
    url: url.toString(),
    async close() {
      await database.close();
      // A closed pool's backends may still be exiting: forcing them off would send a client that is
      // ending an error it no longer listens for. Wait for them, then drop (forced only as a last resort).
      await admin(
        serverUrl,
        `DO $$ BEGIN
           FOR i IN 1..50 LOOP
             EXIT WHEN NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = '${name}');
             PERFORM pg_sleep(0.1);
           END LOOP;
         END $$`,
      );
      await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** CREATE/DROP DATABASE cannot run inside the test database itself, so they use the server URL. */
async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  // A connection lost between calls fails the next call; unheard, its 'error' event would end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
