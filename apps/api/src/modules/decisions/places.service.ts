import { and, asc, eq, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { DECISION_MESSAGES as D, type PlacesInput, type PlacesRow, type PlacesStanding } from '@kaminuza/shared';
import type { DbOrTx } from '../../db/client.ts';
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

/*
 * Places (issue 26): how many a program offers in a cycle at a campus, and how many offers hold one. An
 * offer holds a place once released, until the applicant declines it, it lapses or its conditions are
 * found not met; a drafted offer is counted apart (it will hold one once released).
 */

/** A released offer that holds a place: accepted by the applicant, or not answered and still open. */
const holdsPlace: SQL = and(
  eq(decisions.state, 'accepted'),
  isNotNull(decisions.released_at),
  isNull(decisions.lapsed_at),
  or(isNull(decisions.conditions_status), ne(decisions.conditions_status, 'not_met')),
  or(isNull(decisions.response), eq(decisions.response, 'accepted')),
)!;

interface Key {
  cycle_id: string;
  program_id: string;
  campus_id: string;
}
const keyOf = ({ cycle_id, program_id, campus_id }: Key) => `${cycle_id}/${program_id}/${campus_id}`;

/** The offers of these (cycle, program, campus) places, counted: accepted, outstanding, drafted. */
async function offerCounts(db: DbOrTx, partnerId: string, where: SQL | undefined) {
  const rows = await db
    .select({
      cycle_id: submissions.cycle_id,
      program_id: submissions.program_id,
      campus_id: submissions.campus_id,
      accepted: sql<number>`count(*) filter (where ${holdsPlace} and ${decisions.response} = 'accepted')::int`,
      outstanding: sql<number>`count(*) filter (where ${holdsPlace} and ${decisions.response} is null)::int`,
      drafted: sql<number>`count(*) filter (where ${decisions.state} = 'accepted' and ${decisions.released_at} is null)::int`,
    })
    .from(decisions)
    .innerJoin(submissions, eq(submissions.id, decisions.submission_id))
    .where(and(eq(decisions.partner_id, partnerId), where))
    .groupBy(submissions.cycle_id, submissions.program_id, submissions.campus_id);
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
    offerCounts(db, partnerId, eq(submissions.cycle_id, cycleId)),
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

/** Where the place a submission applied for stands; null when it names no campus or cycle. */
export async function placesOfSubmission(db: DbOrTx, submissionId: string): Promise<PlacesStanding | null> {
  const [row] = await db
    .select({
      partner_id: submissions.partner_id,
      cycle_id: submissions.cycle_id,
      program_id: submissions.program_id,
      campus_id: submissions.campus_id,
      places: places.places,
    })
    .from(submissions)
    .leftJoin(
      places,
      and(
        eq(places.cycle_id, submissions.cycle_id),
        eq(places.program_id, submissions.program_id),
        eq(places.campus_id, submissions.campus_id),
      ),
    )
    .where(eq(submissions.id, submissionId));
  if (!row?.cycle_id || !row.program_id || !row.campus_id) return null;
  const key = { cycle_id: row.cycle_id, program_id: row.program_id, campus_id: row.campus_id };
  const counts = await offerCounts(
    db,
    row.partner_id,
    and(
      eq(submissions.cycle_id, key.cycle_id),
      eq(submissions.program_id, key.program_id),
      eq(submissions.campus_id, key.campus_id),
    ),
  );
  return standing(row.places, counts.get(keyOf(key)) ?? NONE);
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
      submissions.cycle_id,
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
  if (short.length > 0) throw new AppError('ABORTED', D.no_places_left, { places: short });
}
