import { createHash, randomBytes } from 'node:crypto';
import { and, arrayContains, asc, desc, eq, inArray, isNull, lte, ne, notInArray, sql } from 'drizzle-orm';
import {
  SETUP_MESSAGES as S,
  type AcceptInvitation,
  type Invitation,
  type InvitationInput,
  type InvitationPreview,
  type Language,
  type StaffMember,
  type StaffMemberUpdate,
  type StaffPermission,
  type Team,
  type TeamInput,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { partners, staff, staffInvitations, teams, users } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { emailIs, insertAccount, normalizeEmail } from '../auth/accounts.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { revokeSessions, startSessionFor, type AuthDeps, type Caller, type SignedIn } from '../auth/auth.service.ts';
import { assertNotCommonPassword } from '../auth/common-passwords.ts';
import { hashPassword } from '../auth/password.ts';
import { enqueueEmail } from '../email/email.service.ts';
import type { StaffCaller } from '../partners/partners.service.ts';

const DAY_MS = 86_400_000;
/** How long an emailed invitation link works. */
const INVITATION_TTL_MS = 7 * DAY_MS;

const holdsAll = (permissions: readonly string[]) => permissions.includes('all');

/**
 * Serializes the team changes of one institution: the rules that look at the other members (one active
 * full administrator at least, one primary contact) would otherwise race between two administrators.
 */
async function lockInstitution(tx: Tx, partnerId: string): Promise<string> {
  const [row] = await tx.select({ name: partners.name }).from(partners).where(eq(partners.id, partnerId)).for('update');
  if (!row) throw new AppError('NOT_FOUND');
  return row.name;
}

/** Refuses (404) any team id that is not one of this institution's teams. */
async function assertTeamsOfPartner(db: DbOrTx, partnerId: string, ids: readonly string[]): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.partner_id, partnerId), inArray(teams.id, wanted)));
  if (found.length !== wanted.length) throw new AppError('NOT_FOUND', S.team_not_found);
}

/** 'all' is given, taken or held by the member: only a full administrator may touch it. */
function assertMayTouchAll(caller: StaffCaller, before: readonly string[], after: readonly string[] | undefined) {
  const touchesAll = holdsAll(before) || (after !== undefined && holdsAll(after));
  if (touchesAll && !holdsAll(caller.permissions)) throw new AppError('PERMISSION_DENIED', S.grant_all_denied);
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value) => b.includes(value));

/* ---------------------------------------------------------------- members */

const memberColumns = {
  id: staff.id,
  user_id: staff.user_id,
  email: staff.email,
  first_name: staff.first_name,
  last_name: staff.last_name,
  phone: staff.phone,
  role: staff.role,
  permissions: staff.permissions,
  active: staff.active,
  team_ids: staff.team_ids,
  primary_contact: staff.primary_contact,
  approval_status: staff.approval_status,
  created_at: staff.created_at,
  updated_at: staff.updated_at,
};

type MemberRow = Omit<StaffMember, 'permissions'> & { permissions: string[] };
const toMember = (row: MemberRow): StaffMember => ({ ...row, permissions: row.permissions as StaffPermission[] });

const isApprovedMemberOf = (partnerId: string) =>
  and(eq(staff.partner_id, partnerId), eq(staff.approval_status, 'approved'));

/** The institution's approved members: the primary contact first, then by name. */
export async function listMembers(db: DbOrTx, partnerId: string): Promise<StaffMember[]> {
  const rows = await db
    .select(memberColumns)
    .from(staff)
    .where(isApprovedMemberOf(partnerId))
    .orderBy(
      desc(staff.primary_contact),
      asc(sql`lower(${staff.first_name})`),
      asc(sql`lower(${staff.last_name})`),
      asc(staff.id),
    );
  return rows.map(toMember);
}

