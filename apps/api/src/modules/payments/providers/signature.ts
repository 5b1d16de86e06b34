import { createHmac, timingSafeEqual } from 'node:crypto';

/** How old (or how far ahead) a signed callback may be: a captured one cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const hmac = (secret: string, timestamp: number, body: Buffer | string) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();

/** The `kaminuza-signature` header of a callback body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signCallback(secret: string, body: Buffer | string, now: Date): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${hmac(secret, timestamp, body).toString('hex')}`;
}

/**
 * Whether a signature header was made with the secret over these exact bytes within the tolerance.
 * Several v1 entries are accepted (one matching is enough), so a secret can be rotated without a gap.
 */
export function verifyCallbackSignature(
  secret: string,
  body: Buffer,
  header: string | undefined,
  now: Date,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  if (!header) return false;
  let timestamp: number | null = null;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === null || signatures.length === 0) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = hmac(secret, timestamp, body);
  return signatures.some((signature) => timingSafeEqual(signature, expected));
}
