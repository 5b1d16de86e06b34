import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { AUTH_MESSAGES, lockedOutMessage, SETTINGS_MESSAGES, VALIDATION_MESSAGES } from '@kaminuza/shared';
import { emailOutbox, sessions, staff, students, userPreferences } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { cookieHeader, expectAccess, signInAs, TEST_PASSWORD, type TestAccount } from '../../test/auth.ts';

const testApp = useTestApp();

const headersOf = (account: TestAccount | { cookie: string } | null) =>
  account === null ? {} : 'headers' in account ? account.headers : account;

const readSettings = (account: TestAccount | { cookie: string } | null) =>
  testApp.app.inject({ method: 'GET', url: '/api/v1/me/settings', headers: headersOf(account) });

const patchSettings = (account: TestAccount | null, payload: object) =>
  testApp.app.inject({ method: 'PATCH', url: '/api/v1/me/settings', headers: headersOf(account), payload });

const changePassword = (headers: { cookie: string } | Record<string, never>, payload: object) =>
  testApp.app.inject({ method: 'POST', url: '/api/v1/me/password', headers, payload });

/** A sign-in from its own address (the per-address limit stays out of the way), as a cookie header. */
async function signIn(email: string, password: string) {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/v1/auth/sign-in',
    payload: { email, password },
    remoteAddress: `10.${randomBytes(3).join('.')}`,
  });
  return { status: response.statusCode, headers: { cookie: cookieHeader(response.headers['set-cookie']) } };
}

const DEFAULTS = {
  theme: 'system',
  language: 'en',
  notifications: {
    email: { marketing: false, application_updates: true, reminders: true },
    push: { messages: true, status_updates: true, deadline_reminders: true },
  },
};

/** The language of the latest password reset email sent to an address, after asking for one. */
async function resetEmailLanguage(email: string): Promise<string | undefined> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/v1/auth/forgot-password',
    payload: { email },
    remoteAddress: `10.${randomBytes(3).join('.')}`,
  });
  expect(response.statusCode).toBe(200);
  const [row] = await testApp.db
    .select({ language: emailOutbox.language, subject: emailOutbox.subject })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), eq(emailOutbox.template, 'password_reset')))
    .orderBy(desc(emailOutbox.created_at))
    .limit(1);
  return row?.language;
}