async function findMember(db: DbOrTx, partnerId: string, staffId: string): Promise<StaffMember> {
  const [row] = await db
    .select(memberColumns)
    .from(staff)
    .where(and(eq(staff.id, staffId), isApprovedMemberOf(partnerId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', S.member_not_found);
  return toMember(row);
}

/** Active members holding 'all': the institution must always keep one. */
async function countActiveFullAdmins(tx: Tx, partnerId: string): Promise<number> {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(staff)
    .where(and(isApprovedMemberOf(partnerId), eq(staff.active, true), arrayContains(staff.permissions, ['all'])));
  return row?.count ?? 0;
}

/**
 * Changes a member's job title, permissions, teams or active flag (spec section 6). Nobody changes their
 * own permissions or deactivates themselves; only full administrators give, take or edit 'all'; the
 * primary contact stays active; at least one active full administrator remains. Deactivating ends the
 * member's sessions in the same transaction.
 */
export async function updateMember(
  db: Db,
  caller: StaffCaller,
  staffId: string,
  update: StaffMemberUpdate,
): Promise<StaffMember> {
  return db.transaction(async (tx) => {
    await lockInstitution(tx, caller.partnerId);
    const member = await findMember(tx, caller.partnerId, staffId);
    const permissionsChange = update.permissions !== undefined && !sameSet(update.permissions, member.permissions);
    const deactivating = update.active === false && member.active;
    if (member.id === caller.staffId && (permissionsChange || deactivating)) {
      throw new AppError('PERMISSION_DENIED', S.not_yourself);
    }
    assertMayTouchAll(caller, member.permissions, update.permissions);
    if (update.team_ids) await assertTeamsOfPartner(tx, caller.partnerId, update.team_ids);
    if (deactivating && member.primary_contact) throw new AppError('ABORTED', S.primary_contact_inactive);

    const values = {
      ...(update.role !== undefined ? { role: update.role } : {}),
      ...(update.permissions !== undefined ? { permissions: [...new Set(update.permissions)] } : {}),
      ...(update.team_ids !== undefined ? { team_ids: [...new Set(update.team_ids)] } : {}),
      ...(update.active !== undefined ? { active: update.active } : {}),
    };
    if (Object.keys(values).length === 0) return member;
    await tx
      .update(staff)
      .set(values)
      .where(and(eq(staff.id, member.id), eq(staff.partner_id, caller.partnerId)));
    if ((await countActiveFullAdmins(tx, caller.partnerId)) === 0) throw new AppError('ABORTED', S.last_full_admin);
    if (deactivating) await revokeSessions(tx, member.user_id);
    return findMember(tx, caller.partnerId, member.id);
  });
}

/** Moves the primary contact flag to an active approved member: exactly one holds it afterwards. */
export async function makePrimaryContact(db: Db, partnerId: string, staffId: string): Promise<StaffMember> {
  return db.transaction(async (tx) => {
    await lockInstitution(tx, partnerId);
    const member = await findMember(tx, partnerId, staffId);
    if (!member.active) throw new AppError('ABORTED', S.primary_contact_inactive);
    await tx
      .update(staff)
      .set({ primary_contact: false })
      .where(and(eq(staff.partner_id, partnerId), eq(staff.primary_contact, true), ne(staff.id, member.id)));
    await tx
      .update(staff)
      .set({ primary_contact: true })
      .where(and(eq(staff.id, member.id), eq(staff.partner_id, partnerId)));
    return findMember(tx, partnerId, member.id);
  });
}

/* ---------------------------------------------------------------- invitations */

const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

interface InvitationRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  permissions: StaffPermission[];
  team_ids: string[];
  accepted_at: string | null;
  revoked_at: string | null;
  expires_at: string;
  created_at: string;
  inviter_first_name: string | null;
  inviter_last_name: string | null;
}

function statusOf(row: Pick<InvitationRow, 'accepted_at' | 'revoked_at' | 'expires_at'>): Invitation['status'] {
  if (row.accepted_at) return 'accepted';
  if (row.revoked_at) return 'revoked';
  return Date.parse(row.expires_at) <= Date.now() ? 'expired' : 'pending';
}

function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    role: row.role,
    permissions: row.permissions,
    team_ids: row.team_ids,
    status: statusOf(row),
    invited_by_name: row.inviter_first_name ? `${row.inviter_first_name} ${row.inviter_last_name ?? ''}`.trim() : null,
    expires_at: row.expires_at,
    created_at: row.created_at,
  };
}

