import type { Db } from '../../db/client.ts';
import { defineJob, jobIdFor, scheduledPass, type JobDefinition, type JobSender } from '../../lib/jobs/queue.ts';
import { releaseDueDecisions } from './staff-decisions.service.ts';
import { lapseDueOffers, remindOpenOffers } from './offer-deadlines.ts';

export { lapseDueOffers, releaseDueDecisions, remindOpenOffers };

/** A release set for a moment: the same pass, started at that moment rather than at the next clock tick. */
export const RELEASE_AT_JOB = 'decisions.release-at';

/**
 * Asks for a release pass at `moment` (decisions scheduled for a set time): one job per moment, however
 * many institutions or requests chose it. The minute's pass would release them too, up to a minute late;
 * this one starts when the moment comes.
 */
export async function sendReleaseAt(jobs: JobSender, moment: Date): Promise<void> {
  await jobs.send(RELEASE_AT_JOB, {}, { id: jobIdFor(RELEASE_AT_JOB, moment.toISOString()), startAfter: moment });
}

/**
 * Releases scheduled decisions when their day begins, every minute, once across the instances (the row
 * locks of releaseDueDecisions also keep a decision from going out twice); lapses offers past their reply
 * deadline and reminds applicants before it (offer-deadlines.ts), the same way.
 */
export function decisionJobs({ db, publicUrl }: { db: Db; publicUrl: string }): JobDefinition[] {
  return [
    scheduledPass({
      name: 'decisions.release-due',
      schedule: '* * * * *',
      pass: () => releaseDueDecisions(db, new Date(), publicUrl),
      done: 'released scheduled decisions',
    }),
    defineJob<Record<string, never>>({
      name: RELEASE_AT_JOB,
      retry: { retryLimit: 5, retryDelaySeconds: 5, retryDelayMaxSeconds: 60, expireInSeconds: 15 * 60 },
      async handle(_data, { log }) {
        const count = await releaseDueDecisions(db, new Date(), publicUrl);
        if (count > 0) log.info({ count }, 'released decisions set for this moment');
      },
    }),
    // An offer lapses within a minute of its deadline (an answer after it is refused at once anyway).
    scheduledPass({
      name: 'decisions.lapse-offers',
      schedule: '* * * * *',
      pass: () => lapseDueOffers(db, new Date(), publicUrl),
      done: 'lapsed unanswered offers',
    }),
    scheduledPass({
      name: 'decisions.offer-reminders',
      schedule: '*/15 * * * *',
      pass: () => remindOpenOffers(db, new Date(), publicUrl),
      done: 'reminded applicants of open offers',
    }),
  ];
}
