import { and, asc, eq, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  DECISION_MESSAGES as D,
  type PlacesInput,
  type PlacesRow,
  type PlacesStanding,
  type WaitingListEntry,
  type WaitingListOrder,
  type WaitingListQuery,
} from '@kaminuza/shared';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import {
  campuses,
  cyclePrograms,
  cycles,
  decisions,
  places,
  programCampuses,
  programs,
  submissions,
} from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { recordEvent } from '../submissions/index.ts';
import { tellDecisionMakers } from './decision-makers.ts';

/*
 * Places (issue 26): how many a program offers in a cycle at a campus, and how many offers hold one. An
 * offer holds a place once released, until the applicant declines it, it lapses or its conditions are
 * found not met; a drafted offer is counted apart (it will hold one once released). An offer deferred to
 * a later cycle (ADR 053) holds its place in that cycle, not in the one applied to.
 */

/** The cycle whose place an offer holds: the one it was deferred to, else the submission's. */
export const heldCycle: SQL<string | null> = sql<
  string | null
>`coalesce(${decisions.deferred_to_cycle_id}, ${submissions.cycle_id})`;

/** A released offer that holds a place: accepted by the applicant, or not answered and still open. */
const holdsPlace: SQL = and(
  eq(decisions.state, 'accepted'),
  isNotNull(decisions.released_at),
  isNull(decisions.lapsed_at),
  or(isNull(decisions.conditions_status), ne(decisions.conditions_status, 'not_met')),
  or(isNull(decisions.response), eq(decisions.response, 'accepted')),
)!;

export interface PlaceKey {
  cycle_id: string;
  program_id: string;
  campus_id: string;
}
type Key = PlaceKey;
const keyOf = ({ cycle_id, program_id, campus_id }: Key) => `${cycle_id}/${program_id}/${campus_id}`;

/**
 * The offers of these (cycle, program, campus) places, counted: accepted, outstanding, drafted. Grouped by
 * the cycle each offer holds its place in (`heldCycle`), which `where` should name too.
 */
async function offerCounts(db: DbOrTx, partnerId: string, where: SQL | undefined) {
  const rows = await db
    .select({
      cycle_id: heldCycle,
      program_id: submissions.program_id,
      campus_id: submissions.campus_id,
      accepted: sql<number>`count(*) filter (where ${holdsPlace} and ${decisions.response} = 'accepted')::int`,
      outstanding: sql<number>`count(*) filter (where ${holdsPlace} and ${decisions.response} is null)::int`,
      drafted: sql<number>`count(*) filter (where ${decisions.state} = 'accepted' and ${decisions.released_at} is null)::int`,
    })
    .from(decisions)
    .innerJoin(submissions, eq(submissions.id, decisions.submission_id))
    .where(and(eq(decisions.partner_id, partnerId), where))
    .groupBy(heldCycle, submissions.program_id, submissions.campus_id);
  return new Map(
    rows.flatMap((row) =>
      row.cycle_id && row.program_id && row.campus_id
        ? [[keyOf(row as Key), { accepted: row.accepted, outstanding: row.outstanding, drafted: row.drafted }]]
        : [],
    ),
  );
}

function standing(limit: number | null, counts: { accepted: number; outstanding: number; drafted: number }) {
  return {
    places: limit,
    ...counts,
    left: limit === null ? null : Math.max(0, limit - counts.accepted - counts.outstanding),
  };
}

const NONE = { accepted: 0, outstanding: 0, drafted: 0 };

