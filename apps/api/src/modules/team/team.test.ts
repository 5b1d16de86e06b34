import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { AUTH_MESSAGES, SETUP_MESSAGES as S, type StaffPermission } from '@kaminuza/shared';
import { emailOutbox, sessions, staff, staffInvitations, teams, users } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { cookieHeader, expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';
import { updateMember } from './members.service.ts';

const testApp = useTestApp();

const PASSWORD = 'Str0ng#Password';
const newIp = () => `10.${randomBytes(3).join('.')}`;
const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;
const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { status: string; message: string } }).error;
const dataOf = <T>(response: { json(): unknown }) => (response.json() as { data: T }).data;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (account: TestAccount | null, method: Method, url: string, payload?: object) =>
  testApp.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: account ? account.headers : {},
    ...(payload ? { payload } : {}),
  });

/** An institution with its Admin (all, primary contact) and members with the given permissions. */
async function institution() {
  const admin = await signInAs(testApp.app, 'staff', { primaryContact: true });
  const partnerId = admin.partnerId!;
  const member = (permissions: StaffPermission[], primaryContact = false) =>
    signInAs(testApp.app, 'staff', { partnerId, permissions, primaryContact });
  return { admin, partnerId, member };
}

async function staffIdOf(account: TestAccount): Promise<string> {
  const [row] = await testApp.db.select({ id: staff.id }).from(staff).where(eq(staff.user_id, account.id));
  return row!.id;
}

const invitation = (overrides: object = {}) => ({
  email: uniqueEmail('colleague'),
  first_name: 'Aline',
  last_name: 'Uwase',
  role: 'Admissions officer',
  permissions: ['manage_forms'],
  team_ids: [],
  language: 'fr',
  ...overrides,
});

/** The link token of the latest invitation email to an address. */
async function tokenSentTo(email: string): Promise<string> {
  const [mail] = await testApp.db
    .select({ data: emailOutbox.data })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), eq(emailOutbox.template, 'staff_invitation')))
    .orderBy(desc(emailOutbox.created_at))
    .limit(1);
  const link = new URL(String(mail!.data.link));
  return link.searchParams.get('token')!;
}

const accept = (token: string, overrides: object = {}) =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/v1/auth/invitations/accept',
    payload: { token, first_name: 'Aline', last_name: 'Uwase', password: PASSWORD, accept_terms: true, ...overrides },
    remoteAddress: newIp(),
  });

