import { eq } from 'drizzle-orm';
import type { DecisionState, PartnerAdmissionsSettings } from '@kaminuza/shared';
import { decisions, partners, programs } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { recordEvent } from '../submissions/index.ts';

type DecisionRow = typeof decisions.$inferSelect;

type Thresholds = Pick<
  PartnerAdmissionsSettings,
  'auto_accept_enabled' | 'auto_accept_threshold' | 'auto_reject_enabled' | 'auto_reject_threshold'
> &
  Partial<Pick<PartnerAdmissionsSettings, 'auto_decision_basis'>>;

/** The decision the thresholds ask for at this average, or null when it lies between them (or they are off). */
export function thresholdDecision(settings: Thresholds, average: number | null): DecisionState | null {
  if (average === null) return null;
  if (settings.auto_accept_enabled && average >= settings.auto_accept_threshold) return 'accepted';
  if (settings.auto_reject_enabled && average <= settings.auto_reject_threshold) return 'rejected';
  return null;
}

export interface ThresholdSubmission {
  id: string;
  partner_id: string;
  student_id: string | null;
  program_id: string | null;
}

/**
 * Applies the institution's thresholds (ADR 016) after a score changed the average, in the caller's
 * transaction with the submission row locked: an average at or above the accept threshold drafts an
 * automatic acceptance, at or below the reject threshold an automatic rejection, and one in between
 * withdraws an earlier automatic draft. A member's own draft and a released decision are never touched:
 * people decide over thresholds, and a release is final. Answers the decision row as it now stands.
 */
export async function applyThresholds(
  tx: DbOrTx,
  submission: ThresholdSubmission,
  settings: Thresholds,
  average: number | null,
): Promise<DecisionRow | null> {
  // An institution deciding on entry requirements (issue 25) leaves scores to people.
  if ((settings.auto_decision_basis ?? 'review_score') !== 'review_score') {
    const [current] = await tx.select().from(decisions).where(eq(decisions.submission_id, submission.id)).limit(1);
    return current ?? null;
  }
  return applyAutomaticDecision(tx, submission, thresholdDecision(settings, average), { average });
}

/**
 * Drafts, changes or withdraws the automatic decision of a submission to `wanted` (null: none), in the
 * caller's transaction. A member's own draft and a released decision are never touched. `details` says
 * what the decision was taken on, in the submission's history.
 */
export async function applyAutomaticDecision(
  tx: DbOrTx,
  submission: ThresholdSubmission,
  wanted: DecisionState | null,
  details: Record<string, unknown>,
): Promise<DecisionRow | null> {
  const [current] = await tx
    .select()
    .from(decisions)
    .where(eq(decisions.submission_id, submission.id))
    .limit(1)
    .for('update');
  if (current && (current.released_at !== null || !current.automatic)) return current;

  const system = { kind: 'system' } as const;
  const event = { submissionId: submission.id, partnerId: submission.partner_id, actor: system };

  if (wanted === null) {
    if (!current) return null;
    await tx.delete(decisions).where(eq(decisions.id, current.id));
    await recordEvent(tx, {
      ...event,
      action: 'decision_withdrawn',
      details: { state: current.state, automatic: true, ...details },
    });
    return null;
  }
  if (current?.state === wanted) return current;

  let row: DecisionRow | undefined;
  if (current) {
    [row] = await tx
      .update(decisions)
      .set({ state: wanted, release_at: null, updated_at: new Date().toISOString() })
      .where(eq(decisions.id, current.id))
      .returning();
  } else {
    const [partner] = await tx
      .select({ name: partners.name })
      .from(partners)
      .where(eq(partners.id, submission.partner_id))
      .limit(1);
    const [program] = submission.program_id
      ? await tx.select({ name: programs.name }).from(programs).where(eq(programs.id, submission.program_id)).limit(1)
      : [];
    [row] = await tx
      .insert(decisions)
      .values({
        submission_id: submission.id,
        partner_id: submission.partner_id,
        student_id: submission.student_id,
        state: wanted,
        program_name: program?.name ?? '',
        university_name: partner?.name ?? '',
        automatic: true,
        decided_by: null,
      })
      .returning();
  }
  await recordEvent(tx, {
    ...event,
    action: 'decision_drafted',
    details: { state: wanted, automatic: true, ...details, ...(current ? { from: current.state } : {}) },
  });
  return row ?? null;
}
