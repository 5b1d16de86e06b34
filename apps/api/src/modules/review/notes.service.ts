import { and, eq, sql } from 'drizzle-orm';
import {
  REVIEW_MESSAGES as R,
  weightedScore,
  type NoteCreate,
  type ReviewApplication,
  type ReviewNote,
  type ReviewUpdate,
  type ScoreInput,
  type ScoreResult,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { reviewNotes, reviewScores, staff, submissions } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { markUnderReview, recordEvent, submissionOfPartner } from '../submissions/index.ts';
import type { ReviewQueryContext } from './review-context.ts';
import { reviewDecisionOf } from '../decisions/index.ts';
import { applyThresholds } from './thresholds.ts';
import {
  assertReviewer,
  assertStage,
  reviewApplication,
  staffActor,
  staffName,
  toNote,
  toScore,
} from './review.service.ts';

/** A reviewer's changes to one application: stage and assignee, notes, scores. */
/* ---------------------------------------------------------------- changes */

/** Moves the application to a custom stage (or none) and/or (un)assigns a reviewer; each change is one history line. */
export async function updateReview(
  db: Db,
  context: ReviewQueryContext,
  submissionId: string,
  update: ReviewUpdate,
): Promise<ReviewApplication> {
  if (update.stage_id !== undefined) assertStage(context, update.stage_id);
  await db.transaction(async (tx) => {
    const current = await submissionOfPartner(tx, context.partnerId, submissionId, { lock: true });
    if (update.assigned_to) await assertReviewer(tx, context.partnerId, update.assigned_to);
    const event = { submissionId, partnerId: context.partnerId, actor: staffActor(context) };
    const changes: Partial<typeof submissions.$inferInsert> = {};
    if (update.stage_id !== undefined && update.stage_id !== current.stage_id) {
      changes.stage_id = update.stage_id;
      await recordEvent(tx, {
        ...event,
        action: 'stage_changed',
        details: { from: current.stage_id, to: update.stage_id },
      });
    }
    if (update.assigned_to !== undefined && update.assigned_to !== current.assigned_to) {
      changes.assigned_to = update.assigned_to;
      await recordEvent(tx, {
        ...event,
        action: 'assigned',
        details: { from: current.assigned_to, to: update.assigned_to },
      });
    }
    if (Object.keys(changes).length > 0) {
      await tx
        .update(submissions)
        .set({ ...changes, updated_at: new Date().toISOString() })
        .where(eq(submissions.id, submissionId));
      await markUnderReview(tx, submissionId);
    }
  });
  // Read once committed, through the pool: its six reads run side by side, which one transaction's
  // single connection would only queue.
  return reviewApplication(db, context, submissionId);
}

export async function addNote(
  db: Db,
  context: ReviewQueryContext,
  submissionId: string,
  input: NoteCreate,
): Promise<ReviewNote> {
  return db.transaction(async (tx) => {
    await submissionOfPartner(tx, context.partnerId, submissionId, { lock: true });
    const [note] = await tx
      .insert(reviewNotes)
      .values({
        submission_id: submissionId,
        partner_id: context.partnerId,
        author_id: context.staffId,
        body: input.body,
      })
      .returning();
    if (!note) throw new Error('note insert returned no row');
    await markUnderReview(tx, submissionId);
    await recordEvent(tx, {
      submissionId,
      partnerId: context.partnerId,
      actor: staffActor(context),
      action: 'note_added',
      details: { note_id: note.id },
    });
    const [author] = await tx.select({ name: staffName }).from(staff).where(eq(staff.id, context.staffId));
    return toNote({ ...note, author_name: author?.name ?? null }, context.staffId);
  });
}

/** Deletes one of the caller's own notes; another member's note answers 403, an unknown one 404. */
export async function deleteNote(db: Db, context: ReviewQueryContext, submissionId: string, noteId: string) {
  await db.transaction(async (tx) => {
    await submissionOfPartner(tx, context.partnerId, submissionId, { lock: true });
    const [note] = await tx
      .select({ id: reviewNotes.id, author_id: reviewNotes.author_id })
      .from(reviewNotes)
      .where(and(eq(reviewNotes.id, noteId), eq(reviewNotes.submission_id, submissionId)))
      .limit(1);
    if (!note) throw new AppError('NOT_FOUND');
    if (note.author_id !== context.staffId) throw new AppError('PERMISSION_DENIED', R.note_not_yours);
    await tx.delete(reviewNotes).where(eq(reviewNotes.id, noteId));
    await markUnderReview(tx, submissionId);
    await recordEvent(tx, {
      submissionId,
      partnerId: context.partnerId,
      actor: staffActor(context),
      action: 'note_deleted',
      details: { note_id: noteId },
    });
  });
}

/**
 * Saves the caller's score (one per reviewer, replaced when rescored) against the institution's rubric,
 * then, in the same transaction, the submission's average and count and the thresholds' decision.
 */
export async function saveScore(
  db: Db,
  context: ReviewQueryContext,
  submissionId: string,
  input: ScoreInput,
): Promise<ScoreResult> {
  const { rubric } = context.settings.admissions;
  const given = Object.keys(input.criteria);
  if (given.length !== rubric.length || !rubric.every((criterion) => criterion.id in input.criteria)) {
    throw new AppError('INVALID_ARGUMENT', R.criteria_mismatch);
  }
  const total = weightedScore(rubric, input.criteria);
  return db.transaction(async (tx) => {
    const submission = await submissionOfPartner(tx, context.partnerId, submissionId, { lock: true });
    const now = new Date().toISOString();
    const [score] = await tx
      .insert(reviewScores)
      .values({
        submission_id: submissionId,
        partner_id: context.partnerId,
        reviewer_id: context.staffId,
        criteria: input.criteria,
        total,
        comment: input.comment || null,
      })
      .onConflictDoUpdate({
        target: [reviewScores.submission_id, reviewScores.reviewer_id],
        set: { criteria: input.criteria, total, comment: input.comment || null, updated_at: now },
      })
      .returning();
    if (!score) throw new Error('score upsert returned no row');
    const [summary] = await tx
      .update(submissions)
      .set({
        score_average: sql`(select round(avg(${reviewScores.total}), 2) from ${reviewScores} where ${reviewScores.submission_id} = ${submissionId})`,
        score_count: sql`(select count(*) from ${reviewScores} where ${reviewScores.submission_id} = ${submissionId})::int`,
        updated_at: now,
      })
      .where(eq(submissions.id, submissionId))
      .returning({ score_average: submissions.score_average, score_count: submissions.score_count });
    await markUnderReview(tx, submissionId);
    const average = summary?.score_average ?? total;
    await recordEvent(tx, {
      submissionId,
      partnerId: context.partnerId,
      actor: staffActor(context),
      action: 'score_saved',
      details: { total, average },
    });
    await applyThresholds(tx, submission, context.settings.admissions, average);
    const [reviewer] = await tx.select({ name: staffName }).from(staff).where(eq(staff.id, context.staffId));
    return {
      score: toScore({ ...score, reviewer_name: reviewer?.name ?? '' }),
      score_average: average,
      score_count: summary?.score_count ?? 1,
      decision: await reviewDecisionOf(tx, submissionId),
    };
  });
}
