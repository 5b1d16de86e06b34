import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { cycleAcceptsApplications, SETUP_MESSAGES, type Cycle, type CycleInput } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { applications, cyclePrograms, cycles, deferralRequests, submissions } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import { assertCycleOfPartner, cycleSettings } from '../partner-settings/index.ts';
import { assertProgramsOfPartner } from '../programs/index.ts';

/** Refuses (404) a cycle id that is not one of this institution's cycles. */
/**
 * The institution's cycles, the latest opening first, each with its open programs, whether it is the
 * current cycle and whether it takes applications at `now`.
 */
export async function listCycles(
  db: DbOrTx,
  partnerId: string,
  { id, now = new Date() }: { id?: string; now?: Date } = {},
): Promise<Cycle[]> {
  const rows = await db
    .select({
      id: cycles.id,
      name: cycles.name,
      opens_on: cycles.opens_on,
      closes_on: cycles.closes_on,
      decision_release_on: cycles.decision_release_on,
      status: cycles.status,
      created_at: cycles.created_at,
      updated_at: cycles.updated_at,
    })
    .from(cycles)
    .where(and(eq(cycles.partner_id, partnerId), id ? eq(cycles.id, id) : undefined))
    .orderBy(desc(cycles.opens_on), desc(cycles.created_at), asc(cycles.id));
  if (rows.length === 0) return [];
  const links = await db
    .select({ cycle_id: cyclePrograms.cycle_id, program_id: cyclePrograms.program_id })
    .from(cyclePrograms)
    .where(
      inArray(
        cyclePrograms.cycle_id,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(cyclePrograms.program_id));
  const { currentCycleId: current, timezone } = await cycleSettings(db, partnerId);
  return rows.map((row) => ({
    ...row,
    program_ids: links.filter((link) => link.cycle_id === row.id).map((link) => link.program_id),
    current: row.id === current,
    accepting_applications: cycleAcceptsApplications(row, timezone, now),
  }));
}

export async function getCycle(db: DbOrTx, partnerId: string, cycleId: string): Promise<Cycle> {
  const [cycle] = await listCycles(db, partnerId, { id: cycleId });
  if (!cycle) throw new AppError('NOT_FOUND', SETUP_MESSAGES.cycle_not_found);
  return cycle;
}

async function openPrograms(tx: DbOrTx, partnerId: string, cycleId: string, programIds: readonly string[]) {
  await assertProgramsOfPartner(tx, partnerId, programIds);
  await tx.delete(cyclePrograms).where(eq(cyclePrograms.cycle_id, cycleId));
  const unique = [...new Set(programIds)];
  if (unique.length > 0) {
    await tx.insert(cyclePrograms).values(unique.map((program_id) => ({ cycle_id: cycleId, program_id })));
  }
}

export async function createCycle(db: Db, partnerId: string, input: CycleInput): Promise<Cycle> {
  const { program_ids, ...fields } = input;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(cycles)
      .values({ ...fields, partner_id: partnerId })
      .returning({ id: cycles.id });
    await openPrograms(tx, partnerId, row!.id, program_ids);
    return getCycle(tx, partnerId, row!.id);
  });
}

/** Replaces a cycle's dates, status and open programs. */
export async function updateCycle(db: Db, partnerId: string, cycleId: string, input: CycleInput): Promise<Cycle> {
  const { program_ids, ...fields } = input;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(cycles)
      .set(fields)
      .where(and(eq(cycles.id, cycleId), eq(cycles.partner_id, partnerId)))
      .returning({ id: cycles.id });
    if (!row) throw new AppError('NOT_FOUND', SETUP_MESSAGES.cycle_not_found);
    await openPrograms(tx, partnerId, cycleId, program_ids);
    return getCycle(tx, partnerId, cycleId);
  });
}

/**
 * Deletes a cycle no application was submitted in. The current cycle is refused: applicants are sent to
 * it, so another one is made current (or none) in the settings first, deliberately.
 */
export async function deleteCycle(db: Db, partnerId: string, cycleId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await assertCycleOfPartner(tx, partnerId, cycleId);
    const [used] = await tx
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(eq(submissions.partner_id, partnerId), eq(submissions.cycle_id, cycleId)))
      .limit(1);
    if (used) throw new AppError('ABORTED', SETUP_MESSAGES.in_use);
    // Offers deferred to it, or asked to be (ADR 053), hold places there.
    const [deferred] = await tx
      .select({ id: deferralRequests.id })
      .from(deferralRequests)
      .where(and(eq(deferralRequests.partner_id, partnerId), eq(deferralRequests.to_cycle_id, cycleId)))
      .limit(1);
    if (deferred) throw new AppError('ABORTED', SETUP_MESSAGES.in_use);
    const [draft] = await tx
      .select({ id: applications.id })
      .from(applications)
      .where(
        and(
          eq(applications.partner_id, partnerId),
          eq(applications.cycle_id, cycleId),
          eq(applications.status, 'in_progress'),
        ),
      )
      .limit(1);
    if (draft) throw new AppError('ABORTED', SETUP_MESSAGES.in_use_drafts);
    if ((await cycleSettings(tx, partnerId)).currentCycleId === cycleId) {
      throw new AppError('ABORTED', SETUP_MESSAGES.cycle_is_current);
    }
    await tx.delete(cycles).where(and(eq(cycles.id, cycleId), eq(cycles.partner_id, partnerId)));
  });
}
