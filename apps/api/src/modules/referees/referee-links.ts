import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * A referee's link (ADR 054): `<referee id>.<link version>.<signature>`, the signature an HMAC of the two
 * with the server's secret. It proves the link was made here for that referee and version without storing
 * a token; expiry and use are checked against the referee's row, and a new version (the applicant corrected
 * the address) makes every older link invalid.
 */

const SIGNATURE_CHARS = 43;

function signature(secret: string, refereeId: string, version: number): string {
  return createHmac('sha256', secret).update(`referee-link:${refereeId}:${version}`).digest('base64url');
}

export function refereeToken(secret: string, refereeId: string, version: number): string {
  return `${refereeId}.${version}.${signature(secret, refereeId, version)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The referee and version a token names, when its signature is ours; null for anything else. */
export function readRefereeToken(secret: string, token: string): { refereeId: string; version: number } | null {
  const [refereeId, versionText, given, ...rest] = token.split('.');
  if (rest.length > 0 || !refereeId || !versionText || !given || !UUID.test(refereeId)) return null;
  if (!/^[1-9]\d{0,8}$/.test(versionText) || given.length !== SIGNATURE_CHARS) return null;
  const version = Number(versionText);
  const expected = Buffer.from(signature(secret, refereeId, version));
  const received = Buffer.from(given);
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) return null;
  return { refereeId, version };
}

export const refereeLink = (publicUrl: string, token: string) => `${publicUrl}/reference/${encodeURIComponent(token)}`;
