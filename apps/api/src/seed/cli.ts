/**
 * `npm run seed [-- --generate N [--seed S]]`: migrates the database the server uses (DATABASE_URL, else
 * PGlite under DATA_DIR), upserts the demo catalogue, and optionally adds N generated institutions for
 * benchmarks.
 */
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';
import { partners } from '../db/schema/partners.ts';
import { databaseOptions, loadEnv } from '../lib/env.ts';
import { seedDemoData, seedGenerated } from './index.ts';

function nonNegativeInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0) {
    console.error(`--${name} must be a whole number ≥ 0, got "${value}"`);
    process.exit(2);
  }
  return parsed;
}

const { values } = parseArgs({
  options: { generate: { type: 'string' }, seed: { type: 'string' } },
  strict: true,
});
const generate = nonNegativeInt('generate', values.generate, 0);
const generatorSeed = nonNegativeInt('seed', values.seed, 1);

const options = databaseOptions(loadEnv());
const database = await openDatabase(options);
try {
  const started = performance.now();
  await database.migrate();
  const demo = await seedDemoData(database.db);
  console.log(`Demo catalogue: ${demo.universities} universities inserted or refreshed.`);
  if (generate > 0) {
    const generated = await seedGenerated(database.db, generate, generatorSeed);
    console.log(`Generated: ${generated.universities} of ${generate} institutions inserted (seed ${generatorSeed}).`);
  }
  const all = await database.db.$count(partners);
  const approved = await database.db.$count(partners, eq(partners.status, 'approved'));
  const where = options.kind === 'pglite' ? `PGlite at ${options.dataDir}` : 'PostgreSQL (DATABASE_URL)';
  console.log(
    `Partners in ${where}: ${all} (${approved} approved). ` +
      `Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
} finally {
  await database.close();
}
