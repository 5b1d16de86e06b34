import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { AUTH_MESSAGES, lockedOutMessage, VALIDATION_MESSAGES, type StudentSignUpInput } from '@kaminuza/shared';
import type { App } from '../../app.ts';
import { accounts, emailOutbox, sessions, students, users, verifications } from '../../db/schema/index.ts';
import { requireUser, requireUserType } from './guard.ts';
import { createTestApp, TEST_PUBLIC_URL, testEnv, useTestApp } from '../../test/app.ts';
import { cookieHeader, expectAccess, signInAs, TEST_PASSWORD } from '../../test/auth.ts';
import { createDeviceCookies, DEVICE_COOKIE_DAYS } from './device-cookie.ts';

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const PASSWORD = 'Str0ng#Password';

const testApp = useTestApp();

beforeAll(async () => {
  testApp.app.get('/api/v1/test/signed-in', { preHandler: requireUser }, async (request) => ({ data: request.user }));
  testApp.app.get('/api/v1/test/staff-only', { preHandler: requireUserType('staff') }, async () => ({ data: 'staff' }));
});

/** Each test gets its own client address so per-IP limits of one test never touch another. */
const newIp = () => `10.${randomBytes(3).join('.')}`;
const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

function post(url: string, payload: object, options: { ip?: string; cookie?: string; headers?: object } = {}) {
  return testApp.app.inject({
    method: 'POST',
    url: `/api/v1/auth/${url}`,
    payload,
    remoteAddress: options.ip ?? newIp(),
    headers: {
      'user-agent': CHROME_ON_WINDOWS,
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
  });
}

const session = (cookie?: string) =>
  testApp.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: cookie ? { cookie } : {} });

function student(overrides: Partial<StudentSignUpInput> = {}): StudentSignUpInput {
  return {
    email: uniqueEmail('student'),
    password: PASSWORD,
    education_level: 'high_school',
    gender: 'female',
    first_name: 'Aline',
    preferred_name: 'Ali',
    last_name: 'Uwimana',
    date_of_birth: '2005-04-12',
    phone: '+250788123456',
    city: 'Kigali',
    country: 'RW',
    accept_terms: true,
    ...overrides,
  };
}

async function emailsTo(to: string, template?: string) {
  return testApp.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, to.toLowerCase()), template ? eq(emailOutbox.template, template) : undefined))
    .orderBy(emailOutbox.created_at);
}

/** The code or token of the latest link of that template sent to the address. */
async function latestLink(to: string, template: 'email_verification' | 'password_reset'): Promise<string> {
  const sent = await emailsTo(to, template);
  const link = sent.at(-1)?.data.link;
  if (typeof link !== 'string') throw new Error(`no ${template} email to ${to}`);
  return new URL(link).searchParams.get(template === 'email_verification' ? 'code' : 'token') ?? '';
}

async function userRow(email: string) {
  const [row] = await testApp.db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return row;
}

/** Signs up and verifies a student; returns the address and the verified session's cookie. */
async function verifiedStudent(overrides: Partial<StudentSignUpInput> = {}) {
  const input = student(overrides);
  expect((await post('sign-up/student', input)).statusCode).toBe(201);
  const verified = await post('verify-email', { code: await latestLink(input.email, 'email_verification') });
  expect(verified.statusCode).toBe(200);
  return { input, cookie: cookieHeader(verified.headers['set-cookie']) };
}

const errorOf = (response: { json(): unknown }) => (response.json() as { error: unknown }).error;

