import { and, eq, inArray } from 'drizzle-orm';
import { SETUP_MESSAGES as S } from '@kaminuza/shared';
import { partners, teams } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { StaffCaller } from '../partners/index.ts';

const DAY_MS = 86_400_000;
/** How long an emailed invitation link works. */
export const INVITATION_TTL_MS = 7 * DAY_MS;

const holdsAll = (permissions: readonly string[]) => permissions.includes('all');

/**
 * Serializes the team changes of one institution: the rules that look at the other members (one active
 * full administrator at least, one primary contact) would otherwise race between two administrators.
 */
export async function lockInstitution(tx: Tx, partnerId: string): Promise<string> {
  const [row] = await tx.select({ name: partners.name }).from(partners).where(eq(partners.id, partnerId)).for('update');
  if (!row) throw new AppError('NOT_FOUND');
  return row.name;
}

/** Refuses (404) any team id that is not one of this institution's teams. */
export async function assertTeamsOfPartner(db: DbOrTx, partnerId: string, ids: readonly string[]): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.partner_id, partnerId), inArray(teams.id, wanted)));
  if (found.length !== wanted.length) throw new AppError('NOT_FOUND', S.team_not_found);
}

/** 'all' is given, taken or held by the member: only a full administrator may touch it. */
export function assertMayTouchAll(
  caller: StaffCaller,
  before: readonly string[],
  after: readonly string[] | undefined,
) {
  const touchesAll = holdsAll(before) || (after !== undefined && holdsAll(after));
  if (touchesAll && !holdsAll(caller.permissions)) throw new AppError('PERMISSION_DENIED', S.grant_all_denied);
}

export const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value) => b.includes(value));
