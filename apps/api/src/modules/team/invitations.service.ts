import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import {
  SETUP_MESSAGES as S,
  type AcceptInvitation,
  type Invitation,
  type InvitationInput,
  type InvitationPreview,
  type Language,
  type StaffPermission,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { partners, staff, staffInvitations, teams, users } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import {
  emailIs,
  insertAccount,
  normalizeEmail,
  startSessionFor,
  type AuthDeps,
  type Caller,
  type SignedIn,
  assertNotCommonPassword,
  hashPassword,
} from '../auth/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { enqueueEmail } from '../email/index.ts';
import type { StaffCaller } from '../partners/index.ts';
import { INVITATION_TTL_MS, assertMayTouchAll, assertTeamsOfPartner, lockInstitution } from './team-rules.ts';

/** Invitations to join the institution: sending, resending, revoking, previewing and accepting them. */
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