/** Each program open in the cycle, at each of its campuses, with its places and the offers counted. */
export async function listPlaces(db: DbOrTx, partnerId: string, cycleId: string): Promise<PlacesRow[]> {
  const [cycle] = await db
    .select({ id: cycles.id })
    .from(cycles)
    .where(and(eq(cycles.id, cycleId), eq(cycles.partner_id, partnerId)));
  if (!cycle) throw new AppError('NOT_FOUND');
  const [offered, limits, counts] = await Promise.all([
    db
      .select({
        program_id: programs.id,
        program_name: programs.name,
        campus_id: campuses.id,
        campus_name: campuses.name,
      })
      .from(cyclePrograms)
      .innerJoin(programs, eq(programs.id, cyclePrograms.program_id))
      .innerJoin(programCampuses, eq(programCampuses.program_id, programs.id))
      .innerJoin(campuses, eq(campuses.id, programCampuses.campus_id))
      .where(eq(cyclePrograms.cycle_id, cycleId))
      .orderBy(asc(programs.name), asc(campuses.name)),
    db
      .select({ program_id: places.program_id, campus_id: places.campus_id, places: places.places })
      .from(places)
      .where(eq(places.cycle_id, cycleId)),
    offerCounts(db, partnerId, eq(heldCycle, cycleId)),
  ]);
  const limitOf = new Map(limits.map((row) => [`${row.program_id}/${row.campus_id}`, row.places]));
  return offered.map((row) => ({
    ...row,
    ...standing(
      limitOf.get(`${row.program_id}/${row.campus_id}`) ?? null,
      counts.get(keyOf({ cycle_id: cycleId, ...row })) ?? NONE,
    ),
  }));
}

/**
 * Sets the places of programs at campuses in the cycle (null removes the limit). Each pair must be a
 * program open in the cycle at one of its campuses (400 otherwise, nothing changed). Answers the list.
 */
export async function setPlaces(
  db: DbOrTx,
  partnerId: string,
  cycleId: string,
  input: PlacesInput,
): Promise<PlacesRow[]> {
  const offered = new Set(
    (await listPlaces(db, partnerId, cycleId)).map((row) => `${row.program_id}/${row.campus_id}`),
  );
  const unknown = input.places.findIndex((entry) => !offered.has(`${entry.program_id}/${entry.campus_id}`));
  if (unknown >= 0) {
    throw new AppError('INVALID_ARGUMENT', D.place_unknown, [
      { path: `places.${unknown}.campus_id`, message: D.place_unknown },
    ]);
  }
  const set = input.places.filter((entry) => entry.places !== null);
  const removed = input.places.filter((entry) => entry.places === null);
  for (const entry of removed) {
    await db
      .delete(places)
      .where(
        and(
          eq(places.cycle_id, cycleId),
          eq(places.program_id, entry.program_id),
          eq(places.campus_id, entry.campus_id),
        ),
      );
  }
  if (set.length > 0) {
    await db
      .insert(places)
      .values(
        set.map((entry) => ({
          partner_id: partnerId,
          cycle_id: cycleId,
          program_id: entry.program_id,
          campus_id: entry.campus_id,
          places: entry.places!,
        })),
      )
      .onConflictDoUpdate({
        target: [places.cycle_id, places.program_id, places.campus_id],
        set: { places: sql`excluded.places`, updated_at: sql`now()` },
      });
  }
  return listPlaces(db, partnerId, cycleId);
}

/** Where one place stands: its limit, and the offers holding it. */
export async function placeStanding(db: DbOrTx, partnerId: string, key: Key): Promise<PlacesStanding> {
  const [limit] = await db
    .select({ places: places.places })
    .from(places)
    .where(
      and(
        eq(places.cycle_id, key.cycle_id),
        eq(places.program_id, key.program_id),
        eq(places.campus_id, key.campus_id),
      ),
    );
  const counts = await offerCounts(
    db,
    partnerId,
    and(
      eq(heldCycle, key.cycle_id),
      eq(submissions.program_id, key.program_id),
      eq(submissions.campus_id, key.campus_id),
    ),
  );
  return standing(limit?.places ?? null, counts.get(keyOf(key)) ?? NONE);
}

/**
 * Where the place of a submission stands: the one its offer holds (in the cycle it was deferred to, if it
 * was), else the one it applied for; null when it names no campus or cycle.
 */
