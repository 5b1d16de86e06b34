import { describe, expect, it } from 'vitest';
import { cookieHeader } from '../../test/auth.ts';
import { createDeviceCookies } from './device-cookie.ts';

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';
const ALICE = '6f1c1d2e-0000-4000-8000-000000000001';
const BOB = '6f1c1d2e-0000-4000-8000-000000000002';

describe('device cookies', () => {
  const cookies = createDeviceCookies({ secret: SECRET, secure: false });

  it('reads back the nonce of a cookie it issued, for that account only', () => {
    const header = cookieHeader(cookies.issue(ALICE));
    expect(cookies.read(`other=1; ${header}`, ALICE)).toMatch(/^[\w-]{22}$/);
    expect(cookies.read(header, BOB)).toBeNull();
  });

  it('gives each issue a new nonce, and each account its own cookie name', () => {
    const first = cookieHeader(cookies.issue(ALICE));
    const second = cookieHeader(cookies.issue(ALICE));
    expect(cookies.read(first, ALICE)).not.toBe(cookies.read(second, ALICE));
    expect(first.split('=')[0]).toBe(second.split('=')[0]);
    expect(cookieHeader(cookies.issue(BOB)).split('=')[0]).not.toBe(first.split('=')[0]);
    expect(first).not.toContain(ALICE);
  });

  it('refuses a cookie whose expiry was pushed back by hand', () => {
    const header = cookieHeader(cookies.issue(ALICE));
    const [name, value] = header.split('=') as [string, string];
    const [version, nonce, expires, signature] = value.split('.');
    const later = `${name}=${[version, nonce, String(Number(expires) + 86_400), signature].join('.')}`;
    expect(cookies.read(later, ALICE)).toBeNull();
  });

  it('refuses an expired cookie', () => {
    let now = Date.now();
    const clocked = createDeviceCookies({ secret: SECRET, secure: false, now: () => now });
    const header = cookieHeader(clocked.issue(ALICE));
    now += 364 * 86_400_000;
    expect(clocked.read(header, ALICE)).not.toBeNull();
    now += 2 * 86_400_000;
    expect(clocked.read(header, ALICE)).toBeNull();
  });

  it('refuses a cookie signed with another secret', () => {
    const other = createDeviceCookies({ secret: `${SECRET}-rotated`, secure: false });
    expect(cookies.read(cookieHeader(other.issue(ALICE)), ALICE)).toBeNull();
  });

  it('names the cookie __Secure- and marks it Secure outside localhost', () => {
    const secure = createDeviceCookies({ secret: SECRET, secure: true }).issue(ALICE);
    expect(secure).toMatch(/^__Secure-kaminuza\.device\.[\w-]{16}=v1\..+; HttpOnly; SameSite=Lax; Secure$/);
  });
});
