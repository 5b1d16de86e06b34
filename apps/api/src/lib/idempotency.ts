import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  APPLICATION_MESSAGES,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_MISMATCH_HTTP,
  IDEMPOTENCY_RETRY_AFTER_SECONDS,
  IdempotencyKeySchema,
} from '@kaminuza/shared';
import type { DbOrTx } from '../db/client.ts';
import { AppError } from './errors.ts';

/*
 * Idempotency-Key handling after the IETF draft (draft-ietf-httpapi-idempotency-key-header): a key is
 * remembered on the row its request wrote, in the same transaction, together with a fingerprint of the
 * request. A retry with the same fingerprint answers the first result; the same key on a different
 * request answers 422; a key whose first request has not finished answers 409 with Retry-After.
 */

/**
 * What identifies a request, hashed: its kind, its target and caller, and its validated body in
 * RFC 8785 canonical JSON, so the order of keys or the spacing a client chose does not matter.
 */
export function requestFingerprint(request: { action: string; target: Record<string, string>; body: unknown }): string {
  let canonical: string | undefined;
  try {
    canonical = canonicalize(request);
  } catch {
    // Only values JSON cannot carry (lone surrogates, NaN) get here: they are the client's to fix.
    throw new AppError('INVALID_ARGUMENT');
  }
  return createHash('sha256')
    .update(canonical ?? '')
    .digest('base64url');
}

/**
 * Claims a key for the current transaction, or answers 409 while another transaction holds it: a
 * retry sent before the first request finished must not wait for it (it may be the very request
 * the client gave up on) nor run it a second time. The lock ends with the transaction, committed or not.
 * One cheap statement, sent only when the request carries a key.
 */
export async function claimIdempotencyKey(tx: DbOrTx, scope: string, key: string): Promise<void> {
  const { rows } = await tx.execute<{ claimed: boolean }>(
    sql`select pg_try_advisory_xact_lock(hashtextextended(${`kaminuza.${scope}:${key}`}, 0)) as claimed`,
  );
  if (!rows[0]?.claimed) throw keyInProgress();
}

export function keyInProgress(): AppError {
  return new AppError('ABORTED', APPLICATION_MESSAGES.idempotency_key_in_progress, undefined, {
    retryAfterSeconds: IDEMPOTENCY_RETRY_AFTER_SECONDS,
    reason: 'idempotency_key_in_progress',
  });
}

/** 422: the key already made something else; nothing is written. */
export function keyReused(): AppError {
  return new AppError('INVALID_ARGUMENT', APPLICATION_MESSAGES.idempotency_key_reused, undefined, {
    http: IDEMPOTENCY_MISMATCH_HTTP,
  });
}

/**
 * Whether a stored request may be answered again for this one. Rows written before fingerprints were
 * kept have none: for them the caller's own check of the target decides (`legacyMatch`).
 */
export function sameRequest(stored: string | null, fingerprint: string, legacyMatch: boolean): boolean {
  return stored === null ? legacyMatch : stored === fingerprint;
}

/** The optional Idempotency-Key header of the routes that take one. */
export const IdempotencyHeadersSchema = z.object({ [IDEMPOTENCY_KEY_HEADER]: IdempotencyKeySchema.optional() });

/** What a route's OpenAPI description says of its Idempotency-Key header; `fingerprinted` names what identifies its request. */
export function idempotencyDescription(fingerprinted: string): string {
  return [
    'An Idempotency-Key (IETF draft-ietf-httpapi-idempotency-key-header) is remembered with what its request',
    `made, with a fingerprint of that request: ${fingerprinted}. A retry with the same key and request answers the`,
    'first result again, with 200; the same key on a different request answers 422 (INVALID_ARGUMENT) and changes',
    'nothing; while the first request with the key is still being processed, 409 (ABORTED) with Retry-After.',
    'A key is remembered only once its request succeeded.',
  ].join(' ');
}
