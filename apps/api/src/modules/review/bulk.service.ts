import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type BulkReview } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { reviewEvents, submissions } from '../../db/schema/index.ts';
import type { ReviewQueryContext } from './review-context.ts';
import { assertReviewer, assertStage } from './review.service.ts';

/** Changes to many applications at once. */
/**
 * Moves many applications to a stage, or (un)assigns them, in one transaction: only the institution's
 * own submissions are touched (other ids are skipped), and each one changed gets its history line.
 */
export async function bulkReview(db: Db, context: ReviewQueryContext, input: BulkReview): Promise<{ updated: number }> {
  if (input.action === 'move_stage') assertStage(context, input.stage_id);
  const ids = [...new Set(input.submission_ids)];
  return db.transaction(async (tx) => {
    if (input.action === 'assign' && input.assigned_to) await assertReviewer(tx, context.partnerId, input.assigned_to);
    const column = input.action === 'move_stage' ? submissions.stage_id : submissions.assigned_to;
    const value = input.action === 'move_stage' ? input.stage_id : input.assigned_to;
    // Rows are locked in id order, so two bulk changes over overlapping selections never deadlock.
    const before = await tx
      .select({ id: submissions.id, value: column })
      .from(submissions)
      .where(and(eq(submissions.partner_id, context.partnerId), inArray(submissions.id, ids)))
      .orderBy(asc(submissions.id))
      .for('update');
    const changed = before.filter((row) => row.value !== value);
    if (changed.length === 0) return { updated: 0 };
    const changedIds = changed.map((row) => row.id);
    await tx
      .update(submissions)
      .set({
        [input.action === 'move_stage' ? 'stage_id' : 'assigned_to']: value,
        status: sql`case when ${submissions.status} = 'submitted' then 'under_review' else ${submissions.status} end`,
        updated_at: new Date().toISOString(),
      })
      .where(and(eq(submissions.partner_id, context.partnerId), inArray(submissions.id, changedIds)));
    await tx.insert(reviewEvents).values(
      changed.map((row) => ({
        submission_id: row.id,
        partner_id: context.partnerId,
        actor_kind: 'staff' as const,
        actor_staff_id: context.staffId,
        action: input.action === 'move_stage' ? ('stage_changed' as const) : ('assigned' as const),
        details: { from: row.value, to: value, bulk: true },
      })),
    );
    return { updated: changed.length };
  });
}
