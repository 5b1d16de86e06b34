import { and, asc, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { SCHOOL_LEVELS, type NewSchool, type School, type SchoolPage } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { schools } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { containsPattern, folded } from '../../lib/text-search.ts';

type SchoolRow = typeof schools.$inferSelect;

export function toSchool(row: SchoolRow): School {
  return {
    id: row.id,
    name: row.name,
    city: row.city,
    state_province: row.state_province,
    country: row.country,
    levels_offered: row.levels_offered.flatMap((level) => SCHOOL_LEVELS.find((known) => known === level) ?? []),
  };
}

/**
 * Schools whose name contains the query or is close to it word by word (typos, missing accents), best
 * matches first; both conditions use the trigram index on `f_unaccent(lower(name))`.
 */
export async function searchSchools(
  db: Db,
  { q, country, page, limit }: { q: string; country: string; page: number; limit: number },
): Promise<SchoolPage> {
  const conditions: SQL[] = [];
  const name = folded(sql`${schools.name}`);
  let rank: SQL | null = null;
  if (q) {
    const query = folded(q);
    const matches = or(sql`${name} like ${folded(containsPattern(q))}`, sql`${query} <% ${name}`) as SQL;
    conditions.push(matches);
    rank = sql`word_similarity(${query}, ${name})`;
  }
  if (country) conditions.push(eq(schools.country, country));
  const rows = await db
    .select()
    .from(schools)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(...(rank ? [desc(rank)] : []), asc(schools.name), asc(schools.id))
    .limit(limit + 1)
    .offset((page - 1) * limit);
  return { items: rows.slice(0, limit).map(toSchool), page, has_more: rows.length > limit };
}

/**
 * Saves a school a student entered by hand, so other students can find it. The same student entering
 * the same school again (name, city and country, in any case) gets the school they already added.
 */
export async function createSchool(db: DbOrTx, userId: string, input: NewSchool): Promise<SchoolRow> {
  const [existing] = await db
    .select()
    .from(schools)
    .where(
      and(
        or(eq(schools.created_by, userId), isNull(schools.created_by)),
        sql`${folded(sql`${schools.name}`)} = ${folded(input.name)}`,
        sql`${folded(sql`${schools.city}`)} = ${folded(input.city)}`,
        eq(schools.country, input.country),
      ),
    )
    .limit(1);
  if (existing) return existing;
  const [created] = await db
    .insert(schools)
    .values({
      name: input.name,
      city: input.city,
      state_province: input.state_province || null,
      country: input.country,
      levels_offered: [...new Set(input.levels_offered)],
      created_by: userId,
    })
    .returning();
  if (!created) throw new Error('school insert returned no row');
  return created;
}