export async function placesOfSubmission(db: DbOrTx, submissionId: string): Promise<PlacesStanding | null> {
  const [row] = await db
    .select({
      partner_id: submissions.partner_id,
      cycle_id: heldCycle,
      program_id: submissions.program_id,
      campus_id: submissions.campus_id,
    })
    .from(submissions)
    .leftJoin(decisions, eq(decisions.submission_id, submissions.id))
    .where(eq(submissions.id, submissionId));
  if (!row?.cycle_id || !row.program_id || !row.campus_id) return null;
  return placeStanding(db, row.partner_id, {
    cycle_id: row.cycle_id,
    program_id: row.program_id,
    campus_id: row.campus_id,
  });
}

/**
 * Refuses to release these offers where they would take more places than are left (409, each place
 * short with how many are left and how many were to be released), unless the member said to go beyond.
 * Places without a limit never refuse.
 */
export async function assertPlacesFor(
  db: DbOrTx,
  partnerId: string,
  offerSubmissionIds: readonly string[],
  override: boolean,
): Promise<void> {
  if (override || offerSubmissionIds.length === 0) return;
  const wanted = await db
    .select({
      cycle_id: submissions.cycle_id,
      program_id: submissions.program_id,
      campus_id: submissions.campus_id,
      places: places.places,
      releasing: sql<number>`count(*)::int`,
    })
    .from(submissions)
    .innerJoin(
      places,
      and(
        eq(places.cycle_id, submissions.cycle_id),
        eq(places.program_id, submissions.program_id),
        eq(places.campus_id, submissions.campus_id),
      ),
    )
    .where(inArray(submissions.id, [...offerSubmissionIds]))
    .groupBy(submissions.cycle_id, submissions.program_id, submissions.campus_id, places.places);
  if (wanted.length === 0) return;
  const counts = await offerCounts(
    db,
    partnerId,
    inArray(
      heldCycle,
      wanted.map((row) => row.cycle_id!),
    ),
  );
  const short = wanted.flatMap((row) => {
    const { left } = standing(row.places, counts.get(keyOf(row as Key)) ?? NONE);
    return left !== null && row.releasing > left
      ? [
          {
            program_id: row.program_id,
            campus_id: row.campus_id,
            cycle_id: row.cycle_id,
            left,
            releasing: row.releasing,
          },
        ]
      : [];
  });
  if (short.length > 0) {
    throw new AppError('ABORTED', D.no_places_left, { places: short }, { reason: 'no_places_left' });
  }
}

/**
 * Refuses to give one more offer a place of `key` when none is left (409, as assertPlacesFor), unless the
 * member said to go beyond. A place without a limit never refuses.
 */
export async function assertPlaceLeft(db: DbOrTx, partnerId: string, key: PlaceKey, override: boolean): Promise<void> {
  if (override) return;
  const { left } = await placeStanding(db, partnerId, key);
  if (left !== null && left < 1) {
    throw new AppError(
      'ABORTED',
      D.no_places_left,
      { places: [{ ...key, left, releasing: 1 }] },
      { reason: 'no_places_left' },
    );
  }
}

/* ---------------------------------------------------------------- the waiting list */

/** The released waitlisted decisions of one place, in the list's order: rank, then score, then first in. */
function waitlistOf(db: DbOrTx, partnerId: string, cycleId: string, place: WaitingListQuery) {
  return db
    .select({
      decision_id: decisions.id,
      submission_id: submissions.id,
      reference: submissions.reference,
      applicant_name: submissions.applicant_name,
      rank: decisions.waitlist_rank,
      score_average: submissions.score_average,
      proposed_at: decisions.proposed_at,
    })
    .from(decisions)
    .innerJoin(submissions, eq(submissions.id, decisions.submission_id))
    .where(
      and(
        eq(decisions.partner_id, partnerId),
        eq(decisions.state, 'waitlisted'),
        isNotNull(decisions.released_at),
        eq(submissions.cycle_id, cycleId),
        eq(submissions.program_id, place.program_id),
        eq(submissions.campus_id, place.campus_id),
      ),
    )
    .orderBy(
      sql`${decisions.waitlist_rank} asc nulls last`,
      sql`${submissions.score_average} desc nulls last`,
      asc(submissions.created_at),
      asc(submissions.id),
    );
}

