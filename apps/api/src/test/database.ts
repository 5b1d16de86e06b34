import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { MIGRATIONS_FOLDER, openDatabase, type Database } from '../db/client.ts';

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
  // A copy of the migrated template: far quicker than migrating each file's database.
  await admin(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate(serverUrl)}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
  try {
    // Nothing to apply on a copy of the template; it checks the copy is at the schema's last migration.
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
      await admin(serverUrl, untilNobodyIn(name));
      await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Waits (up to 5 s) until no backend is connected to the database `name`. */
const untilNobodyIn = (name: string) => `DO $$ BEGIN
  FOR i IN 1..50 LOOP
    EXIT WHEN NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = '${name}');
    PERFORM pg_sleep(0.1);
  END LOOP;
END $$`;

/** Serialises the making of the template across the test workers and runs on one server. */
const TEMPLATE_LOCK_KEY = 4_242_021_017n;
let template: Promise<string> | null = null;

/**
 * The name of a database with every migration applied, made once per server and set of migrations (its
 * name is their hash) and then only copied: built under another name and renamed when complete, so a run
 * stopped midway never leaves a half-migrated template to copy.
 */
function migratedTemplate(serverUrl: string): Promise<string> {
  template ??= (async () => {
    const files = (await readdir(MIGRATIONS_FOLDER, { recursive: true })).filter((file) => /\.(sql|json)$/.test(file));
    const hash = createHash('sha256');
    for (const file of files.sort()) hash.update(file).update(await readFile(join(MIGRATIONS_FOLDER, file)));
    const name = `kz_template_${hash.digest('hex').slice(0, 16)}`;
    const client = new pg.Client({ connectionString: serverUrl });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY.toString()]);
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = `${name}_building`;
        await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${building}`);
        const url = new URL(serverUrl);
        url.pathname = `/${building}`;
        const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
        try {
          await database.migrate();
        } finally {
          await database.close();
        }
        // The pool's backends may still be exiting: a database is renamed (and copied) only once nobody is in it.
        await client.query(untilNobodyIn(building));
        await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      }
      return name;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY.toString()]).catch(() => undefined);
      await client.end().catch(() => undefined);
    }
  })().catch((error: unknown) => {
    template = null;
    throw error;
  });
  return template;
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
