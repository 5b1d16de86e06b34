import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sessions } from '../../db/schema/index.ts';
import { createTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import { readSession as readSessionThroughBetterAuth } from './auth.service.ts';
import { createSessionReader, type SlowRead } from './session-reader.ts';

let database: Database;
let app: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
});

afterAll(async () => {
  await app.close();
  await database.close();
});

/** A reader whose better-auth fallback is watched: the fast path must answer without it. */
function reader() {
  const { auth, db } = app.accounts;
  const slow = vi.fn<SlowRead>((headers) => readSessionThroughBetterAuth(auth, headers));
  return { read: createSessionReader(auth, db, slow), slow };
}

const headers = (cookie?: string) => new Headers(cookie ? { cookie } : {});
const DAY = 86_400_000;

async function setExpiry(account: TestAccount, expiresAt: Date) {
  await app.accounts.db
    .update(sessions)
    .set({ expires_at: expiresAt.toISOString() })
    .where(eq(sessions.user_id, account.id));
}

describe('reading the session without better-auth', () => {
  it('answers a valid session’s user in one query, as better-auth would, setting no cookie', async () => {
    const student = await signInAs(app, 'student');
    const { read, slow } = reader();
    const fast = await read(headers(student.headers.cookie));
    expect(fast).toEqual({ session: { userId: student.id, type: 'student' }, setCookies: [] });
    expect(slow).not.toHaveBeenCalled();
    expect(await readSessionThroughBetterAuth(app.accounts.auth, headers(student.headers.cookie))).toEqual(fast);
  });

  it('answers anonymous to no cookie and to a cookie signed with another secret, without a query', async () => {
    const student = await signInAs(app, 'student');
    const { read, slow } = reader();
    expect(await read(headers())).toEqual({ session: null, setCookies: [] });
    expect(await read(headers('theme=dark'))).toEqual({ session: null, setCookies: [] });
    // The token is right, the signature is not: a forged cookie.
    const forged = student.headers.cookie.replace(/(session_token=[^.;]+\.)[^;]+/, `$1${'A'.repeat(43)}=`);
    expect(forged).not.toBe(student.headers.cookie);
    expect(await read(headers(forged))).toEqual({ session: null, setCookies: [] });
    expect(await readSessionThroughBetterAuth(app.accounts.auth, headers(forged))).toEqual({
      session: null,
      setCookies: [],
    });
    expect(slow).not.toHaveBeenCalled();
  });

  it('leaves a revoked or expired session to better-auth, which expires the cookie', async () => {
    const student = await signInAs(app, 'student');
    const { read, slow } = reader();
    await setExpiry(student, new Date(Date.now() - 1000));
    const expired = await read(headers(student.headers.cookie));
    expect(expired.session).toBeNull();
    expect(expired.setCookies.join(';')).toMatch(/session_token=;.*Max-Age=0/i);
    expect(slow).toHaveBeenCalledTimes(1);

    const other = await signInAs(app, 'staff');
    await app.accounts.db.delete(sessions).where(eq(sessions.user_id, other.id));
    expect((await read(headers(other.headers.cookie))).session).toBeNull();
    expect(slow).toHaveBeenCalledTimes(2);
  });

  it('leaves a session due for its daily refresh to better-auth, which extends it and sets the cookie again', async () => {
    const student = await signInAs(app, 'student');
    const { read, slow } = reader();
    // Last extended more than a day ago: 30 days from then ends in under 29 days.
    await setExpiry(student, new Date(Date.now() + 28 * DAY));
    const refreshed = await read(headers(student.headers.cookie));
    expect(refreshed.session).toEqual({ userId: student.id, type: 'student' });
    expect(refreshed.setCookies.join(';')).toMatch(/session_token=/);
    expect(slow).toHaveBeenCalledTimes(1);
    // Extended: the next read is fast again.
    await read(headers(student.headers.cookie));
    expect(slow).toHaveBeenCalledTimes(1);
  });

  it('leaves the cookies better-auth cleans up, and a repeated session cookie, to better-auth', async () => {
    const student = await signInAs(app, 'student');
    const { read, slow } = reader();
    const name = student.headers.cookie.match(/([^;\s]*session_token)=/)![1]!;
    await read(headers(`${student.headers.cookie}; ${name.replace('session_token', 'session_data')}=x`));
    await read(headers(`${student.headers.cookie}; ${name}=other.value`));
    await read(headers(`${student.headers.cookie}; ${name.replace('session_token', 'dont_remember')}=x`));
    expect(slow).toHaveBeenCalledTimes(3);
  });
});
