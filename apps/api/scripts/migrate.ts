/**
 * `npm run db:migrate`: applies the committed migrations to the database the server uses (DATABASE_URL,
 * else PGlite under DATA_DIR), then exits. A deploy runs it once before starting instances with
 * MIGRATE_ON_START=false; it takes the same advisory lock as a server starting, so running both is safe.
 */
import { openDatabase } from '../src/db/client.ts';
import { databaseOptions, parseEnv } from '../src/lib/env.ts';

// Only where the database is: the secrets a server needs in production are not this step's business.
const env = parseEnv({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR });
const options = databaseOptions(env);
const started = performance.now();
const database = await openDatabase(options);
try {
  await database.migrate();
  console.log(`Migrations applied to the ${database.kind} database in ${Math.round(performance.now() - started)} ms`);
} catch (error) {
  console.error('Migrating failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