describe('POST /auth/sign-up/student', () => {
  it('creates the user, the student record with the spec defaults and both emails, without signing in', async () => {
    const input = student({ email: 'New.Student@Example.com', language: 'fr' });
    const response = await post('sign-up/student', input);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ data: { email: 'new.student@example.com', verification_sent: true } });
    expect(response.headers['set-cookie']).toBeUndefined();

    const user = await userRow(input.email);
    expect(user).toMatchObject({ type: 'student', terms_accepted: true, contact_verified: false, partner_id: null });
    const [record] = await testApp.db.select().from(students).where(eq(students.user_id, user!.id));
    expect(record).toMatchObject({
      email: 'new.student@example.com',
      first_name: 'Aline',
      last_name: 'Uwimana',
      preferred_name: 'Ali',
      phone: '+250788123456',
      date_of_birth: '2005-04-12',
      gender: 'female',
      city: 'Kigali',
      country: 'RW',
      education_level: 'high_school',
      language: 'fr',
      currency: 'USD',
      timezone: 'UTC',
      profile_completion: 25,
      is_complete: false,
      current_applications: [],
      completed_applications: [],
    });

    const [credential] = await testApp.db.select().from(accounts).where(eq(accounts.user_id, user!.id));
    expect(credential).toMatchObject({ provider_id: 'credential', account_id: user!.id });
    expect(credential!.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const sent = await emailsTo(input.email);
    expect(sent.map((e) => e.template).sort()).toEqual(['email_verification', 'welcome']);
    const verification = sent.find((e) => e.template === 'email_verification')!;
    expect(verification.language).toBe('fr');
    expect(verification.data).toMatchObject({
      name: 'Aline',
      operating_system: expect.stringMatching(/^Windows/),
      browser_name: 'Chrome',
    });
    expect(verification.data.link).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/auth/verify-email\\?code=[\\w-]{43}$`));
  });

  it('defaults the language to en', async () => {
    const input = student();
    expect((await post('sign-up/student', input)).statusCode).toBe(201);
    const [record] = await testApp.db.select().from(students).where(eq(students.email, input.email));
    expect(record?.language).toBe('en');
  });

  it('answers 409 for an email already registered in any case, and changes nothing', async () => {
    const input = student();
    expect((await post('sign-up/student', input)).statusCode).toBe(201);
    const again = await post('sign-up/student', { ...input, email: input.email.toUpperCase(), first_name: 'Other' });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toEqual({ status: 'ABORTED', message: AUTH_MESSAGES.email_taken });
    expect(await testApp.db.$count(users, sql`lower(${users.email}) = ${input.email}`)).toBe(1);
    expect(await emailsTo(input.email)).toHaveLength(2);
  });

  it('refuses a common password that meets the character rules, and stores nothing', async () => {
    const input = student({ password: 'Password1!' });
    const response = await post('sign-up/student', input);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({
      status: 'INVALID_ARGUMENT',
      message: AUTH_MESSAGES.weak_password,
      details: [{ path: 'password', message: AUTH_MESSAGES.weak_password }],
    });
    expect(await userRow(input.email)).toBeUndefined();
    expect(await emailsTo(input.email)).toHaveLength(0);
  });

  it('answers 400 with the spec messages per field and stores nothing', async () => {
    const input = student({
      password: 'weakpass',
      accept_terms: false as true,
      date_of_birth: '2020-01-01',
      first_name: 'A',
    });
    const response = await post('sign-up/student', input);
    expect(response.statusCode).toBe(400);
    const error = errorOf(response) as { status: string; details: { path: string; message: string }[] };
    expect(error.status).toBe('INVALID_ARGUMENT');
    expect(error.details).toEqual(
      expect.arrayContaining([
        { path: 'password', message: VALIDATION_MESSAGES.password_uppercase },
        { path: 'accept_terms', message: VALIDATION_MESSAGES.terms_required },
        { path: 'date_of_birth', message: VALIDATION_MESSAGES.age_range },
        { path: 'first_name', message: VALIDATION_MESSAGES.first_name_too_short },
      ]),
    );
    expect(await userRow(input.email)).toBeUndefined();
  });
});

describe('POST /auth/sign-in', () => {
  it('answers 404 for an unknown email', async () => {
    const response = await post('sign-in', { email: uniqueEmail('nobody'), password: PASSWORD });
    expect(response.statusCode).toBe(404);
    expect(errorOf(response)).toEqual({ status: 'NOT_FOUND', message: AUTH_MESSAGES.no_account });
  });

  it('answers 401 for a wrong password, without a session', async () => {
    const { input } = await verifiedStudent();
    const response = await post('sign-in', { email: input.email, password: 'Wrong#Passw0rd' });
    expect(response.statusCode).toBe(401);
    expect(errorOf(response)).toEqual({ status: 'UNAUTHENTICATED', message: AUTH_MESSAGES.wrong_password });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses an unverified account with 403 and sends a new verification email', async () => {
    const input = student();
    await post('sign-up/student', input);
    const before = await latestLink(input.email, 'email_verification');
    const response = await post('sign-in', { email: input.email, password: PASSWORD });
    expect(response.statusCode).toBe(403);
    expect(errorOf(response)).toEqual({
      status: 'PERMISSION_DENIED',
      message: AUTH_MESSAGES.verify_first,
      reason: 'verify_first',
    });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await emailsTo(input.email, 'email_verification')).toHaveLength(2);
    expect(await latestLink(input.email, 'email_verification')).not.toBe(before);
    const user = await userRow(input.email);
    expect(await testApp.db.$count(sessions, eq(sessions.user_id, user!.id))).toBe(0);
  });

  it('signs a verified student in with an httpOnly, SameSite=Lax cookie, whatever the email case', async () => {
    const { input } = await verifiedStudent({ language: 'rw' });
    const response = await post('sign-in', { email: input.email.toUpperCase(), password: PASSWORD });
    expect(response.statusCode).toBe(200);
    const user = await userRow(input.email);
    expect(response.json()).toEqual({
      data: {
        id: user!.id,
        email: input.email,
        type: 'student',
        first_name: 'Aline',
        preferred_name: 'Ali',
        language: 'rw',
        contact_verified: true,
        partner_id: null,
        onboarding_complete: false,
        partner_name: null,
        partner_status: null,
        partner_review_reason: null,
        staff_approval_status: null,
        staff_permissions: null,
        staff_active: null,
      },
    });
    const [cookie] = response.headers['set-cookie'] as string[];
    expect(cookie).toMatch(/^kaminuza\.session_token=[^;]+/);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//);
    // Plain-HTTP localhost: not Secure, or the browser would drop it.
    expect(cookie).not.toMatch(/; Secure/i);
    expect((await session(cookieHeader(cookie))).json().data.id).toBe(user!.id);
  });

  it('rotates the session at every sign-in: the cookie sent along stops working', async () => {
    const { input, cookie: first } = await verifiedStudent();
    const again = await post('sign-in', { email: input.email, password: PASSWORD }, { cookie: first });
    expect(again.statusCode).toBe(200);
    const second = cookieHeader(again.headers['set-cookie']);
    expect(second).not.toBe(first);
    expect((await session(first)).json()).toEqual({ data: null });
    expect((await session(second)).json().data.email).toBe(input.email);
  });

  it('limits sign-in attempts per client address', async () => {
    const ip = newIp();
    for (let attempt = 1; attempt <= 60; attempt++) {
      expect((await post('sign-in', { email: 'not-an-email' }, { ip })).statusCode).toBe(400);
    }
    const limited = await post('sign-in', { email: uniqueEmail('x'), password: PASSWORD }, { ip });
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited)).toEqual({ status: 'RESOURCE_EXHAUSTED', message: AUTH_MESSAGES.too_many_attempts });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post('sign-in', { email: uniqueEmail('x'), password: PASSWORD })).statusCode).toBe(404);
  });
});

/** The `name=value` of the device cookie among a response's Set-Cookie headers. */
function deviceCookieOf(response: { headers: Record<string, unknown> }): string {
  const found = ([response.headers['set-cookie']].flat() as string[]).find((c) => c?.startsWith('kaminuza.device.'));
  if (!found) throw new Error('no device cookie was set');
  return cookieHeader(found);
}

/** Ten wrong passwords for the account, each from a new address and without any cookie. */
async function strangersGuess(email: string, url = 'sign-in') {
  for (let attempt = 1; attempt <= 10; attempt++) {
    const wrong = await post(url, { email, password: `Wrong#${attempt}x` });
    expect(wrong.statusCode, `attempt ${attempt}`).toBe(401);
  }
}

function expectLockedOut(response: Awaited<ReturnType<typeof post>>) {
  expect(response.statusCode).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(800);
  expect(retryAfter).toBeLessThanOrEqual(900);
  expect(errorOf(response)).toEqual({
    status: 'RESOURCE_EXHAUSTED',
    message: lockedOutMessage(Math.ceil(retryAfter / 60)),
    details: { retry_after_seconds: retryAfter },
  });
  expect(errorOf(response)).toMatchObject({ message: 'Too many attempts. Please try again in 15 minutes.' });
  expect(response.headers['set-cookie']).toBeUndefined();
}

describe('sign-in lockout with device cookies (ADR 022)', () => {
  it('gives a verified or signed-in browser a long-lived, httpOnly, SameSite=Lax device cookie', async () => {
    const { input, cookie } = await verifiedStudent();
    expect(cookie).toMatch(/kaminuza\.device\.[\w-]{16}=v1\./);
    const response = await post('sign-in', { email: input.email, password: PASSWORD });
    const device = ([response.headers['set-cookie']].flat() as string[]).find((c) => c.startsWith('kaminuza.device.'));
    expect(device).toMatch(new RegExp(`; Max-Age=${DEVICE_COOKIE_DAYS * 86_400}`));
    expect(device).toMatch(/; HttpOnly/);
    expect(device).toMatch(/; SameSite=Lax/);
    expect(device).toMatch(/; Path=\//);
    expect(device).not.toMatch(/; Secure/);
  });

  it('strangers exhaust the account limit, yet the owner on a known device still signs in', async () => {
    const { input, cookie } = await verifiedStudent();
    const ownDevice = deviceCookieOf(await post('sign-in', { email: input.email, password: PASSWORD }, { cookie }));
    await strangersGuess(input.email);

    // An unknown device, even with the right password, is told how long to wait.
    expectLockedOut(await post('sign-in', { email: input.email, password: PASSWORD }));

    const owner = await post('sign-in', { email: input.email, password: PASSWORD }, { cookie: ownDevice });
    expect(owner.statusCode).toBe(200);
    expect((await session(cookieHeader(owner.headers['set-cookie']))).json().data.email).toBe(input.email);
    // The owner's success does not reopen the account to unknown devices.
    expectLockedOut(await post('sign-in', { email: input.email, password: PASSWORD }));

    // Once the window has passed, any device may try again.
    await testApp.db.execute(sql`update rate_limits set reset_at = now() - interval '1 second'`);
    expect((await post('sign-in', { email: input.email, password: PASSWORD })).statusCode).toBe(200);
  });

  it('protects an admin the same way on the admin sign-in', async () => {
    const admin = await signInAs(testApp.app, 'admin');
    await strangersGuess(admin.email, 'sign-in/admin');
    expectLockedOut(await post('sign-in/admin', { email: admin.email, password: TEST_PASSWORD }));
    const owner = await post(
      'sign-in/admin',
      { email: admin.email, password: TEST_PASSWORD },
      { cookie: admin.headers.cookie },
    );
    expect(owner.statusCode).toBe(200);
  });

  it('counts a forged, foreign or expired device cookie as an unknown device', async () => {
    const { input, cookie } = await verifiedStudent();
    const ownDevice = deviceCookieOf(await post('sign-in', { email: input.email, password: PASSWORD }, { cookie }));
    const { cookie: otherCookie } = await verifiedStudent();
    const [name, value] = ownDevice.split('=') as [string, string];
    const otherValue = otherCookie
      .split('; ')
      .find((c) => c.startsWith('kaminuza.device.'))!
      .split('=')[1];
    const user = await userRow(input.email);
    const expired = createDeviceCookies({
      secret: testEnv().AUTH_SECRET,
      secure: false,
      now: () => Date.now() - (DEVICE_COOKIE_DAYS * 86_400 + 60) * 1000,
    }).issue(user!.id);
    const otherSecret = createDeviceCookies({ secret: 'another-secret-of-at-least-32-characters', secure: false });
    await strangersGuess(input.email);

    for (const [label, device] of [
      ['forged signature', `${name}=${value.slice(0, -4)}AAAA`],
      ['forged nonce', `${name}=${value.replace(/^v1\.[\w-]+\./, 'v1.AAAAAAAAAAAAAAAAAAAAAA.')}`],
      ["another account's cookie", `${name}=${otherValue}`],
      ['expired', cookieHeader(expired)],
      ['signed with another secret', cookieHeader(otherSecret.issue(user!.id))],
      ['garbage', `${name}=not-a-device-cookie`],
    ]) {
      const response = await post('sign-in', { email: input.email, password: PASSWORD }, { cookie: device });
      expect(response.statusCode, label).toBe(429);
    }
    expect((await post('sign-in', { email: input.email, password: PASSWORD }, { cookie: ownDevice })).statusCode).toBe(
      200,
    );
  });

  it('locks out a device cookie that collects too many failures, and only that device', async () => {
    const { input, cookie } = await verifiedStudent();
    const ownDevice = deviceCookieOf(await post('sign-in', { email: input.email, password: PASSWORD }, { cookie }));
    for (let attempt = 1; attempt <= 10; attempt++) {
      const wrong = await post('sign-in', { email: input.email, password: `Wrong#${attempt}x` }, { cookie: ownDevice });
      expect(wrong.statusCode, `attempt ${attempt}`).toBe(401);
    }
    expectLockedOut(await post('sign-in', { email: input.email, password: PASSWORD }, { cookie: ownDevice }));
    // The account's counter for unknown devices was never touched.
    expect((await post('sign-in', { email: input.email, password: PASSWORD })).statusCode).toBe(200);
  });

  it('still limits every request per client address, with the spec text', async () => {
    const { input, cookie } = await verifiedStudent();
    const ip = newIp();
    for (let attempt = 1; attempt <= 60; attempt++) {
      expect((await post('sign-in', { email: 'not-an-email' }, { ip, cookie })).statusCode).toBe(400);
    }
    const limited = await post('sign-in', { email: input.email, password: PASSWORD }, { ip, cookie });
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited)).toEqual({ status: 'RESOURCE_EXHAUSTED', message: AUTH_MESSAGES.too_many_attempts });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('sign-in from a new device', () => {
  it('emails the account in its language and time zone, with the browser, the system and the country', async () => {
    const { input } = await verifiedStudent({ language: 'fr' });
    await testApp.db.update(students).set({ timezone: 'Africa/Kigali' }).where(eq(students.email, input.email));
    // Verifying made that browser a known device: no notice for it.
    expect(await emailsTo(input.email, 'new_device_sign_in')).toHaveLength(0);

    const response = await post('sign-in', { email: input.email, password: PASSWORD }, { ip: '41.186.0.1' });
    expect(response.statusCode).toBe(200);
    const [notice] = await emailsTo(input.email, 'new_device_sign_in');
    expect(notice).toMatchObject({ language: 'fr', template: 'new_device_sign_in' });
    expect(notice!.data).toEqual({
      name: 'Aline',
      browser_name: 'Chrome',
      operating_system: expect.stringMatching(/^Windows/),
      occurred_at: expect.stringMatching(/^\d{1,2} \S+ 20\d\d à \d\d:\d\d UTC\+2$/),
      place: 'Rwanda',
      link: `${TEST_PUBLIC_URL}/forgot-password`,
    });
  });

  it('leaves the place out for a private address, and sends nothing for a known device', async () => {
    const { input, cookie } = await verifiedStudent();
    const known = await post('sign-in', { email: input.email, password: PASSWORD }, { cookie });
    expect(known.statusCode).toBe(200);
    expect(await emailsTo(input.email, 'new_device_sign_in')).toHaveLength(0);

    expect((await post('sign-in', { email: input.email, password: PASSWORD })).statusCode).toBe(200);
    const [notice] = await emailsTo(input.email, 'new_device_sign_in');
    expect(notice!.language).toBe('en');
    expect(notice!.data.place).toBeUndefined();
    expect(notice!.data.occurred_at).toMatch(/UTC$/);
  });

  it('sends nothing when the sign-in is refused', async () => {
    const { input } = await verifiedStudent();
    expect((await post('sign-in', { email: input.email, password: 'Wrong#Passw0rd' })).statusCode).toBe(401);
    expect((await post('sign-in/admin', { email: input.email, password: PASSWORD })).statusCode).toBe(403);
    expect(await emailsTo(input.email, 'new_device_sign_in')).toHaveLength(0);
  });
});

describe('POST /auth/sign-in/admin', () => {
  it('refuses a non-admin with 403 and no session', async () => {
    const { input } = await verifiedStudent();
    const response = await post('sign-in/admin', { email: input.email, password: PASSWORD });
    expect(response.statusCode).toBe(403);
    expect(errorOf(response)).toEqual({ status: 'PERMISSION_DENIED', message: AUTH_MESSAGES.admin_only });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('checks the password before the type', async () => {
    const { input } = await verifiedStudent();
    const response = await post('sign-in/admin', { email: input.email, password: 'Wrong#Passw0rd' });
    expect(response.statusCode).toBe(401);
  });

  it('signs an admin in, and refuses an unverified admin with the verify message', async () => {
    const admin = await signInAs(testApp.app, 'admin');
    const response = await post('sign-in/admin', { email: admin.email, password: TEST_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ type: 'admin', email: admin.email, contact_verified: true });

    await testApp.db.update(users).set({ contact_verified: false }).where(eq(users.id, admin.id));
    const unverified = await post('sign-in/admin', { email: admin.email, password: TEST_PASSWORD });
    expect(unverified.statusCode).toBe(403);
    expect(errorOf(unverified)).toEqual({
      status: 'PERMISSION_DENIED',
      message: AUTH_MESSAGES.verify_first,
      reason: 'verify_first',
    });
    expect(await emailsTo(admin.email, 'email_verification')).toHaveLength(1);
  });
});

describe('session and sign-out', () => {
  it('answers null without a session, and for a forged cookie', async () => {
    expect((await session()).json()).toEqual({ data: null });
    expect((await session('kaminuza.session_token=forged.value')).json()).toEqual({ data: null });
  });

  it('describes a staff member with their institution', async () => {
    const member = await signInAs(testApp.app, 'staff');
    const response = await session(member.headers.cookie);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json().data).toMatchObject({ type: 'staff', first_name: 'Test', partner_id: member.partnerId });
  });

  it('sign-out revokes the session and expires the cookie', async () => {
    const { cookie } = await verifiedStudent();
    const response = await post('sign-out', {}, { cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { ok: true } });
    expect((response.headers['set-cookie'] as string[]).join('\n')).toMatch(/kaminuza\.session_token=;.*Max-Age=0/);
    expect((await session(cookie)).json()).toEqual({ data: null });
  });

  it('sign-out from another site is refused and the session stays', async () => {
    const { cookie } = await verifiedStudent();
    const response = await post('sign-out', {}, { cookie, headers: { origin: 'https://evil.example' } });
    expect(response.statusCode).toBe(403);
    expect((await session(cookie)).json().data).not.toBeNull();
  });

  it('sets Secure cookies outside localhost', async () => {
    const secureApp = await createTestApp(testApp.database, testEnv({ PUBLIC_URL: 'https://kaminuza.example' }));
    try {
      const account = await signInAs(secureApp, 'student');
      const response = await secureApp.inject({
        method: 'POST',
        url: '/api/v1/auth/sign-in',
        payload: { email: account.email, password: TEST_PASSWORD },
      });
      const [cookie] = response.headers['set-cookie'] as string[];
      expect(cookie).toMatch(/^__Secure-kaminuza\.session_token=/);
      const device = (response.headers['set-cookie'] as string[]).find((c) => c.includes('kaminuza.device.'));
      expect(device).toMatch(
        /^__Secure-kaminuza\.device\.[\w-]{16}=v1\.[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
      );
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/; HttpOnly/i);
      expect(cookie).toMatch(/; SameSite=Lax/i);
    } finally {
      await secureApp.close();
    }
  });
});

describe('POST /auth/verify-email', () => {
  it('verifies, signs in, and the code works once', async () => {
    const input = student();
    await post('sign-up/student', input);
    const code = await latestLink(input.email, 'email_verification');
    const response = await post('verify-email', { code });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ email: input.email, type: 'student', contact_verified: true });
    expect((await session(cookieHeader(response.headers['set-cookie']))).json().data.email).toBe(input.email);
    expect((await userRow(input.email))?.contact_verified).toBe(true);

    const again = await post('verify-email', { code });
    expect(again.statusCode).toBe(400);
    expect(errorOf(again)).toEqual({ status: 'INVALID_ARGUMENT', message: AUTH_MESSAGES.link_invalid });
  });

  it('stores only a hash of the code', async () => {
    const input = student();
    await post('sign-up/student', input);
    const code = await latestLink(input.email, 'email_verification');
    const leaked = await testApp.db.$count(
      verifications,
      sql`${verifications.identifier} like ${`%${code}%`} or ${verifications.value} like ${`%${code}%`}`,
    );
    expect(leaked).toBe(0);
  });

  it('answers the invalid message for an unknown code, and the expired one after 24 hours', async () => {
    const unknown = await post('verify-email', { code: 'no-such-code' });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown)).toEqual({ status: 'INVALID_ARGUMENT', message: AUTH_MESSAGES.link_invalid });

    const input = student();
    await post('sign-up/student', input);
    const user = await userRow(input.email);
    const [link] = await testApp.db.select().from(verifications).where(eq(verifications.value, user!.id));
    const hoursValid = (Date.parse(link!.expires_at) - Date.parse(link!.created_at)) / 3_600_000;
    expect(hoursValid).toBeCloseTo(24, 1);
    await testApp.db
      .update(verifications)
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where(eq(verifications.value, user!.id));
    const expired = await post('verify-email', { code: await latestLink(input.email, 'email_verification') });
    expect(expired.statusCode).toBe(400);
    expect(errorOf(expired)).toEqual({ status: 'INVALID_ARGUMENT', message: AUTH_MESSAGES.link_expired });
    expect((await userRow(input.email))?.contact_verified).toBe(false);
  });

  it('retires the other outstanding codes once the email is verified', async () => {
    const input = student();
    await post('sign-up/student', input);
    const first = await latestLink(input.email, 'email_verification');
    await post('resend-verification', { email: input.email });
    const second = await latestLink(input.email, 'email_verification');
    expect((await post('verify-email', { code: second })).statusCode).toBe(200);
    expect(errorOf(await post('verify-email', { code: first }))).toMatchObject({ message: AUTH_MESSAGES.link_invalid });
  });
});

describe('POST /auth/resend-verification', () => {
  it('answers 200 in every case and emails only an existing, unverified account', async () => {
    const missing = uniqueEmail('missing');
    const ok = await post('resend-verification', { email: missing });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ data: { ok: true } });
    expect(await emailsTo(missing)).toHaveLength(0);

    const input = student();
    await post('sign-up/student', input);
    expect((await post('resend-verification', { email: input.email.toUpperCase() })).statusCode).toBe(200);
    expect(await emailsTo(input.email, 'email_verification')).toHaveLength(2);

    const { input: verified } = await verifiedStudent();
    expect((await post('resend-verification', { email: verified.email })).statusCode).toBe(200);
    expect(await emailsTo(verified.email, 'email_verification')).toHaveLength(1);
  });

  it('is rate limited per client address', async () => {
    const ip = newIp();
    for (let i = 0; i < 20; i++) await post('resend-verification', { email: uniqueEmail('r') }, { ip });
    const limited = await post('resend-verification', { email: uniqueEmail('r') }, { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('counts the forwarded client address only behind a trusted proxy (TRUST_PROXY)', async () => {
    const behindProxy = await createTestApp(testApp.database, testEnv({ TRUST_PROXY: '10.0.0.1' }));
    try {
      const resend = (target: App, client: string) =>
        target.inject({
          method: 'POST',
          url: '/api/v1/auth/resend-verification',
          payload: { email: uniqueEmail('p') },
          headers: { 'x-forwarded-for': client },
          remoteAddress: '10.0.0.1',
        });
      const first = `198.51.100.${Math.floor(Math.random() * 200)}`;
      for (let i = 0; i < 20; i++) expect((await resend(behindProxy, first)).statusCode).toBe(200);
      expect((await resend(behindProxy, first)).statusCode).toBe(429);
      // Another client behind the same proxy has its own allowance.
      expect((await resend(behindProxy, '203.0.113.7')).statusCode).toBe(200);
      // Without trust, the header is ignored: everyone is the proxy's address, now over its limit.
      const proxyIp = newIp();
      for (let i = 0; i < 20; i++) {
        await testApp.app.inject({
          method: 'POST',
          url: '/api/v1/auth/resend-verification',
          payload: { email: uniqueEmail('p') },
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
          remoteAddress: proxyIp,
        });
      }
      const untrusted = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/auth/resend-verification',
        payload: { email: uniqueEmail('p') },
        headers: { 'x-forwarded-for': '203.0.113.99' },
        remoteAddress: proxyIp,
      });
      expect(untrusted.statusCode).toBe(429);
    } finally {
      await behindProxy.close();
    }
  });

  it('raises the per-address limits by RATE_LIMIT_MULTIPLIER', async () => {
    const roomier = await createTestApp(testApp.database, testEnv({ RATE_LIMIT_MULTIPLIER: '2' }));
    try {
      const ip = newIp();
      const resend = () =>
        roomier.inject({
          method: 'POST',
          url: '/api/v1/auth/resend-verification',
          payload: { email: uniqueEmail('r') },
          headers: { origin: TEST_PUBLIC_URL },
          remoteAddress: ip,
        });
      for (let i = 0; i < 40; i++) expect((await resend()).statusCode).toBe(200);
      expect((await resend()).statusCode).toBe(429);
    } finally {
      await roomier.close();
    }
  });
});

describe('forgot and reset password', () => {
  it('answers 200 for an unknown email and sends nothing', async () => {
    const missing = uniqueEmail('missing');
    const response = await post('forgot-password', { email: missing });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { ok: true } });
    expect(await emailsTo(missing)).toHaveLength(0);
  });

  it('emails a one-hour link greeting the student by first name, in their language', async () => {
    const { input } = await verifiedStudent({ first_name: 'Claudine', language: 'fr' });
    expect((await post('forgot-password', { email: input.email })).statusCode).toBe(200);
    const [reset] = await emailsTo(input.email, 'password_reset');
    expect(reset).toMatchObject({ language: 'fr', data: expect.objectContaining({ name: 'Claudine' }) });
    expect(reset!.data.link).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/reset-password\\?token=[\\w-]{43}$`));
    const user = await userRow(input.email);
    const [link] = await testApp.db
      .select()
      .from(verifications)
      .where(and(eq(verifications.value, user!.id), like(verifications.identifier, 'password-reset:%')));
    expect((Date.parse(link!.expires_at) - Date.parse(link!.created_at)) / 60_000).toBeCloseTo(60, 0);
  });

  it('sets the new password, revokes every session, and the token works once', async () => {
    const { input, cookie: firstSession } = await verifiedStudent();
    const secondSession = cookieHeader(
      (await post('sign-in', { email: input.email, password: PASSWORD })).headers['set-cookie'],
    );
    await post('forgot-password', { email: input.email });
    const token = await latestLink(input.email, 'password_reset');

    const weak = await post('reset-password', { token, password: 'weak' });
    expect(weak.statusCode).toBe(400);

    // A common password is refused, and the link stays usable.
    const common = await post('reset-password', { token, password: 'Password1!' });
    expect(common.statusCode).toBe(400);
    expect(errorOf(common)).toEqual({
      status: 'INVALID_ARGUMENT',
      message: AUTH_MESSAGES.weak_password,
      details: [{ path: 'password', message: AUTH_MESSAGES.weak_password }],
    });
    expect(await emailsTo(input.email, 'password_changed')).toHaveLength(0);

    const NEW_PASSWORD = 'N3w#Password!';
    const response = await post('reset-password', { token, password: NEW_PASSWORD });
    expect(response.statusCode).toBe(200);
    const [changed] = await emailsTo(input.email, 'password_changed');
    expect(changed).toMatchObject({ language: 'en' });
    expect(changed!.data).toMatchObject({
      name: 'Aline',
      browser_name: 'Chrome',
      link: `${TEST_PUBLIC_URL}/forgot-password`,
      occurred_at: expect.stringMatching(/UTC$/),
    });
    expect(response.json()).toEqual({ data: { ok: true } });
    expect((await session(firstSession)).json()).toEqual({ data: null });
    expect((await session(secondSession)).json()).toEqual({ data: null });

    expect((await post('sign-in', { email: input.email, password: PASSWORD })).statusCode).toBe(401);
    expect((await post('sign-in', { email: input.email, password: NEW_PASSWORD })).statusCode).toBe(200);

    const reused = await post('reset-password', { token, password: 'An0ther#Password' });
    expect(reused.statusCode).toBe(400);
    expect(errorOf(reused)).toEqual({ status: 'INVALID_ARGUMENT', message: AUTH_MESSAGES.link_invalid });
  });

  it('answers the expired message after an hour', async () => {
    const { input } = await verifiedStudent();
    await post('forgot-password', { email: input.email });
    await testApp.db
      .update(verifications)
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where(like(verifications.identifier, 'password-reset:%'));
    const response = await post('reset-password', {
      token: await latestLink(input.email, 'password_reset'),
      password: 'N3w#Password!',
    });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({ status: 'INVALID_ARGUMENT', message: AUTH_MESSAGES.link_expired });
    expect((await post('sign-in', { email: input.email, password: PASSWORD })).statusCode).toBe(200);
  });

  it('is rate limited per client address, forgot and reset together', async () => {
    const ip = newIp();
    for (let i = 0; i < 10; i++) await post('forgot-password', { email: uniqueEmail('f') }, { ip });
    for (let i = 0; i < 10; i++) await post('reset-password', { token: 'x', password: 'N3w#Password!' }, { ip });
    const limited = await post('forgot-password', { email: uniqueEmail('f') }, { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('sign-up is rate limited per client address', async () => {
    const ip = newIp();
    for (let i = 0; i < 20; i++) await post('sign-up/student', { email: 'invalid' }, { ip });
    const limited = await post('sign-up/student', student(), { ip });
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited)).toEqual({ status: 'RESOURCE_EXHAUSTED', message: AUTH_MESSAGES.too_many_attempts });
  });
});

describe('guards and the authorization matrix', () => {
  it('GET /auth/session answers everyone', async () => {
    await expectAccess(
      testApp.app,
      { method: 'GET', url: '/api/v1/auth/session' },
      { anonymous: 200, student: 200, staff: 200, admin: 200 },
    );
  });

  it('requireUser admits any signed-in user', async () => {
    await expectAccess(
      testApp.app,
      { method: 'GET', url: '/api/v1/test/signed-in' },
      { anonymous: 401, student: 200, staff: 200, admin: 200 },
    );
  });

  it('requireUserType admits only that type, with the spec messages', async () => {
    await expectAccess(
      testApp.app,
      { method: 'GET', url: '/api/v1/test/staff-only' },
      { anonymous: 401, student: 403, staff: 200, admin: 403 },
    );
    const anonymous = await testApp.app.inject({ method: 'GET', url: '/api/v1/test/staff-only' });
    expect(errorOf(anonymous)).toEqual({
      status: 'UNAUTHENTICATED',
      message: 'You are not authorized to perform this action.',
    });
    const studentAccount = await signInAs(testApp.app, 'student');
    const denied = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/test/staff-only',
      headers: studentAccount.headers,
    });
    expect(errorOf(denied)).toEqual({
      status: 'PERMISSION_DENIED',
      message: 'You are not authorized to perform this action.',
    });
  });
});