describe('who may call the team routes', () => {
  it('answers 401 to anonymous callers, 403 to students and admins, 404 to staff of another institution', async () => {
    const { partnerId } = await institution();
    const id = '00000000-0000-4000-8000-000000000000';
    const routes = [
      { method: 'GET', url: `/api/v1/partners/${partnerId}/staff` },
      { method: 'PATCH', url: `/api/v1/partners/${partnerId}/staff/${id}`, payload: { role: 'Dean' } },
      { method: 'POST', url: `/api/v1/partners/${partnerId}/staff/${id}/primary-contact` },
      { method: 'GET', url: `/api/v1/partners/${partnerId}/invitations` },
      { method: 'POST', url: `/api/v1/partners/${partnerId}/invitations`, payload: invitation() },
      { method: 'POST', url: `/api/v1/partners/${partnerId}/invitations/${id}/resend` },
      { method: 'DELETE', url: `/api/v1/partners/${partnerId}/invitations/${id}` },
      { method: 'GET', url: `/api/v1/partners/${partnerId}/teams` },
      { method: 'POST', url: `/api/v1/partners/${partnerId}/teams`, payload: { name: 'Reviewers', description: '' } },
      { method: 'PUT', url: `/api/v1/partners/${partnerId}/teams/${id}`, payload: { name: 'X', description: '' } },
      { method: 'PUT', url: `/api/v1/partners/${partnerId}/teams/${id}/members`, payload: { staff_ids: [] } },
      { method: 'DELETE', url: `/api/v1/partners/${partnerId}/teams/${id}` },
    ] as const;
    for (const route of routes) {
      await expectAccess(testApp.app, route, { anonymous: 401, student: 403, admin: 403, staff: 404 });
    }
  });

  it('lets a member without manage_team read members and teams, and refuses every change', async () => {
    const { admin, partnerId, member } = await institution();
    const reader = await member(['manage_forms']);
    const adminId = await staffIdOf(admin);
    const team = dataOf<{ id: string }>(
      await call(admin, 'POST', `/partners/${partnerId}/teams`, { name: 'Readers', description: '' }),
    );
    const sent = dataOf<{ id: string }>(await call(admin, 'POST', `/partners/${partnerId}/invitations`, invitation()));

    expect((await call(reader, 'GET', `/partners/${partnerId}/staff`)).statusCode).toBe(200);
    expect((await call(reader, 'GET', `/partners/${partnerId}/teams`)).statusCode).toBe(200);
    const writes: [Method, string, object?][] = [
      ['PATCH', `/partners/${partnerId}/staff/${adminId}`, { role: 'Dean' }],
      ['POST', `/partners/${partnerId}/staff/${adminId}/primary-contact`],
      ['GET', `/partners/${partnerId}/invitations`],
      ['POST', `/partners/${partnerId}/invitations`, invitation()],
      ['POST', `/partners/${partnerId}/invitations/${sent.id}/resend`],
      ['DELETE', `/partners/${partnerId}/invitations/${sent.id}`],
      ['POST', `/partners/${partnerId}/teams`, { name: 'Other', description: '' }],
      ['PUT', `/partners/${partnerId}/teams/${team.id}`, { name: 'Renamed', description: '' }],
      ['PUT', `/partners/${partnerId}/teams/${team.id}/members`, { staff_ids: [adminId] }],
      ['DELETE', `/partners/${partnerId}/teams/${team.id}`],
    ];
    for (const [method, url, payload] of writes) {
      expect((await call(reader, method, url, payload)).statusCode, `${method} ${url}`).toBe(403);
    }
    const [kept] = await testApp.db.select().from(teams).where(eq(teams.id, team.id));
    expect(kept?.name).toBe('Readers');
  });

  it("answers 404 to staff of another institution, for reads and writes of A's records", async () => {
    const a = await institution();
    const b = await institution();
    const adminId = await staffIdOf(a.admin);
    const team = dataOf<{ id: string }>(
      await call(a.admin, 'POST', `/partners/${a.partnerId}/teams`, { name: 'Scholarships', description: '' }),
    );
    const sent = dataOf<{ id: string }>(
      await call(a.admin, 'POST', `/partners/${a.partnerId}/invitations`, invitation()),
    );
    const routes: [Method, string, object?][] = [
      ['GET', `/partners/${a.partnerId}/staff`],
      ['PATCH', `/partners/${a.partnerId}/staff/${adminId}`, { role: 'Dean' }],
      ['GET', `/partners/${a.partnerId}/invitations`],
      ['DELETE', `/partners/${a.partnerId}/invitations/${sent.id}`],
      ['GET', `/partners/${a.partnerId}/teams`],
      ['DELETE', `/partners/${a.partnerId}/teams/${team.id}`],
    ];
    for (const [method, url, payload] of routes) {
      expect((await call(b.admin, method, url, payload)).statusCode, `${method} ${url}`).toBe(404);
    }
    // A's ids through B's own institution are unknown too.
    expect((await call(b.admin, 'PATCH', `/partners/${b.partnerId}/staff/${adminId}`, { role: 'X' })).statusCode).toBe(
      404,
    );
    expect((await call(b.admin, 'DELETE', `/partners/${b.partnerId}/teams/${team.id}`)).statusCode).toBe(404);
    expect((await call(b.admin, 'DELETE', `/partners/${b.partnerId}/invitations/${sent.id}`)).statusCode).toBe(404);
    expect(
      errorOf(await call(b.admin, 'POST', `/partners/${b.partnerId}/invitations`, invitation({ team_ids: [team.id] })))
        .message,
    ).toBe(S.team_not_found);
  });
});

