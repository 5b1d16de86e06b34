import { sql, type SQL } from 'drizzle-orm';

/**
 * Accent- and case-folding, as the trigram indexes store it (`f_unaccent(lower(…))`, migration 0004), so
 * "universite" finds "Université". `partners.search_name` is this folding of the name, kept by PostgreSQL.
 */
export const folded = (value: SQL | string) => sql`f_unaccent(lower(${value}))`;

/**
 * The folding of a value given with the query (a search's pattern), computed once per statement: as an
 * uncorrelated subquery it stays a single evaluation even in a generic plan, where `folded(param)` in a
 * filter would be computed again for every row it is compared with.
 */
export const foldedOnce = (value: SQL | string) => sql`(select ${folded(value)})`;

/**
 * A LIKE pattern matching text that contains `text`, lower-cased. `%`, `_` and `\` are escaped with `\`
 * (LIKE's default escape): a search for "100%" means those characters, not a wildcard.
 */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