function invitationQuery(db: DbOrTx) {
  return db
    .select({
      id: staffInvitations.id,
      email: staffInvitations.email,
      first_name: staffInvitations.first_name,
      last_name: staffInvitations.last_name,
      role: staffInvitations.role,
      permissions: staffInvitations.permissions,
      team_ids: staffInvitations.team_ids,
      accepted_at: staffInvitations.accepted_at,
      revoked_at: staffInvitations.revoked_at,
      expires_at: staffInvitations.expires_at,
      created_at: staffInvitations.created_at,
      inviter_first_name: staff.first_name,
      inviter_last_name: staff.last_name,
    })
    .from(staffInvitations)
    .leftJoin(staff, eq(staff.id, staffInvitations.invited_by));
}

/** Every invitation of the institution, the newest first, with its status worked out now. */
export async function listInvitations(db: DbOrTx, partnerId: string): Promise<Invitation[]> {
  const rows = await invitationQuery(db)
    .where(eq(staffInvitations.partner_id, partnerId))
    .orderBy(desc(staffInvitations.created_at), asc(staffInvitations.id));
  return rows.map(toInvitation);
}

async function findInvitation(db: DbOrTx, partnerId: string, invitationId: string): Promise<Invitation> {
  const [row] = await invitationQuery(db)
    .where(and(eq(staffInvitations.id, invitationId), eq(staffInvitations.partner_id, partnerId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', S.invitation_not_found);
  return toInvitation(row);
}

async function assertNoAccount(db: DbOrTx, email: string): Promise<void> {
  const [existing] = await db.select({ id: users.id }).from(users).where(emailIs(email)).limit(1);
  if (existing) throw new AppError('ABORTED', S.account_exists);
}

/** A new link for the invitation, and the email carrying it, in the caller's transaction. */
async function sendInvitation(
  tx: Tx,
  publicUrl: string,
  invitation: { id: string; email: string; first_name: string; role: string; language: string },
  context: { institution: string; inviterStaffId: string },
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await tx
    .update(staffInvitations)
    .set({ token_hash: tokenHash(token), expires_at: new Date(Date.now() + INVITATION_TTL_MS).toISOString() })
    .where(eq(staffInvitations.id, invitation.id));
  const [inviter] = await tx
    .select({ first_name: staff.first_name, last_name: staff.last_name })
    .from(staff)
    .where(eq(staff.id, context.inviterStaffId))
    .limit(1);
  await enqueueEmail(tx, {
    to: invitation.email,
    template: 'staff_invitation',
    language: invitation.language,
    data: {
      name: invitation.first_name,
      institution_name: context.institution,
      inviter_name: inviter ? `${inviter.first_name} ${inviter.last_name}` : undefined,
      role: invitation.role,
      link: `${publicUrl}/signup/partner/invitation?token=${encodeURIComponent(token)}`,
      expires_in_minutes: INVITATION_TTL_MS / 60_000,
    },
  });
}

/**
 * Invites a person by email with a job title, permissions and teams (spec section 6). Nobody with an
 * account already can be invited, one invitation per address waits at a time, and only full
 * administrators may offer 'all'. An expired invitation to the same address gives way to the new one.
 */
export async function createInvitation(
  db: Db,
  publicUrl: string,
  caller: StaffCaller,
  input: InvitationInput,
): Promise<Invitation> {
  const email = normalizeEmail(input.email);
  assertMayTouchAll(caller, [], input.permissions);
  return db.transaction(async (tx) => {
    const institution = await lockInstitution(tx, caller.partnerId);
    await assertTeamsOfPartner(tx, caller.partnerId, input.team_ids);
    await assertNoAccount(tx, email);
    const sameAddress = and(
      eq(staffInvitations.partner_id, caller.partnerId),
      eq(sql`lower(${staffInvitations.email})`, email),
      isNull(staffInvitations.accepted_at),
      isNull(staffInvitations.revoked_at),
    );
    await tx
      .update(staffInvitations)
      .set({ revoked_at: sql`now()` })
      .where(and(sameAddress, lte(staffInvitations.expires_at, sql`now()`)));
    const [row] = await tx
      .insert(staffInvitations)
      .values({
        partner_id: caller.partnerId,
        email,
        first_name: input.first_name,
        last_name: input.last_name,
        role: input.role,
        permissions: [...new Set(input.permissions)],
        team_ids: [...new Set(input.team_ids)],
        language: input.language,
        // Replaced by sendInvitation before the transaction commits; unique, so it never matches a link.
        token_hash: `unsent:${randomBytes(16).toString('hex')}`,
        invited_by: caller.staffId,
        expires_at: new Date(Date.now() + INVITATION_TTL_MS).toISOString(),
      })
      .onConflictDoNothing()
      .returning({ id: staffInvitations.id });
    if (!row) throw new AppError('ABORTED', S.invitation_exists);
    await sendInvitation(
      tx,
      publicUrl,
      { id: row.id, email, first_name: input.first_name, role: input.role, language: input.language },
      { institution, inviterStaffId: caller.staffId },
    );
    return findInvitation(tx, caller.partnerId, row.id);
  });
}

/** A new link and a fresh week for an invitation not yet accepted or revoked; the old link stops working. */
export async function resendInvitation(
  db: Db,
  publicUrl: string,
  caller: StaffCaller,
  invitationId: string,
): Promise<Invitation> {
  return db.transaction(async (tx) => {
    const institution = await lockInstitution(tx, caller.partnerId);
    const [row] = await tx
      .select()
      .from(staffInvitations)
      .where(
        and(
          eq(staffInvitations.id, invitationId),
          eq(staffInvitations.partner_id, caller.partnerId),
          isNull(staffInvitations.accepted_at),
          isNull(staffInvitations.revoked_at),
        ),
      )
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND', S.invitation_not_found);
    await assertNoAccount(tx, row.email);
    await sendInvitation(tx, publicUrl, row, { institution, inviterStaffId: caller.staffId });
    return findInvitation(tx, caller.partnerId, row.id);
  });
}

/** Withdraws an invitation not yet accepted: its link stops working. */
export async function revokeInvitation(db: Db, partnerId: string, invitationId: string): Promise<Invitation> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(staffInvitations)
      .set({ revoked_at: sql`now()` })
      .where(
        and(
          eq(staffInvitations.id, invitationId),
          eq(staffInvitations.partner_id, partnerId),
          isNull(staffInvitations.accepted_at),
          isNull(staffInvitations.revoked_at),
        ),
      )
      .returning({ id: staffInvitations.id });
    if (!row) throw new AppError('NOT_FOUND', S.invitation_not_found);
    return findInvitation(tx, partnerId, row.id);
  });
}