describe('members', () => {
  it('lists approved members, primary contact first, then by name', async () => {
    const { admin, partnerId } = await institution();
    await signInAs(testApp.app, 'staff', { partnerId, permissions: [], primaryContact: false });
    const list = dataOf<{ id: string; primary_contact: boolean; email: string }[]>(
      await call(admin, 'GET', `/partners/${partnerId}/staff`),
    );
    expect(list).toHaveLength(2);
    expect(list[0]!.email).toBe(admin.email);
    expect(list[0]!.primary_contact).toBe(true);

    // A join request still waiting is not a member yet.
    const asking = await signInAs(testApp.app, 'staff', { partnerId, permissions: [], primaryContact: false });
    await testApp.db.update(staff).set({ approval_status: 'pending' }).where(eq(staff.user_id, asking.id));
    const after = dataOf<{ email: string }[]>(await call(admin, 'GET', `/partners/${partnerId}/staff`));
    expect(after.map((member) => member.email)).not.toContain(asking.email);
  });

  it("puts a member in the institution's teams", async () => {
    const { admin, partnerId, member } = await institution();
    const colleague = await staffIdOf(await member(['manage_forms']));
    const team = dataOf<{ id: string }>(
      await call(admin, 'POST', `/partners/${partnerId}/teams`, { name: 'Admissions', description: '' }),
    );
    const response = await call(admin, 'PATCH', `/partners/${partnerId}/staff/${colleague}`, { team_ids: [team.id] });
    expect(dataOf<{ team_ids: string[] }>(response).team_ids).toEqual([team.id]);
    const teamsList = dataOf<{ id: string; member_ids: string[] }[]>(
      await call(admin, 'GET', `/partners/${partnerId}/teams`),
    );
    expect(teamsList.find((item) => item.id === team.id)?.member_ids).toEqual([colleague]);
  });

  it('refuses a member changing their own permissions or deactivating themselves', async () => {
    const { admin, partnerId } = await institution();
    const self = await staffIdOf(admin);
    for (const body of [{ permissions: ['manage_team'] }, { active: false }]) {
      const response = await call(admin, 'PATCH', `/partners/${partnerId}/staff/${self}`, body);
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).message).toBe(S.not_yourself);
    }
    // Their own job title is theirs to change.
    expect((await call(admin, 'PATCH', `/partners/${partnerId}/staff/${self}`, { role: 'Registrar' })).statusCode).toBe(
      200,
    );
  });

  it("leaves 'all' to members who hold it", async () => {
    const { admin, partnerId, member } = await institution();
    const manager = await member(['manage_team']);
    const colleague = await staffIdOf(await member(['manage_forms']));
    const adminId = await staffIdOf(admin);
    for (const [id, body] of [
      [colleague, { permissions: ['all'] }],
      [adminId, { role: 'Former admin' }],
    ] as const) {
      const response = await call(manager, 'PATCH', `/partners/${partnerId}/staff/${id}`, body);
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).message).toBe(S.grant_all_denied);
    }
    const ok = await call(manager, 'PATCH', `/partners/${partnerId}/staff/${colleague}`, {
      permissions: ['manage_forms', 'review_applications'],
    });
    expect(ok.statusCode).toBe(200);
    expect(dataOf<{ permissions: string[] }>(ok).permissions).toEqual(['manage_forms', 'review_applications']);
  });

  it('keeps one active member with all permissions, even when two administrators act at once', async () => {
    const { admin, partnerId, member } = await institution();
    const second = await member(['all']);
    const secondId = await staffIdOf(second);
    const adminId = await staffIdOf(admin);
    // The admin takes 'all' from the second administrator…
    const demoted = await call(admin, 'PATCH', `/partners/${partnerId}/staff/${secondId}`, {
      permissions: ['manage_team'],
    });
    expect(demoted.statusCode).toBe(200);
    // …while the second, whose request passed the guard with 'all' a moment earlier, demotes the admin.
    // Through the api one request waits for the other (the institution row is locked); the later one
    // then finds nobody left and is refused.
    const stale = { staffId: secondId, partnerId, permissions: ['all'] as StaffPermission[] };
    for (const update of [{ permissions: [] }, { active: false }]) {
      await expect(updateMember(testApp.db, stale, adminId, update)).rejects.toMatchObject({
        message: update.active === false ? S.primary_contact_inactive : S.last_full_admin,
      });
    }
    await testApp.db.update(staff).set({ primary_contact: false }).where(eq(staff.id, adminId));
    await expect(updateMember(testApp.db, stale, adminId, { active: false })).rejects.toMatchObject({
      message: S.last_full_admin,
    });
    const [row] = await testApp.db.select().from(staff).where(eq(staff.id, adminId));
    expect(row).toMatchObject({ permissions: ['all'], active: true });
  });

  it('refuses teams of another institution and deactivating the primary contact', async () => {
    const { admin, partnerId, member } = await institution();
    const other = await institution();
    const foreign = dataOf<{ id: string }>(
      await call(other.admin, 'POST', `/partners/${other.partnerId}/teams`, { name: 'Foreign', description: '' }),
    );
    const colleague = await staffIdOf(await member(['manage_forms']));
    const teamRefused = await call(admin, 'PATCH', `/partners/${partnerId}/staff/${colleague}`, {
      team_ids: [foreign.id],
    });
    expect(teamRefused.statusCode).toBe(404);
    expect(errorOf(teamRefused).message).toBe(S.team_not_found);

    const second = await member(['all']);
    const adminId = await staffIdOf(admin);
    const refused = await call(second, 'PATCH', `/partners/${partnerId}/staff/${adminId}`, { active: false });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(S.primary_contact_inactive);
    const [row] = await testApp.db.select().from(staff).where(eq(staff.id, adminId));
    expect(row?.active).toBe(true);
  });

  it('validates the body with the shared messages and changes nothing', async () => {
    const { admin, partnerId, member } = await institution();
    const colleague = await staffIdOf(await member(['manage_forms']));
    const response = await call(admin, 'PATCH', `/partners/${partnerId}/staff/${colleague}`, {
      role: '  ',
      permissions: ['fly'],
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain(S.name_required);
    const [row] = await testApp.db.select().from(staff).where(eq(staff.id, colleague));
    expect(row?.permissions).toEqual(['manage_forms']);
  });

  it('deactivating a member ends their sessions at once; reactivation lets them back', async () => {
    const { admin, partnerId, member } = await institution();
    const colleague = await member(['manage_forms']);
    const colleagueId = await staffIdOf(colleague);
    expect((await call(colleague, 'GET', `/partners/${partnerId}/staff`)).statusCode).toBe(200);

    const response = await call(admin, 'PATCH', `/partners/${partnerId}/staff/${colleagueId}`, { active: false });
    expect(response.statusCode).toBe(200);
    expect(dataOf<{ active: boolean }>(response).active).toBe(false);
    const next = await call(colleague, 'GET', `/partners/${partnerId}/staff`);
    expect([401, 403]).toContain(next.statusCode);
    const left = await testApp.db.select().from(sessions).where(eq(sessions.user_id, colleague.id));
    expect(left).toHaveLength(0);

    // Signing in again works, but the dashboard refuses an inactive member.
    const signIn = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-in',
      payload: { email: colleague.email, password: 'Test#Passw0rd' },
      remoteAddress: newIp(),
    });
    const cookie = cookieHeader(signIn.headers['set-cookie']);
    const session = await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
    expect(dataOf<{ staff_active: boolean }>(session).staff_active).toBe(false);
    const refused = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/staff`,
      headers: { cookie },
    });
    expect(refused.statusCode).toBe(403);

    await call(admin, 'PATCH', `/partners/${partnerId}/staff/${colleagueId}`, { active: true });
    const back = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/staff`,
      headers: { cookie },
    });
    expect(back.statusCode).toBe(200);
  });
});

