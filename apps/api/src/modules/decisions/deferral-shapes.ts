import { desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Deferral, ReviewDeferral } from '@kaminuza/shared';
import type { DbOrTx } from '../../db/client.ts';
import { cycles, deferralRequests, staff, submissions } from '../../db/schema/index.ts';
import { placeStanding } from './places.service.ts';

/*
 * A decision's deferral requests (ADR 053) as both sides read them: the latest one of each decision, with
 * the names of its cycles; staff also read who answered it and, while it waits, the places left in the
 * cycle asked for.
 */

const fromCycle = alias(cycles, 'deferral_from_cycle');
const toCycle = alias(cycles, 'deferral_to_cycle');

const iso = (value: string) => new Date(value).toISOString();

function latestQuery(db: DbOrTx, decisionIds: readonly string[]) {
  return db
    .selectDistinctOn([deferralRequests.decision_id], {
      request: deferralRequests,
      from_name: fromCycle.name,
      to_name: toCycle.name,
      program_id: submissions.program_id,
      campus_id: submissions.campus_id,
      staff_name: sql<string | null>`btrim(${staff.first_name} || ' ' || ${staff.last_name})`,
    })
    .from(deferralRequests)
    .innerJoin(fromCycle, eq(fromCycle.id, deferralRequests.from_cycle_id))
    .innerJoin(toCycle, eq(toCycle.id, deferralRequests.to_cycle_id))
    .innerJoin(submissions, eq(submissions.id, deferralRequests.submission_id))
    .leftJoin(staff, eq(staff.id, deferralRequests.decided_by))
    .where(inArray(deferralRequests.decision_id, [...decisionIds]))
    .orderBy(deferralRequests.decision_id, desc(deferralRequests.created_at), desc(deferralRequests.id));
}
type LatestRow = Awaited<ReturnType<typeof latestQuery>>[number];

function toDeferral(row: LatestRow): Deferral {
  const { request } = row;
  return {
    id: request.id,
    status: request.status,
    from_cycle: { id: request.from_cycle_id, name: row.from_name },
    to_cycle: { id: request.to_cycle_id, name: row.to_name },
    reason: request.reason,
    note: request.note,
    requested_at: iso(request.created_at),
    closed_at: request.closed_at === null ? null : iso(request.closed_at),
  };
}

/** The latest deferral request of each of these decisions, as the applicant reads it. */
export async function studentDeferrals(db: DbOrTx, decisionIds: readonly string[]): Promise<Map<string, Deferral>> {
  if (decisionIds.length === 0) return new Map();
  const rows = await latestQuery(db, decisionIds);
  return new Map(rows.map((row) => [row.request.decision_id, toDeferral(row)]));
}

export async function studentDeferralOf(db: DbOrTx, decisionId: string): Promise<Deferral | null> {
  return (await studentDeferrals(db, [decisionId])).get(decisionId) ?? null;
}

/** The decision's latest deferral request as staff read it, or null when none was made. */
export async function reviewDeferralOf(db: DbOrTx, decisionId: string): Promise<ReviewDeferral | null> {
  const [row] = await latestQuery(db, [decisionId]);
  if (!row) return null;
  const { request } = row;
  const places =
    request.status === 'pending' && row.program_id
      ? await placeStanding(db, request.partner_id, {
          cycle_id: request.to_cycle_id,
          program_id: row.program_id,
          campus_id: row.campus_id,
        })
      : null;
  return {
    ...toDeferral(row),
    decided_by: request.decided_by ? { id: request.decided_by, name: row.staff_name ?? '' } : null,
    places,
  };
}
