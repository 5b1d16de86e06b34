import { eq, sql } from 'drizzle-orm';
import {
  type ConditionView,
  type Deferral,
  type ReviewDecision,
  type ReviewDeferral,
  type StaffRef,
  type StudentDecision,
} from '@kaminuza/shared';
import { decisions, staff } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { offerConditionViews } from '../eligibility/index.ts';
import { reviewDeferralOf } from './deferral-shapes.ts';

export type DecisionRow = typeof decisions.$inferSelect;

/** Timestamps leave as ISO strings, however the driver read them. */
const iso = (value: string) => new Date(value).toISOString();
const isoOrNull = (value: string | null) => (value === null ? null : iso(value));

/* ------------------------------------------------------------------ shapes */

/** The message and an offer's terms, as both staff and the applicant read them (ADR 051). */
function offerTerms(row: DecisionRow, conditionViews: (ConditionView | null)[]) {
  return {
    message: row.message,
    conditions: row.conditions,
    condition_views: conditionViews,
    conditions_status: row.conditions_status,
    conditions_decided_at: isoOrNull(row.conditions_decided_at),
    reply_by: isoOrNull(row.reply_by),
    reply_by_on: row.reply_by_on,
    lapsed_at: isoOrNull(row.lapsed_at),
  };
}

/** The views of a decision's examination conditions against the applicant's results now. */
export function conditionViewsOf(db: DbOrTx, row: DecisionRow): Promise<(ConditionView | null)[]> {
  return offerConditionViews(db, row.student_id, row.conditions);
}

/** A decision as staff see it (ReviewDecision of the review contract). */
export function toReviewDecision(
  row: DecisionRow,
  decidedBy: StaffRef | null,
  conditionViews: (ConditionView | null)[],
  deferral: ReviewDeferral | null,
): ReviewDecision {
  return {
    id: row.id,
    state: row.state,
    automatic: row.automatic,
    decided_by: decidedBy,
    release_at: isoOrNull(row.release_at),
    released_at: isoOrNull(row.released_at),
    response: row.response,
    response_date: isoOrNull(row.response_date),
    verification_code: row.verification_code,
    ...offerTerms(row, conditionViews),
    waitlist_rank: row.waitlist_rank,
    proposed_at: isoOrNull(row.proposed_at),
    deferral,
    updated_at: iso(row.updated_at),
  };
}

/** What a student sees: never the notes, the scores, the automatic flag or who decided. */
export function toStudentDecision(
  row: DecisionRow,
  conditionViews: (ConditionView | null)[],
  deferral: Deferral | null,
): StudentDecision {
  return {
    id: row.id,
    application_id: row.submission_id,
    partner_id: row.partner_id,
    program_name: row.program_name,
    university_name: row.university_name,
    state: row.state,
    released_at: iso(row.released_at!),
    response: row.response,
    response_date: isoOrNull(row.response_date),
    has_letter: row.letter !== null,
    ...offerTerms(row, conditionViews),
    deferral,
  };
}

const staffName = sql<string>`btrim(${staff.first_name} || ' ' || ${staff.last_name})`;

/** The submission's decision as staff see it, or null when none is drafted. */
export async function reviewDecisionOf(db: DbOrTx, submissionId: string): Promise<ReviewDecision | null> {
  const [row] = await db
    .select({ decision: decisions, staff_id: staff.id, staff_name: staffName })
    .from(decisions)
    .leftJoin(staff, eq(staff.id, decisions.decided_by))
    .where(eq(decisions.submission_id, submissionId))
    .limit(1);
  if (!row) return null;
  return toReviewDecision(
    row.decision,
    row.staff_id ? { id: row.staff_id, name: row.staff_name } : null,
    await conditionViewsOf(db, row.decision),
    await reviewDeferralOf(db, row.decision.id),
  );
}