describe('primary contact', () => {
  it("moves the flag to an active member, 'all' only", async () => {
    const { admin, partnerId, member } = await institution();
    const manager = await member(['manage_team']);
    const colleague = await staffIdOf(await member(['manage_forms']));
    expect((await call(manager, 'POST', `/partners/${partnerId}/staff/${colleague}/primary-contact`)).statusCode).toBe(
      403,
    );
    const moved = await call(admin, 'POST', `/partners/${partnerId}/staff/${colleague}/primary-contact`);
    expect(moved.statusCode).toBe(200);
    const holders = await testApp.db
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.partner_id, partnerId), eq(staff.primary_contact, true)));
    expect(holders).toEqual([{ id: colleague }]);

    const inactive = await staffIdOf(await member([]));
    await call(admin, 'PATCH', `/partners/${partnerId}/staff/${inactive}`, { active: false });
    const refused = await call(admin, 'POST', `/partners/${partnerId}/staff/${inactive}/primary-contact`);
    expect(errorOf(refused).message).toBe(S.primary_contact_inactive);
  });
});

describe('invitations', () => {
  it('invites, emails the link in the chosen language, and the invited person joins and is signed in', async () => {
    const { admin, partnerId } = await institution();
    const team = dataOf<{ id: string }>(
      await call(admin, 'POST', `/partners/${partnerId}/teams`, { name: 'Forms', description: '' }),
    );
    const input = invitation({ team_ids: [team.id], email: uniqueEmail('Invited').toUpperCase() });
    const created = await call(admin, 'POST', `/partners/${partnerId}/invitations`, input);
    expect(created.statusCode).toBe(201);
    const sent = dataOf<{ id: string; status: string; email: string; invited_by_name: string }>(created);
    expect(sent).toMatchObject({ status: 'pending', email: input.email.toLowerCase(), invited_by_name: 'Test Staff' });

    const [mail] = await testApp.db.select().from(emailOutbox).where(eq(emailOutbox.to, sent.email));
    expect(mail).toMatchObject({ template: 'staff_invitation', language: 'fr' });
    expect(mail!.text).toContain('Admissions officer');
    expect(mail!.text).toContain('Test Staff');
    expect(mail!.text).toContain('/signup/partner/invitation?token=');
    expect(mail!.text).toContain('Ce lien expire dans 7 jours.');
    const token = await tokenSentTo(sent.email);
    const [stored] = await testApp.db.select().from(staffInvitations).where(eq(staffInvitations.id, sent.id));
    expect(stored!.token_hash).not.toContain(token);

    const preview = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/invitations/preview',
      payload: { token },
      remoteAddress: newIp(),
    });
    expect(dataOf<{ role: string; email: string }>(preview)).toMatchObject({
      role: 'Admissions officer',
      email: sent.email,
    });

    const accepted = await accept(token, { first_name: 'Aline', last_name: 'Uwimana' });
    expect(accepted.statusCode).toBe(200);
    const cookie = cookieHeader(accepted.headers['set-cookie']);
    const session = await testApp.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
    expect(dataOf(session)).toMatchObject({
      type: 'staff',
      partner_id: partnerId,
      staff_permissions: ['manage_forms'],
      staff_active: true,
      staff_approval_status: 'approved',
      contact_verified: true,
      language: 'fr',
    });
    const [row] = await testApp.db
      .select({ staff, terms: users.terms_accepted })
      .from(staff)
      .innerJoin(users, eq(users.id, staff.user_id))
      .where(eq(staff.email, sent.email));
    expect(row).toMatchObject({
      terms: true,
      staff: { last_name: 'Uwimana', team_ids: [team.id], primary_contact: false },
    });

    const list = dataOf<{ id: string; status: string }[]>(
      await call(admin, 'GET', `/partners/${partnerId}/invitations`),
    );
    expect(list.find((item) => item.id === sent.id)?.status).toBe('accepted');
    // The link is spent.
    expect(errorOf(await accept(token))).toMatchObject({ message: S.invitation_invalid, reason: 'invitation_invalid' });
  });

  it('refuses an address with an account, a second waiting invitation, and granting all without all', async () => {
    const { admin, partnerId, member } = await institution();
    const existing = await call(
      admin,
      'POST',
      `/partners/${partnerId}/invitations`,
      invitation({ email: admin.email }),
    );
    expect(existing.statusCode).toBe(409);
    expect(errorOf(existing).message).toBe(S.account_exists);

    const input = invitation();
    expect((await call(admin, 'POST', `/partners/${partnerId}/invitations`, input)).statusCode).toBe(201);
    const twice = await call(admin, 'POST', `/partners/${partnerId}/invitations`, input);
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice).message).toBe(S.invitation_exists);

    const manager = await member(['manage_team']);
    const all = await call(manager, 'POST', `/partners/${partnerId}/invitations`, invitation({ permissions: ['all'] }));
    expect(all.statusCode).toBe(403);
    expect(errorOf(all).message).toBe(S.grant_all_denied);

    const bad = await call(
      admin,
      'POST',
      `/partners/${partnerId}/invitations`,
      invitation({ email: 'nope', role: '' }),
    );
    expect(bad.statusCode).toBe(400);
    const count = await testApp.db
      .select({ n: sql<number>`count(*)::int` })
      .from(staffInvitations)
      .where(eq(staffInvitations.partner_id, partnerId));
    expect(count[0]!.n).toBe(1);
  });

  it('resending kills the old link; revoked and expired links are refused', async () => {
    const { admin, partnerId } = await institution();
    const input = invitation();
    const sent = dataOf<{ id: string }>(await call(admin, 'POST', `/partners/${partnerId}/invitations`, input));
    const first = await tokenSentTo(input.email);
    const resent = await call(admin, 'POST', `/partners/${partnerId}/invitations/${sent.id}/resend`);
    expect(resent.statusCode).toBe(200);
    const second = await tokenSentTo(input.email);
    expect(second).not.toBe(first);
    expect(errorOf(await accept(first))).toMatchObject({ message: S.invitation_invalid, reason: 'invitation_invalid' });

    // Expired: the link is refused, the list says so, and a new invitation to the address is allowed.
    await testApp.db
      .update(staffInvitations)
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where(eq(staffInvitations.id, sent.id));
    expect(errorOf(await accept(second))).toMatchObject({
      message: S.invitation_invalid,
      reason: 'invitation_invalid',
    });
    const list = dataOf<{ id: string; status: string }[]>(
      await call(admin, 'GET', `/partners/${partnerId}/invitations`),
    );
    expect(list.find((item) => item.id === sent.id)?.status).toBe('expired');
    const again = await call(admin, 'POST', `/partners/${partnerId}/invitations`, input);
    expect(again.statusCode).toBe(201);

    const third = await tokenSentTo(input.email);
    const revoked = await call(
      admin,
      'DELETE',
      `/partners/${partnerId}/invitations/${dataOf<{ id: string }>(again).id}`,
    );
    expect(dataOf<{ status: string }>(revoked).status).toBe('revoked');
    expect(errorOf(await accept(third))).toMatchObject({ message: S.invitation_invalid, reason: 'invitation_invalid' });
    const preview = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/auth/invitations/preview',
      payload: { token: third },
      remoteAddress: newIp(),
    });
    expect(preview.statusCode).toBe(400);
    expect((await call(admin, 'DELETE', `/partners/${partnerId}/invitations/${sent.id}`)).statusCode).toBe(404);
    const [user] = await testApp.db.select().from(users).where(eq(users.email, input.email));
    expect(user).toBeUndefined();
  });

  it('refuses an unknown token and a weak password without creating anything', async () => {
    expect(errorOf(await accept('not-a-real-token'))).toMatchObject({
      message: S.invitation_invalid,
      reason: 'invitation_invalid',
    });
    const { admin, partnerId } = await institution();
    const input = invitation();
    await call(admin, 'POST', `/partners/${partnerId}/invitations`, input);
    const token = await tokenSentTo(input.email);
    const weak = await accept(token, { password: 'short' });
    expect(weak.statusCode).toBe(400);
    // A common password dressed up to meet the rule is refused too, and the invitation stays open.
    const common = await accept(token, { password: 'Password1!' });
    expect(common.statusCode).toBe(400);
    expect(errorOf(common)).toEqual({
      status: 'INVALID_ARGUMENT',
      message: AUTH_MESSAGES.weak_password,
      details: [{ path: 'password', message: AUTH_MESSAGES.weak_password }],
    });
    const [user] = await testApp.db.select().from(users).where(eq(users.email, input.email));
    expect(user).toBeUndefined();
    expect((await accept(token)).statusCode).toBe(200);
  });
});