export async function listWaitlist(
  db: DbOrTx,
  partnerId: string,
  cycleId: string,
  place: WaitingListQuery,
): Promise<WaitingListEntry[]> {
  const rows = await waitlistOf(db, partnerId, cycleId, place);
  return rows.map(({ decision_id: _id, proposed_at, ...row }) => ({
    ...row,
    proposed_at: proposed_at === null ? null : new Date(proposed_at).toISOString(),
  }));
}

/**
 * Orders a place's waiting list: the body lists every applicant on it, first to be offered first. A list
 * that no longer matches (someone was added or offered meanwhile) is refused with 409, nothing changed.
 */
export async function orderWaitlist(
  db: Db,
  partnerId: string,
  cycleId: string,
  order: WaitingListOrder,
): Promise<WaitingListEntry[]> {
  await db.transaction(async (tx) => {
    const current = await waitlistOf(tx, partnerId, cycleId, order).for('update', { of: decisions });
    const ids = new Set(current.map((row) => row.submission_id));
    const given = new Set(order.submission_ids);
    if (
      given.size !== order.submission_ids.length ||
      given.size !== ids.size ||
      [...given].some((id) => !ids.has(id))
    ) {
      throw new AppError('ABORTED', D.waitlist_changed);
    }
    const decisionOf = new Map(current.map((row) => [row.submission_id, row.decision_id]));
    for (const [index, submissionId] of order.submission_ids.entries()) {
      await tx
        .update(decisions)
        .set({ waitlist_rank: index + 1 })
        .where(eq(decisions.id, decisionOf.get(submissionId)!));
    }
  });
  return listWaitlist(db, partnerId, cycleId, order);
}

/**
 * A place opened (an offer declined, lapsed or ended, or deferred to a later cycle): the next applicant on
 * that place's waiting list not proposed yet is proposed to staff, who then offer it (the waitlist offer
 * and its email). The place is the one the freed offer held (its deferred cycle's, if it was deferred),
 * or the cycle given (the one a deferral left). Nothing is proposed when the place has a limit that is
 * still reached (more offers were made than places). Answers the submission proposed, if any.
 */
export async function proposeNextOnWaitlist(
  tx: Tx,
  freedSubmissionId: string,
  now: Date,
  freedCycleId?: string,
): Promise<string | null> {
  const [freed] = await tx
    .select({
      partner_id: submissions.partner_id,
      cycle_id: heldCycle,
      program_id: submissions.program_id,
      campus_id: submissions.campus_id,
    })
    .from(submissions)
    .leftJoin(decisions, eq(decisions.submission_id, submissions.id))
    .where(eq(submissions.id, freedSubmissionId));
  const cycleId = freedCycleId ?? freed?.cycle_id;
  if (!freed || !cycleId || !freed.program_id || !freed.campus_id) return null;
  const place = { program_id: freed.program_id, campus_id: freed.campus_id };
  const standing = await placeStanding(tx, freed.partner_id, { cycle_id: cycleId, ...place });
  if (standing.left !== null && standing.left <= 0) return null;
  const next = (await waitlistOf(tx, freed.partner_id, cycleId, place)).find((row) => row.proposed_at === null);
  if (!next) return null;
  const [proposed] = await tx
    .update(decisions)
    .set({ proposed_at: now.toISOString() })
    .where(and(eq(decisions.id, next.decision_id), isNull(decisions.proposed_at), eq(decisions.state, 'waitlisted')))
    .returning({ id: decisions.id });
  if (!proposed) return null;
  await recordEvent(tx, {
    submissionId: next.submission_id,
    partnerId: freed.partner_id,
    actor: { kind: 'system' },
    action: 'waitlist_proposed',
  });
  await tellDecisionMakers(tx, freed.partner_id, {
    type: 'waitlist_proposed',
    submissionId: next.submission_id,
    data: { reference: next.reference },
  });
  return next.submission_id;
}
