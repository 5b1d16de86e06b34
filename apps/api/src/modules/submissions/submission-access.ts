import { and, eq, sql } from 'drizzle-orm';
import { holdsPermission, type PartnerAdmissionsSettings, type ReviewEventAction } from '@kaminuza/shared';
import type { DbOrTx } from '../../db/client.ts';
import { reviewEvents, submissions } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { StaffCaller } from '../partners/index.ts';

/** Who may open the review: readers of applications and decision makers ('all' holds both). */
export const REVIEW_PERMISSIONS = ['review_applications', 'make_decisions'] as const;

/** What the caller sees and may do in the review: blind reviewers never see names or photos. */
export function reviewAccess(caller: StaffCaller, admissions: Pick<PartnerAdmissionsSettings, 'blind_review'>) {
  const canDecide = holdsPermission(caller.permissions, 'make_decisions');
  return { canDecide, blind: admissions.blind_review && !canDecide };
}

/**
 * The submission, if it belongs to the institution; another institution's (or an unknown) id answers 404.
 * `lock` takes the row for update, so changes to one submission run one after the other.
 */
export async function submissionOfPartner(
  db: DbOrTx,
  partnerId: string,
  submissionId: string,
  { lock = false }: { lock?: boolean } = {},
) {
  const query = db
    .select()
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), eq(submissions.partner_id, partnerId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/**
 * The first review action (a note, a score, a stage, an assignment, a drafted decision) takes a submission
 * from 'submitted' to 'under_review'; later ones change nothing. Runs in the caller's transaction.
 */
export async function markUnderReview(db: DbOrTx, submissionId: string): Promise<void> {
  await db
    .update(submissions)
    .set({ status: 'under_review' })
    .where(and(eq(submissions.id, submissionId), eq(submissions.status, 'submitted')));
}

export type ReviewActor = { kind: 'staff'; staffId: string } | { kind: 'applicant' } | { kind: 'system' };

/** Writes one line of a submission's history (in the caller's transaction, with the change it records). */
export async function recordEvent(
  db: DbOrTx,
  input: {
    submissionId: string;
    partnerId: string;
    actor: ReviewActor;
    action: ReviewEventAction;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(reviewEvents).values({
    submission_id: input.submissionId,
    partner_id: input.partnerId,
    actor_kind: input.actor.kind,
    actor_staff_id: input.actor.kind === 'staff' ? input.actor.staffId : null,
    action: input.action,
    details: input.details ?? {},
    // The clock, not the transaction's start: two changes made in one transaction keep their order.
    created_at: sql`clock_timestamp()`,
  });
}