describe('who may call the settings routes', () => {
  it('every kind of signed-in user reads their settings; visitors get 401', async () => {
    await expectAccess(
      testApp.app,
      { method: 'GET', url: '/api/v1/me/settings' },
      { anonymous: 401, student: 200, staff: 200, admin: 200 },
    );
  });

  it('changing settings or the password needs a session', async () => {
    expect((await patchSettings(null, { theme: 'dark' })).statusCode).toBe(401);
    const response = await changePassword({}, { currentPassword: TEST_PASSWORD, newPassword: 'New#Passw0rd' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { status: 'UNAUTHENTICATED' } });
  });

  it('a forged or expired session cookie is refused', async () => {
    const response = await readSettings({ cookie: 'kaminuza.session_token=forged.value' });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET and PATCH /me/settings', () => {
  it('answers the defaults before anything is changed, and writes nothing', async () => {
    const student = await signInAs(testApp.app, 'student');
    const response = await readSettings(student);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: DEFAULTS });
    expect(await testApp.db.select().from(userPreferences).where(eq(userPreferences.user_id, student.id))).toEqual([]);
  });

  it('changes only what is sent', async () => {
    const student = await signInAs(testApp.app, 'student');
    const first = await patchSettings(student, { notifications: { email: { marketing: true } } });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.notifications.email).toEqual({
      marketing: true,
      application_updates: true,
      reminders: true,
    });

    const second = await patchSettings(student, { theme: 'dark', notifications: { push: { messages: false } } });
    expect(second.json().data).toEqual({
      ...DEFAULTS,
      theme: 'dark',
      notifications: {
        email: { ...DEFAULTS.notifications.email, marketing: true },
        push: { ...DEFAULTS.notifications.push, messages: false },
      },
    });
    // Stored, not only answered: a new request reads the same.
    expect((await readSettings(student)).json()).toEqual(second.json());
  });

  it('refuses invalid values and unknown keys, and changes nothing', async () => {
    const student = await signInAs(testApp.app, 'student');
    await patchSettings(student, { theme: 'light' });
    const before = (await readSettings(student)).json();
    for (const payload of [
      { theme: 'blue' },
      { language: 'de' },
      { notifications: { email: { marketing: 'yes' } } },
      { notifications: { email: { spam: true } } },
      { notifications: { sms: { messages: true } } },
      // One bad key refuses the whole change, the valid part included.
      { theme: 'dark', colour: 'red' },
      { theme: 'dark', language: 'xx' },
    ]) {
      const response = await patchSettings(student, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
    }
    expect((await readSettings(student)).json()).toEqual(before);
  });

  it("nobody can read or change another user's settings", async () => {
    const owner = await signInAs(testApp.app, 'student');
    const other = await signInAs(testApp.app, 'student');
    await patchSettings(owner, { theme: 'dark', notifications: { push: { deadline_reminders: false } } });

    // Naming another user is refused outright: the routes act on the session's account only.
    const named = await patchSettings(other, { user_id: owner.id, theme: 'light' });
    expect(named.statusCode).toBe(400);
    const byQuery = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/me/settings?user_id=${owner.id}`,
      headers: other.headers,
    });
    expect(byQuery.json()).toEqual({ data: DEFAULTS });
    for (const url of [`/api/v1/users/${owner.id}/settings`, `/api/v1/me/settings/${owner.id}`]) {
      expect((await testApp.app.inject({ method: 'GET', url, headers: other.headers })).statusCode).toBe(404);
    }

    // The other user's own change leaves the owner's settings as they were.
    await patchSettings(other, { theme: 'light', notifications: { push: { deadline_reminders: true } } });
    const owners = (await readSettings(owner)).json().data;
    expect(owners.theme).toBe('dark');
    expect(owners.notifications.push.deadline_reminders).toBe(false);
  });
});

describe('notification switches by kind of account', () => {
  it('refuses switches that never send a staff member or an admin anything, names them, and changes nothing', async () => {
    for (const type of ['staff', 'admin'] as const) {
      const account = await signInAs(testApp.app, type);
      const before = (await readSettings(account)).json();
      for (const [payload, path] of [
        [{ notifications: { email: { reminders: false } } }, 'notifications.email.reminders'],
        [{ notifications: { push: { status_updates: false } } }, 'notifications.push.status_updates'],
        [{ notifications: { push: { deadline_reminders: false } } }, 'notifications.push.deadline_reminders'],
        [{ notifications: { push: { messages: false } } }, 'notifications.push.messages'],
        // With an applicable change beside it: all or nothing, as any refused change.
        [
          { theme: 'dark', notifications: { email: { marketing: true, reminders: false } } },
          'notifications.email.reminders',
        ],
      ] as const) {
        const response = await patchSettings(account, payload);
        expect(response.statusCode, `${type} ${path}`).toBe(400);
        expect(response.json()).toEqual({
          error: {
            status: 'INVALID_ARGUMENT',
            message: VALIDATION_MESSAGES.general,
            details: [{ path, message: SETTINGS_MESSAGES.notification_not_applicable }],
          },
        });
      }
      expect((await readSettings(account)).json(), type).toEqual(before);
    }
  });

  it('lets staff change the switches that apply to them, and students every switch', async () => {
    const member = await signInAs(testApp.app, 'staff');
    const changed = await patchSettings(member, {
      notifications: { email: { marketing: true, application_updates: false } },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.notifications.email).toMatchObject({ marketing: true, application_updates: false });
    const admin = await signInAs(testApp.app, 'admin');
    expect((await patchSettings(admin, { notifications: { email: { marketing: true } } })).statusCode).toBe(200);
    const student = await signInAs(testApp.app, 'student');
    const all = await patchSettings(student, {
      notifications: {
        email: { marketing: true, application_updates: false, reminders: false },
        push: { messages: false, status_updates: false, deadline_reminders: false },
      },
    });
    expect(all.statusCode).toBe(200);
  });
});

describe('language', () => {
  it("a student's language is their profile's, and later emails are in it", async () => {
    const student = await signInAs(testApp.app, 'student');
    expect(await resetEmailLanguage(student.email)).toBe('en');

    const response = await patchSettings(student, { language: 'fr' });
    expect(response.json().data.language).toBe('fr');
    const [profile] = await testApp.db
      .select({ language: students.language })
      .from(students)
      .where(eq(students.user_id, student.id));
    expect(profile?.language).toBe('fr');
    expect(await resetEmailLanguage(student.email)).toBe('fr');
  });

  it("a staff member's language is on their staff record, and later emails follow it", async () => {
    const member = await signInAs(testApp.app, 'staff');
    await patchSettings(member, { language: 'rw' });
    const [record] = await testApp.db
      .select({ language: staff.language })
      .from(staff)
      .where(eq(staff.user_id, member.id));
    expect(record?.language).toBe('rw');
    expect((await readSettings(member)).json().data.language).toBe('rw');
    expect(await resetEmailLanguage(member.email)).toBe('rw');
  });

  it("an admin's language is kept with their settings, and later emails follow it", async () => {
    const admin = await signInAs(testApp.app, 'admin');
    expect(await resetEmailLanguage(admin.email)).toBe('en');
    await patchSettings(admin, { language: 'fr' });
    expect((await readSettings(admin)).json().data.language).toBe('fr');
    expect(await resetEmailLanguage(admin.email)).toBe('fr');
    // The session tells the interface too.
    const session = await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: admin.headers });
    expect(session.json().data.language).toBe('fr');
  });
});

describe('POST /me/password', () => {
  const NEW_PASSWORD = 'Nouveau#Mot2passe';

  it('refuses a wrong current password with its own message, and changes nothing', async () => {
    const student = await signInAs(testApp.app, 'student');
    const response = await changePassword(student.headers, {
      currentPassword: 'Wrong#Passw0rd',
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        status: 'INVALID_ARGUMENT',
        message: SETTINGS_MESSAGES.wrong_current_password,
        details: [{ path: 'currentPassword', message: SETTINGS_MESSAGES.wrong_current_password }],
      },
    });
    expect((await signIn(student.email, TEST_PASSWORD)).status).toBe(200);
    expect((await signIn(student.email, NEW_PASSWORD)).status).toBe(401);
    // The session that asked is still signed in.
    expect((await readSettings(student)).statusCode).toBe(200);
  });

  it('refuses a new password that breaks the rule, naming the rule', async () => {
    const student = await signInAs(testApp.app, 'student');
    for (const [newPassword, message] of [
      ['Sh0rt#', VALIDATION_MESSAGES.password_too_short],
      ['nouppercase#1', VALIDATION_MESSAGES.password_uppercase],
      ['NOLOWERCASE#1', VALIDATION_MESSAGES.password_lowercase],
      ['NoNumber#here', VALIDATION_MESSAGES.password_number],
      ['NoSpecial1here', VALIDATION_MESSAGES.password_special],
    ] as const) {
      const response = await changePassword(student.headers, { currentPassword: TEST_PASSWORD, newPassword });
      expect(response.statusCode, newPassword).toBe(400);
      expect(response.json().error.details).toContainEqual({ path: 'newPassword', message });
    }
    expect((await signIn(student.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('refuses a common password that meets the rule, and changes nothing', async () => {
    const student = await signInAs(testApp.app, 'student');
    const response = await changePassword(student.headers, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'Password1!',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        status: 'INVALID_ARGUMENT',
        message: AUTH_MESSAGES.weak_password,
        details: [{ path: 'newPassword', message: AUTH_MESSAGES.weak_password }],
      },
    });
    expect((await signIn(student.email, TEST_PASSWORD)).status).toBe(200);
    const changed = and(eq(emailOutbox.to, student.email), eq(emailOutbox.template, 'password_changed'));
    expect(await testApp.db.$count(emailOutbox, changed)).toBe(0);
  });

  it('tells the account by email, in its language, that the password was changed', async () => {
    const member = await signInAs(testApp.app, 'staff');
    await patchSettings(member, { language: 'rw' });
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/me/password',
      headers: {
        ...member.headers,
        'user-agent': 'Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0',
      },
      payload: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const sent = await testApp.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, member.email), eq(emailOutbox.template, 'password_changed')));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ language: 'rw' });
    expect(sent[0]!.data).toMatchObject({
      name: 'Test',
      browser_name: 'Firefox',
      operating_system: 'Android',
      link: expect.stringMatching(/\/forgot-password$/),
      occurred_at: expect.stringMatching(/UTC$/),
    });
  });

  it('changes the password, keeps this session, signs every other session out', async () => {
    const student = await signInAs(testApp.app, 'student');
    const elsewhere = await signIn(student.email, TEST_PASSWORD);
    expect((await readSettings(elsewhere.headers)).statusCode).toBe(200);

    const response = await changePassword(student.headers, {
      currentPassword: TEST_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { ok: true } });

    // This browser continues with the new session cookie it was given.
    const renewed = { cookie: cookieHeader(response.headers['set-cookie']) };
    expect(renewed.cookie).toMatch(/session_token=/);
    expect((await readSettings(renewed)).statusCode).toBe(200);
    // The other device's session is gone.
    expect((await readSettings(elsewhere.headers)).statusCode).toBe(401);
    expect(await testApp.db.select().from(sessions).where(eq(sessions.user_id, student.id))).toHaveLength(1);

    // Only the new password signs in now.
    expect((await signIn(student.email, TEST_PASSWORD)).status).toBe(401);
    expect((await signIn(student.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('stops answering after too many wrong current passwords', async () => {
    const student = await signInAs(testApp.app, 'student');
    let last = 0;
    for (let attempt = 0; attempt < 11; attempt += 1) {
      last = (
        await changePassword(student.headers, { currentPassword: `Wrong#${attempt}x`, newPassword: NEW_PASSWORD })
      ).statusCode;
    }
    expect(last).toBe(429);
    const right = await changePassword(student.headers, { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expect(right.statusCode).toBe(429);
    expect(right.json().error.message).toBe(lockedOutMessage(15));
    expect(right.headers['retry-after']).toBeDefined();
  });
});
