import { IDEMPOTENCY_MISMATCH_HTTP, messageKey } from '@kaminuza/shared';
import { ApiError } from './api-client.ts';

/**
 * The translation key to show for a failed call: the spec's text when known, else the screen's own
 * texts for a lost connection and for anything else (sign-up has its own, spec section 8).
 */
export function errorMessageKey(
  error: unknown,
  { network = 'errors.network', fallback = 'errors.generic' }: { network?: string; fallback?: string } = {},
): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.status === 'UNAVAILABLE' || error.status === 'DEADLINE_EXCEEDED') return network;
  // A key reused for another request is this client's own fault: the person can do nothing with its wording.
  if (error.httpStatus === IDEMPOTENCY_MISMATCH_HTTP) return fallback;
  const known = messageKey(error.message);
  return known && known !== 'errors.generic' ? known : fallback;
}

/** The well-formed issues of a 400 answer's details (`[{ path, message }]`); anything else is dropped. */
export function fieldIssues(details: unknown): { path: string; message: string }[] {
  if (!Array.isArray(details)) return [];
  return (details as Array<{ path?: unknown; message?: unknown }>).filter(
    (issue): issue is { path: string; message: string } =>
      typeof issue.path === 'string' && typeof issue.message === 'string',
  );
}

/** Field messages of a 400 answer, by field name: the first issue of each field. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const issue of fieldIssues(error.details)) out[issue.path] ??= issue.message;
  return out;
}

/**
 * The whole minutes a locked-out sign-in must wait (a 429 whose details carry `retry_after_seconds`, ADR
 * 022), or null for any other failure.
 */
export function lockoutMinutes(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.status !== 'RESOURCE_EXHAUSTED') return null;
  const seconds = (error.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
  return typeof seconds === 'number' && seconds > 0 ? Math.ceil(seconds / 60) : null;
}
