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
 * Connection-level failures (SQLSTATE class 08), the server shutting down, crashing or starting
 * (57P01–57P03), and no connection slot left (53300): the statement may be fine, the database is not
 * reachable right now.
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
/** Socket failures reaching the server (refused, reset, unreachable, name not resolved yet). */
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * What node-postgres and PGlite say, without a code, when a connection is gone or was never had: the
 * server closed it, the pool's connect timeout passed, a client that lost its connection was used
 * again, the embedded engine was closed or aborted.
 */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end|PGlite is clos(ed|ing)|Aborted\()/;

/**
 * Whether a failure means the database cannot be reached now (so the request may succeed later: 503)
 * rather than that the request or the code is wrong. Drizzle wraps the driver's error in `cause`; a
 * connect to a name with several addresses fails with an AggregateError of one error per address.
 */
export function databaseUnavailable(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const { code, errors } = current as Error & { code?: unknown; errors?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    if (UNAVAILABLE_MESSAGE.test(current.message)) return true;
    if (Array.isArray(errors) && errors.length > 0 && errors.every(databaseUnavailable)) return true;
  }
  return false;
}

/**
 * What the driver said of a failure, from the innermost error of its chain: the reason an outage is
 * logged with, without Drizzle's wrapper, whose message carries the statement's parameters.
 */
export function driverReason(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
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
