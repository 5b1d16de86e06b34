import { and, arrayContains, asc, desc, eq, ne, sql } from 'drizzle-orm';
import { SETUP_MESSAGES as S, type StaffMember, type StaffMemberUpdate, type StaffPermission } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { staff } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { revokeSessions } from '../auth/index.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { StaffCaller } from '../partners/index.ts';
import { assertMayTouchAll, assertTeamsOfPartner, lockInstitution, sameSet } from './team-rules.ts';

/** The institution's members: who they are, what they may do, who is the primary contact. */
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

export const isApprovedMemberOf = (partnerId: string) =>
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
