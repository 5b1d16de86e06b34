import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { submissions } from '../../db/schema/index.ts';
import { defineJob, type JobDefinition } from '../../lib/jobs/queue.ts';
import { recordRelay, type Relay } from '../../lib/jobs/relay.ts';
import { eligibilityDecision } from '../eligibility/index.ts';
import { getSettings } from '../partner-settings/index.ts';
import { markAutoDecisionsQueued, pendingAutoDecisions } from '../submissions/index.ts';
import { applyAutomaticDecision } from './thresholds.ts';

/*
 * Automatic decisions on entry requirements (issue 25): an institution that decides on them has each new
 * submission's decision drafted by a job, after the submit committed (relayed once, lib/jobs/relay.ts),
 * the thresholds read on the points its results earn; never for a case that needs review.
 */

export const AUTO_DECISION_JOB = 'review.auto-decision';

export function autoDecisionRelay(db: Db): Relay {
  return recordRelay({
    name: 'auto-decision',
    job: AUTO_DECISION_JOB,
    pending: (limit) => pendingAutoDecisions(db, limit),
    markQueued: (ids) => markAutoDecisionsQueued(db, ids),
  });
}

/**
 * Drafts the submission's automatic decision as the institution's settings now say (they may have changed
 * since the submit: then nothing is drafted). Run again, it changes nothing.
 */
export async function decideOnEligibility(db: Db, submissionId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [submission] = await tx
      .select({
        id: submissions.id,
        partner_id: submissions.partner_id,
        student_id: submissions.student_id,
        program_id: submissions.program_id,
        eligibility_status: submissions.eligibility_status,
        eligibility_points: submissions.eligibility_points,
      })
      .from(submissions)
      .where(eq(submissions.id, submissionId))
      .for('update');
    if (!submission) return;
    const { admissions } = await getSettings(tx, submission.partner_id);
    const eligibility = submission.eligibility_status
      ? { status: submission.eligibility_status, points: submission.eligibility_points }
      : null;
    const wanted = eligibilityDecision(admissions, eligibility);
    if (wanted)
      await applyAutomaticDecision(tx, submission, wanted, {
        eligibility: eligibility?.status,
        points: eligibility?.points,
      });
  });
}

export function autoDecisionJobs({ db }: { db: Db }): JobDefinition[] {
  return [
    defineJob<{ id: string }>({
      name: AUTO_DECISION_JOB,
      retry: { retryLimit: 5, retryDelaySeconds: 10, retryDelayMaxSeconds: 600, expireInSeconds: 120 },
      concurrency: 2,
      givesWay: true,
      async handle({ id }) {
        await decideOnEligibility(db, id);
      },
    }),
  ];
}
