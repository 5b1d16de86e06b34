import { and, asc, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import { SETUP_MESSAGES as S, type Team, type TeamInput } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { staff, staffInvitations, teams } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { lockInstitution } from './team-rules.ts';
import { isApprovedMemberOf } from './members.service.ts';

/** Teams: named groups of members that applications can be assigned to. */
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
