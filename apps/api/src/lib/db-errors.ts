/**
 * The unique index a failed statement collided with, if that is why it failed. Drizzle wraps the
 * driver's error (pg and PGlite both carry PostgreSQL's code and constraint name) in `cause`.
 */
export function uniqueViolation(error: unknown): string | null {
  for (let current = error; current instanceof Error; current = current.cause) {
    const { code, constraint } = current as Error & { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return null;
}
