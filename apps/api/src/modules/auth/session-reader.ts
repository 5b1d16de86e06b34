import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { UserType } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import type { Auth } from './better-auth.ts';

export interface ReadSession {
  session: { userId: string; type: UserType } | null;
  setCookies: string[];
}

/** better-auth's answer for a request: it reads, refreshes, expires and cleans up sessions. */
export type SlowRead = (headers: Headers) => Promise<ReadSession>;

/**
 * The request's session in one prepared query, when nothing about it needs better-auth's attention —
 * the case of nearly every request (ADR 045). better-auth reads a session in two adapter queries built
 * anew each time (the session by token, then its user) through layers that cost more than the queries;
 * on deadline day every autosave and submit pays that.
 *
 * The fast path answers only what better-auth would answer the same way without writing anything:
 * - no session cookie: anonymous;
 * - a cookie whose signature does not verify (HMAC-SHA256 with the auth secret, as better-call signs it):
 *   anonymous;
 * - a valid, unexpired session not yet due for its daily refresh: its user.
 * Everything else goes to better-auth: an unknown or expired token (it expires the cookie and deletes the
 * row), a session due for refresh (it extends it and sets a new cookie), and the rare cookies it cleans up
 * (session data, "don't remember me", a repeated session cookie).
 */
export function createSessionReader(auth: Auth, db: Db, slow: SlowRead) {
  const lookup = db
    .select({ userId: sessions.user_id, expiresAt: sessions.expires_at, type: users.type })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .where(eq(sessions.token, sql.placeholder('token')))
    .limit(1)
    .prepare('read_session_by_token');

  return async function readSession(headers: Headers): Promise<ReadSession> {
    const context = await auth.$context;
    const cookie = headers.get('cookie');
    const names = {
      token: context.authCookies.sessionToken.name,
      data: context.authCookies.sessionData.name,
      dontRemember: context.authCookies.dontRememberToken.name,
    };
    const found = cookie ? sessionCookies(cookie, names) : { token: [], other: false };
    if (found.token.length === 0 && !found.other) return { session: null, setCookies: [] };
    if (found.other || found.token.length > 1) return slow(headers);

    const token = verifiedToken(found.token[0]!, context.secret);
    if (token === null) return { session: null, setCookies: [] };
    const [row] = await lookup.execute({ token });
    const now = Date.now();
    const expiresAt = row ? Date.parse(row.expiresAt) : Number.NaN;
    if (!row || !(expiresAt >= now)) return slow(headers);
    const { expiresIn, updateAge } = context.sessionConfig;
    if (expiresAt - expiresIn * 1000 + updateAge * 1000 <= now) return slow(headers);
    return { session: { userId: row.userId, type: row.type as UserType }, setCookies: [] };
  };
}

/**
 * The session token cookie's values and whether any cookie better-auth would act on is present. Parsed
 * as better-call does: `name=value` pairs split on `;`, names and values trimmed, quotes removed, values
 * percent-decoded.
 */
function sessionCookies(
  header: string,
  names: { token: string; data: string; dontRemember: string },
): { token: string[]; other: boolean } {
  const token: string[] = [];
  let other = false;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1) continue;
    const name = pair.slice(0, equals).trim();
    if (name === names.token) {
      let value = pair.slice(equals + 1).trim();
      if (value.startsWith('"') && value.endsWith('"') && value.length > 1) value = value.slice(1, -1);
      token.push(decode(value));
    } else if (name.startsWith(names.data) || name === names.dontRemember) {
      other = true;
    }
  }
  return { token, other };
}

function decode(value: string): string {
  try {
    return value.includes('%') ? decodeURIComponent(value) : value;
  } catch {
    return value;
  }
}

/** `<token>.<base64 HMAC-SHA256 of the token>`: the token when the signature is the secret's, else null. */
function verifiedToken(value: string, secret: string): string | null {
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return null;
  const expected = createHmac('sha256', secret).update(token).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}
