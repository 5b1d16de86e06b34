import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Auth } from './better-auth.ts';
import { secureCookies } from './better-auth.ts';

/**
 * OWASP's device cookies (ADR 022): a browser that proved an account's password (or its email link) gets
 * a cookie naming the account and a random nonce, signed with a key derived from AUTH_SECRET. Sign-in
 * attempts that carry one are counted against that device rather than against the account, so strangers
 * guessing elsewhere cannot lock the owner out of a browser they have used before.
 */
export interface DeviceCookies {
  /** A Set-Cookie value: a new device cookie for the account, valid for DEVICE_COOKIE_DAYS. */
  issue(userId: string): string;
  /** The nonce of the request's device cookie for the account, or null when absent, forged, foreign or expired. */
  read(cookieHeader: string | null | undefined, userId: string): string | null;
}

export const DEVICE_COOKIE_DAYS = 365;
const DAY_SECONDS = 86_400;
const VERSION = 'v1';

const base64url = (buffer: Buffer) => buffer.toString('base64url');

function cookiesOf(header: string | null | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return out;
}

export function createDeviceCookies({
  secret,
  secure,
  now = () => Date.now(),
}: {
  secret: string;
  secure: boolean;
  now?: () => number;
}): DeviceCookies {
  // Its own key, so a device cookie's signature can never stand in for a session cookie's or the reverse.
  const key = Buffer.from(hkdfSync('sha256', secret, 'kaminuza', 'device-cookie/v1', 32));
  const mac = (text: string) => createHmac('sha256', key).update(text).digest();
  // One cookie per account, so the accounts of a shared computer keep their own; the name hides the id.
  const nameOf = (userId: string) =>
    `${secure ? '__Secure-' : ''}kaminuza.device.${base64url(mac(`name|${userId}`)).slice(0, 16)}`;
  const signature = (userId: string, nonce: string, expires: string) => mac(`${VERSION}|${userId}|${nonce}|${expires}`);

  return {
    issue(userId) {
      const nonce = base64url(randomBytes(16));
      const maxAge = DEVICE_COOKIE_DAYS * DAY_SECONDS;
      const expires = String(Math.floor(now() / 1000) + maxAge);
      const value = `${VERSION}.${nonce}.${expires}.${base64url(signature(userId, nonce, expires))}`;
      const attributes = [`Max-Age=${maxAge}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
      return [`${nameOf(userId)}=${value}`, ...attributes].join('; ');
    },

    read(cookieHeader, userId) {
      const value = cookiesOf(cookieHeader).get(nameOf(userId));
      const [version, nonce, expires, given, ...rest] = value?.split('.') ?? [];
      if (version !== VERSION || !nonce || !expires || !given || rest.length > 0) return null;
      if (!/^\d+$/.test(expires) || Number(expires) * 1000 <= now()) return null;
      const expected = signature(userId, nonce, expires);
      const actual = Buffer.from(given, 'base64url');
      return actual.length === expected.length && timingSafeEqual(actual, expected) ? nonce : null;
    },
  };
}

const byAuth = new WeakMap<Auth, DeviceCookies>();

/** The device cookies of the auth instance: its secret, and Secure wherever its session cookies are. */
export function deviceCookies(auth: Auth): DeviceCookies {
  let cookies = byAuth.get(auth);
  if (!cookies) {
    const { secret, baseURL } = auth.options;
    if (!secret || typeof baseURL !== 'string') throw new Error('the auth instance has no secret or base URL');
    cookies = createDeviceCookies({ secret, secure: secureCookies(baseURL) });
    byAuth.set(auth, cookies);
  }
  return cookies;
}
