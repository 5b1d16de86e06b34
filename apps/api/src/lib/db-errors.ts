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

/**
 * The SQLSTATE of a statement refused because of the values it was given, if that is why it failed:
 * PostgreSQL's data exceptions (class 22: invalid text representation, numeric value out of range, value
 * too long, invalid byte sequence, invalid JSON, datetime out of range …) and a value too large for an
 * index (54000). These are the caller's input, not a fault of the service.
 */
export function inputRejection(error: unknown): string | null {
  for (let current = error; current instanceof Error; current = current.cause) {
    const { code } = current as Error & { code?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && (code.startsWith('22') || code === '54000')) {
      return code;
    }
  }
  return null;
}