/** The waiting invitation a link names, with its institution; anything else is one refusal. */
async function waitingInvitation(db: DbOrTx, token: string, lock: boolean) {
  const query = db
    .select({ invitation: staffInvitations, institution_name: partners.name, partner_status: partners.status })
    .from(staffInvitations)
    .innerJoin(partners, eq(partners.id, staffInvitations.partner_id))
    .where(eq(staffInvitations.token_hash, tokenHash(token)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: staffInvitations }) : await query;
  if (!row || row.partner_status !== 'approved' || statusOf(row.invitation) !== 'pending') {
    throw new AppError('INVALID_ARGUMENT', S.invitation_invalid, undefined, { reason: 'invitation_invalid' });
  }
  return row;
}

/** What the invitation page shows before the person accepts. */
export async function previewInvitation(db: Db, token: string): Promise<InvitationPreview> {
  const { invitation, institution_name } = await waitingInvitation(db, token, false);
  return {
    email: invitation.email,
    first_name: invitation.first_name,
    last_name: invitation.last_name,
    role: invitation.role,
    institution_name,
  };
}

/**
 * Accepts an invitation: the verified staff account (the emailed link proved the address), its approved
 * and active membership as the invitation set it, and the invitation marked accepted, all at once; then
 * the person is signed in.
 */