describe('teams', () => {
  it('creates, renames, sets members and deletes, keeping names unique', async () => {
    const { admin, partnerId, member } = await institution();
    const colleague = await staffIdOf(await member(['manage_forms']));
    const adminId = await staffIdOf(admin);
    const created = await call(admin, 'POST', `/partners/${partnerId}/teams`, {
      name: 'Reviewers',
      description: 'Read',
    });
    expect(created.statusCode).toBe(201);
    const team = dataOf<{ id: string }>(created);
    const duplicate = await call(admin, 'POST', `/partners/${partnerId}/teams`, { name: 'reviewers', description: '' });
    expect(duplicate.statusCode).toBe(409);
    expect(errorOf(duplicate).message).toBe(S.team_exists);
    expect((await call(admin, 'POST', `/partners/${partnerId}/teams`, { name: '', description: '' })).statusCode).toBe(
      400,
    );

    const members = await call(admin, 'PUT', `/partners/${partnerId}/teams/${team.id}/members`, {
      staff_ids: [adminId, colleague],
    });
    expect(dataOf<{ member_ids: string[] }>(members).member_ids.sort()).toEqual([adminId, colleague].sort());
    const fewer = await call(admin, 'PUT', `/partners/${partnerId}/teams/${team.id}/members`, {
      staff_ids: [colleague],
    });
    expect(dataOf<{ member_ids: string[] }>(fewer).member_ids).toEqual([colleague]);
    const foreign = await institution();
    const refused = await call(admin, 'PUT', `/partners/${partnerId}/teams/${team.id}/members`, {
      staff_ids: [await staffIdOf(foreign.admin)],
    });
    expect(refused.statusCode).toBe(404);
    expect(errorOf(refused).message).toBe(S.member_not_found);

    const renamed = await call(admin, 'PUT', `/partners/${partnerId}/teams/${team.id}`, {
      name: 'Scholarship reviewers',
      description: '',
    });
    expect(dataOf<{ name: string }>(renamed).name).toBe('Scholarship reviewers');

    const invited = invitation({ team_ids: [team.id] });
    await call(admin, 'POST', `/partners/${partnerId}/invitations`, invited);

    expect((await call(admin, 'DELETE', `/partners/${partnerId}/teams/${team.id}`)).statusCode).toBe(200);
    const [row] = await testApp.db.select().from(staff).where(eq(staff.id, colleague));
    expect(row?.team_ids).toEqual([]);
    const [waiting] = await testApp.db.select().from(staffInvitations).where(eq(staffInvitations.email, invited.email));
    expect(waiting?.team_ids).toEqual([]);
    expect((await call(admin, 'DELETE', `/partners/${partnerId}/teams/${team.id}`)).statusCode).toBe(404);
  });
});
