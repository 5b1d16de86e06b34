import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { defaultPartnerSettings } from '@kaminuza/shared';
import type { Db } from '../db/client.ts';
import { partnerSettings, partners } from '../db/schema/partners.ts';
import { generateUniversities } from './generate.ts';
import { DEMO_UNIVERSITIES, type SeedUniversity } from './universities.data.ts';

export { DEMO_UNIVERSITIES, type SeedUniversity } from './universities.data.ts';
export { generateUniversities } from './generate.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Rows per INSERT: 500 rows of ~40 columns stays far below PostgreSQL's 65,535 bind parameters. */
const BATCH_SIZE = 500;

/**
 * Columns a re-seed refreshes. Left alone: the identity (id, slug, created_at), the state the product
 * itself changes after seeding — the vetting status and review, the published switch, the profile
 * counters — so re-running the seed never undoes an admin's or a university's decision; and the search
 * columns, which PostgreSQL computes.
 */
const KEPT_ON_RESEED = new Set([
  'id',
  'slug',
  'created_at',
  'updated_at',
  'status',
  'published',
  'reviewed_at',
  'reviewed_by',
  'review_reason',
  'stats',
  'search_vector',
  'search_name',
]);
const RESEED_SET: Record<string, SQL> = {
  ...Object.fromEntries(
    Object.entries(getTableColumns(partners))
      .filter(([key]) => !KEPT_ON_RESEED.has(key))
      .map(([key, column]) => [key, sql`excluded.${sql.identifier(column.name)}`]),
  ),
  updated_at: sql`now()`,
};

/** Serializes seeding across processes (two api instances starting at once against one PostgreSQL). */
async function lockSeeding(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('kaminuza.seed'))`);
}

async function insertInBatches(
  tx: Tx,
  rows: readonly SeedUniversity[],
  onConflict: 'skip' | 'refresh-demo',
): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += BATCH_SIZE) {
    const insert = tx.insert(partners).values(rows.slice(start, start + BATCH_SIZE));
    const result =
      onConflict === 'skip'
        ? await insert.onConflictDoNothing({ target: partners.slug }).returning({ id: partners.id })
        : await insert
            .onConflictDoUpdate({
              target: partners.slug,
              set: RESEED_SET,
              // A real institution that happens to hold a demo slug is never overwritten.
              setWhere: eq(partners.is_demo, true),
            })
            .returning({ id: partners.id });
    written += result.length;
    // Every institution has its settings (spec section 3), as one made by sign-up does.
    if (result.length > 0) {
      const settings = defaultPartnerSettings();
      await tx
        .insert(partnerSettings)
        .values(result.map(({ id }) => ({ partner_id: id, ...settings })))
        .onConflictDoNothing();
    }
  }
  return written;
}

/** Seeds the demo catalogue on first start only: does nothing once any partner exists. */
export async function seedIfEmpty(db: Db): Promise<{ seeded: boolean; universities: number }> {
  return db.transaction(async (tx) => {
    await lockSeeding(tx);
    if ((await tx.$count(partners)) > 0) return { seeded: false, universities: 0 };
    const universities = await insertInBatches(tx, DEMO_UNIVERSITIES, 'skip');
    return { seeded: true, universities };
  });
}

/** Inserts or refreshes the demo catalogue by slug (`npm run seed`); running it again changes nothing. */
export async function seedDemoData(db: Db): Promise<{ universities: number }> {
  return db.transaction(async (tx) => {
    await lockSeeding(tx);
    return { universities: await insertInBatches(tx, DEMO_UNIVERSITIES, 'refresh-demo') };
  });
}

/**
 * Adds `count` generated institutions for benchmarks. Slugs depend only on (seed, position), so a
 * second call with the same arguments inserts nothing; `universities` is the number actually inserted.
 */
export async function seedGenerated(db: Db, count: number, seed = 1): Promise<{ universities: number }> {
  const rows = generateUniversities(count, seed);
  return db.transaction(async (tx) => {
    await lockSeeding(tx);
    return { universities: await insertInBatches(tx, rows, 'skip') };
  });
}