export async function acceptInvitation(deps: AuthDeps, input: AcceptInvitation, caller: Caller): Promise<SignedIn> {
  assertNotCommonPassword(input.password, 'password');
  // Hashed before the transaction: argon2 takes tens of milliseconds and needs no database.
  const passwordHash = await hashPassword(input.password);
  const userId = await deps.db.transaction(async (tx) => {
    const { invitation } = await waitingInvitation(tx, input.token, true);
    const user = await insertAccount(tx, {
      email: invitation.email,
      passwordHash,
      type: 'staff',
      name: `${input.first_name} ${input.last_name}`,
      contactVerified: true,
      termsAccepted: true,
      partnerId: invitation.partner_id,
    });
    if (!user) throw new AppError('ABORTED', S.account_exists);
    // Teams deleted since the invitation was sent are dropped from it then; this keeps only live ones.
    const liveTeams = invitation.team_ids.length
      ? await tx
          .select({ id: teams.id })
          .from(teams)
          .where(and(eq(teams.partner_id, invitation.partner_id), inArray(teams.id, invitation.team_ids)))
      : [];
    await tx.insert(staff).values({
      user_id: user.id,
      partner_id: invitation.partner_id,
      email: user.email,
      first_name: input.first_name,
      last_name: input.last_name,
      language: invitation.language as Language,
      role: invitation.role,
      permissions: invitation.permissions,
      team_ids: liveTeams.map((team) => team.id),
      primary_contact: false,
      approval_status: 'approved',
      active: true,
    });
    const [accepted] = await tx
      .update(staffInvitations)
      .set({ accepted_at: sql`now()` })
      .where(and(eq(staffInvitations.id, invitation.id), isNull(staffInvitations.accepted_at)))
      .returning({ id: staffInvitations.id });
    if (!accepted)
      throw new AppError('INVALID_ARGUMENT', S.invitation_invalid, undefined, { reason: 'invitation_invalid' });
    return user.id;
  });
  return startSessionFor(deps, caller, userId);
}

/* ---------------------------------------------------------------- teams */

const inTeam = (teamId: string) => sql`${teamId}::uuid = any(${staff.team_ids})`;

/** The institution's teams by name, each with its approved members' ids. */
export async function listTeams(db: DbOrTx, partnerId: string): Promise<Team[]> {
  const rows = await db
    .select({
      id: teams.id,
      name: teams.name,
      description: teams.description,
      created_at: teams.created_at,
      updated_at: teams.updated_at,
    })
    .from(teams)
    .where(eq(teams.partner_id, partnerId))
    .orderBy(asc(sql`lower(${teams.name})`), asc(teams.id));
  const members = await db
    .select({ id: staff.id, team_ids: staff.team_ids })
    .from(staff)
    .where(isApprovedMemberOf(partnerId))
    .orderBy(asc(staff.id));
  return rows.map((team) => ({
    ...team,
    member_ids: members.filter((member) => member.team_ids.includes(team.id)).map((member) => member.id),
  }));
}

async function findTeam(db: DbOrTx, partnerId: string, teamId: string): Promise<Team> {
  const team = (await listTeams(db, partnerId)).find((candidate) => candidate.id === teamId);
  if (!team) throw new AppError('NOT_FOUND', S.team_not_found);
  return team;
}

