import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  DECISION_MESSAGES as D,
  type DeferralCycle,
  type DeferralOutcome,
  type DeferralRequestInput,
  type ReviewDecision,
  type StudentDecision,
} from '@kaminuza/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  cyclePrograms,
  cycles,
  decisions,
  deferralRequests,
  programCampuses,
  submissions,
} from '../../db/schema/index.ts';
import { uniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { tellDecisionMakers } from './decision-makers.ts';
import type { StaffCaller } from '../partners/index.ts';
import { recordEvent, submissionOfPartner } from '../submissions/index.ts';
import { ownDecision, studentView } from './applicant-decisions.service.ts';
import { reviewDecisionOf, type DecisionRow } from './decision-shapes.ts';
import { assertPlaceLeft, proposeNextOnWaitlist } from './places.service.ts';
import { Releaser, releaseRows } from './staff-decisions.service.ts';

/*
 * Deferral of an accepted offer (issue 26, ADR 053). The applicant holding an accepted offer asks to take
 * up their place in a later cycle of the institution that offers the same program at the same campus,
 * giving a reason; one request waits at a time, and they may withdraw it. Members who make decisions
 * approve it (the offer then holds its place in that cycle, within its places unless they go beyond, its
 * letter names that cycle, and the place it leaves goes to the waiting list) or decline it, with a note.
 */

const currentCycle = alias(cycles, 'deferral_current_cycle');

/** What a deferral is about: the place the offer holds now. */
interface Place {
  partnerId: string;
  /** The cycle the offer holds its place in: the one it was deferred to, else the one applied to. */
  cycleId: string | null;
  programId: string | null;
  campusId: string;
}

async function placeOf(db: DbOrTx, decision: DecisionRow): Promise<Place> {
  const [row] = await db
    .select({ cycle_id: submissions.cycle_id, program_id: submissions.program_id, campus_id: submissions.campus_id })
    .from(submissions)
    .where(eq(submissions.id, decision.submission_id));
  return {
    partnerId: decision.partner_id,
    cycleId: decision.deferred_to_cycle_id ?? row?.cycle_id ?? null,
    programId: row?.program_id ?? null,
    campusId: row!.campus_id,
  };
}

/**
 * The cycles an offer may be deferred to: the institution's cycles that open after the one it holds its
 * place in, offer its program, at its campus (a program no longer taught there offers none). Earliest first.
 */
async function eligibleCycles(db: DbOrTx, place: Place): Promise<DeferralCycle[]> {
  if (!place.cycleId || !place.programId) return [];
  return db
    .select({ id: cycles.id, name: cycles.name, opens_on: cycles.opens_on, closes_on: cycles.closes_on })
    .from(cycles)
    .innerJoin(cyclePrograms, and(eq(cyclePrograms.cycle_id, cycles.id), eq(cyclePrograms.program_id, place.programId)))
    .innerJoin(currentCycle, eq(currentCycle.id, place.cycleId))
    .where(
      and(
        eq(cycles.partner_id, place.partnerId),
        gt(cycles.opens_on, currentCycle.opens_on),
        sql`exists (select 1 from ${programCampuses} where ${programCampuses.program_id} = ${place.programId} and ${programCampuses.campus_id} = ${place.campusId})`,
      ),
    )
    .orderBy(asc(cycles.opens_on), asc(cycles.name));
}

/**
 * Why an offer cannot be deferred, if it cannot: only an offer the applicant accepted, still standing
 * (not ended by conditions found not met, not lapsed).
 */
function notDeferrable(decision: DecisionRow): string | null {
  if (decision.state !== 'accepted' || !decision.released_at) return D.deferral_not_accepted;
  if (decision.conditions_status === 'not_met') return D.offer_ended;
  if (decision.response !== 'accepted' || decision.lapsed_at) return D.deferral_not_accepted;
  return null;
}

async function latestRequest(db: DbOrTx, decisionId: string) {
  const [row] = await db
    .select()
    .from(deferralRequests)
    .where(eq(deferralRequests.decision_id, decisionId))
    .orderBy(sql`${deferralRequests.created_at} desc`, sql`${deferralRequests.id} desc`)
    .limit(1);
  return row ?? null;
}

/* ---------------------------------------------------------------- the applicant */

/** The cycles the applicant may ask to defer their offer to; none unless it is an accepted, standing offer. */
export async function deferralCycles(db: Db, userId: string, applicationId: string): Promise<DeferralCycle[]> {
  const decision = await ownDecision(db, userId, applicationId);
  if (notDeferrable(decision)) return [];
  return eligibleCycles(db, await placeOf(db, decision));
}

/**
 * The applicant asks to defer their accepted offer to one of the cycles it may go to, with a reason. 409
 * when the offer is not an accepted, standing one, when a request already waits, when it was deferred
 * already or a request was declined, and when no later cycle offers the program; 400 for a cycle not
 * among those it may go to. Staff who make decisions are told.
 */
export async function requestDeferral(
  db: Db,
  userId: string,
  applicationId: string,
  input: DeferralRequestInput,
): Promise<StudentDecision> {
  const decision = await db.transaction(async (tx) => {
    const decision = await ownDecision(tx, userId, applicationId, { lock: true });
    const refused = notDeferrable(decision);
    if (refused) throw new AppError('ABORTED', refused);
    const latest = await latestRequest(tx, decision.id);
    if (latest?.status === 'pending') throw new AppError('ABORTED', D.deferral_pending);
    if (latest?.status === 'approved' || decision.deferred_to_cycle_id) {
      throw new AppError('ABORTED', D.deferral_already_deferred);
    }
    if (latest?.status === 'declined') throw new AppError('ABORTED', D.deferral_was_declined);
    const place = await placeOf(tx, decision);
    const options = await eligibleCycles(tx, place);
    if (options.length === 0) throw new AppError('ABORTED', D.deferral_no_cycle);
    const chosen = options.find((cycle) => cycle.id === input.cycle_id);
    if (!chosen) {
      throw new AppError('INVALID_ARGUMENT', D.deferral_cycle_invalid, [
        { path: 'cycle_id', message: D.deferral_cycle_invalid },
      ]);
    }
    try {
      await tx.transaction((savepoint) =>
        savepoint.insert(deferralRequests).values({
          decision_id: decision.id,
          submission_id: decision.submission_id,
          partner_id: decision.partner_id,
          from_cycle_id: place.cycleId!,
          to_cycle_id: chosen.id,
          reason: input.reason,
        }),
      );
    } catch (error) {
      if (uniqueViolation(error) === 'deferral_requests_pending_unique') {
        throw new AppError('ABORTED', D.deferral_pending);
      }
      throw error;
    }
    await recordEvent(tx, {
      submissionId: decision.submission_id,
      partnerId: decision.partner_id,
      actor: { kind: 'applicant' },
      action: 'deferral_requested',
      details: { cycle: chosen.name },
    });
    const [submission] = await tx
      .select({ reference: submissions.reference })
      .from(submissions)
      .where(eq(submissions.id, decision.submission_id));
    await tellDecisionMakers(tx, decision.partner_id, {
      type: 'deferral_requested',
      submissionId: decision.submission_id,
      data: { reference: submission?.reference ?? '', program: decision.program_name, cycle: chosen.name },
    });
    return decision;
  });
  return studentView(db, decision);
}

/** The applicant withdraws the request still waiting for an answer (409 when none waits). */
export async function withdrawDeferral(
  db: Db,
  userId: string,
  applicationId: string,
  now = new Date(),
): Promise<StudentDecision> {
  const decision = await db.transaction(async (tx) => {
    const decision = await ownDecision(tx, userId, applicationId, { lock: true });
    const [withdrawn] = await tx
      .update(deferralRequests)
      .set({ status: 'withdrawn', closed_at: now.toISOString() })
      .where(and(eq(deferralRequests.decision_id, decision.id), eq(deferralRequests.status, 'pending')))
      .returning({ id: deferralRequests.id });
    if (!withdrawn) throw new AppError('ABORTED', D.no_pending_deferral);
    await recordEvent(tx, {
      submissionId: decision.submission_id,
      partnerId: decision.partner_id,
      actor: { kind: 'applicant' },
      action: 'deferral_withdrawn',
    });
    return decision;
  });
  return studentView(db, decision);
}

/* ---------------------------------------------------------------- staff */

/**
 * A member answers the pending request they read (`request_id`; 409 when it is no longer pending, so an
 * answer is given once). Approved: the offer must still be accepted and standing, the cycle must still
 * offer the program, and a place must be left there unless the member goes beyond (409 no_places_left);
 * the offer then holds its place in that cycle, its letter is issued again naming it (same verification
 * code), and the place it leaves proposes the next on that waiting list. Either way the applicant is told,
 * with the member's note.
 */
export async function decideDeferral(
  db: Db,
  caller: StaffCaller,
  submissionId: string,
  input: DeferralOutcome,
  publicUrl: string,
  now = new Date(),
): Promise<ReviewDecision> {
  await db.transaction(async (tx) => {
    await submissionOfPartner(tx, caller.partnerId, submissionId, { lock: true });
    const [row] = await releaseRows(tx, eq(decisions.submission_id, submissionId)).for('update', { of: decisions });
    const [request] = await tx
      .select()
      .from(deferralRequests)
      .where(and(eq(deferralRequests.id, input.request_id), eq(deferralRequests.submission_id, submissionId)))
      .for('update');
    if (!row || !request || request.status !== 'pending') throw new AppError('ABORTED', D.no_pending_deferral);
    const { decision } = row;
    const actor = { kind: 'staff' as const, staffId: caller.staffId };
    const releaser = new Releaser(tx, now, publicUrl, actor);
    const [toCycle] = await tx.select({ name: cycles.name }).from(cycles).where(eq(cycles.id, request.to_cycle_id));
    const cycleName = toCycle?.name ?? '';
    const close = {
      status: input.outcome,
      note: input.note,
      decided_by: caller.staffId,
      closed_at: now.toISOString(),
    } as const;

    if (input.outcome === 'declined') {
      await tx.update(deferralRequests).set(close).where(eq(deferralRequests.id, request.id));
      await recordEvent(tx, {
        submissionId,
        partnerId: caller.partnerId,
        actor,
        action: 'deferral_declined',
        details: { cycle: cycleName },
      });
      await releaser.tell(row, 'deferral_declined', 'status_updates', { cycleName, note: input.note });
      return;
    }

    const refused = notDeferrable(decision);
    if (refused === D.deferral_not_accepted) throw new AppError('ABORTED', D.offer_not_open);
    if (refused) throw new AppError('ABORTED', refused);
    const place = await placeOf(tx, decision);
    if (!(await eligibleCycles(tx, place)).some((cycle) => cycle.id === request.to_cycle_id)) {
      throw new AppError('ABORTED', D.deferral_cycle_gone);
    }
    await assertPlaceLeft(
      tx,
      caller.partnerId,
      { cycle_id: request.to_cycle_id, program_id: place.programId!, campus_id: place.campusId },
      input.override_capacity,
    );
    await tx.update(decisions).set({ deferred_to_cycle_id: request.to_cycle_id }).where(eq(decisions.id, decision.id));
    await tx.update(deferralRequests).set(close).where(eq(deferralRequests.id, request.id));
    // The letter names the cycle the offer now holds its place in; its verification code stays.
    const [deferred] = await releaseRows(tx, eq(decisions.id, decision.id));
    if (deferred && decision.letter && decision.verification_code) {
      const letter = await releaser.letterOf(
        deferred,
        { conditions: decision.conditions_status === 'met' ? [] : decision.conditions, reply_by_on: null },
        { programName: decision.program_name, universityName: decision.university_name },
        decision.verification_code,
      );
      await tx.update(decisions).set({ letter }).where(eq(decisions.id, decision.id));
    }
    await recordEvent(tx, {
      submissionId,
      partnerId: caller.partnerId,
      actor,
      action: 'deferral_approved',
      details: { cycle: cycleName, ...(input.override_capacity ? { beyond_places: true } : {}) },
    });
    await releaser.tell(deferred ?? row, 'deferral_approved', 'status_updates', { cycleName, note: input.note });
    // The place it held in the cycle it leaves opens for the next on that waiting list.
    if (place.cycleId) await proposeNextOnWaitlist(tx, submissionId, now, place.cycleId);
  });
  return (await reviewDecisionOf(db, submissionId))!;
}