async function assertNameFree(tx: Tx, partnerId: string, name: string, exceptId: string | null): Promise<void> {
  const [taken] = await tx
    .select({ id: teams.id })
    .from(teams)
    .where(
      and(
        eq(teams.partner_id, partnerId),
        eq(sql`lower(${teams.name})`, name.toLowerCase()),
        exceptId ? ne(teams.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw new AppError('ABORTED', S.team_exists);
}

export async function createTeam(db: Db, partnerId: string, input: TeamInput): Promise<Team> {
  return db.transaction(async (tx) => {
    await lockInstitution(tx, partnerId);
    await assertNameFree(tx, partnerId, input.name, null);
    const [row] = await tx
      .insert(teams)
      .values({ partner_id: partnerId, name: input.name, description: input.description })
      .returning({ id: teams.id });
    if (!row) throw new Error('the new team was not inserted');
    return findTeam(tx, partnerId, row.id);
  });
}

export async function updateTeam(db: Db, partnerId: string, teamId: string, input: TeamInput): Promise<Team> {
  return db.transaction(async (tx) => {
    await lockInstitution(tx, partnerId);
    await assertNameFree(tx, partnerId, input.name, teamId);
    const [row] = await tx
      .update(teams)
      .set({ name: input.name, description: input.description })
      .where(and(eq(teams.id, teamId), eq(teams.partner_id, partnerId)))
      .returning({ id: teams.id });
    if (!row) throw new AppError('NOT_FOUND', S.team_not_found);
    return findTeam(tx, partnerId, row.id);
  });
}

/** Deletes a team and takes it off every member and every waiting invitation. */
export async function deleteTeam(db: Db, partnerId: string, teamId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockInstitution(tx, partnerId);
    const [row] = await tx
      .delete(teams)
      .where(and(eq(teams.id, teamId), eq(teams.partner_id, partnerId)))
      .returning({ id: teams.id });
    if (!row) throw new AppError('NOT_FOUND', S.team_not_found);
    await tx
      .update(staff)
      .set({ team_ids: sql`array_remove(${staff.team_ids}, ${teamId}::uuid)` })
      .where(and(eq(staff.partner_id, partnerId), inTeam(teamId)));
    await tx
      .update(staffInvitations)
      .set({ team_ids: sql`array_remove(${staffInvitations.team_ids}, ${teamId}::uuid)` })
      .where(and(eq(staffInvitations.partner_id, partnerId), sql`${teamId}::uuid = any(${staffInvitations.team_ids})`));
  });
}

/** Makes exactly these approved members the team's members. */
export async function setTeamMembers(db: Db, partnerId: string, teamId: string, staffIds: string[]): Promise<Team> {
  const wanted = [...new Set(staffIds)];
  return db.transaction(async (tx) => {
    await lockInstitution(tx, partnerId);
    await findTeam(tx, partnerId, teamId);
    if (wanted.length > 0) {
      const found = await tx
        .select({ id: staff.id })
        .from(staff)
        .where(and(isApprovedMemberOf(partnerId), inArray(staff.id, wanted)));
      if (found.length !== wanted.length) throw new AppError('NOT_FOUND', S.member_not_found);
    }
    await tx
      .update(staff)
      .set({ team_ids: sql`array_remove(${staff.team_ids}, ${teamId}::uuid)` })
      .where(
        and(eq(staff.partner_id, partnerId), inTeam(teamId), wanted.length ? notInArray(staff.id, wanted) : undefined),
      );
    if (wanted.length > 0) {
      await tx
        .update(staff)
        .set({ team_ids: sql`array_append(${staff.team_ids}, ${teamId}::uuid)` })
        .where(and(eq(staff.partner_id, partnerId), inArray(staff.id, wanted), sql`not (${inTeam(teamId)})`));
    }
    return findTeam(tx, partnerId, teamId);
  });
}
