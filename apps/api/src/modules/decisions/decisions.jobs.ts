import type { Db } from '../../db/client.ts';
import { scheduledPass, type JobDefinition } from '../../lib/jobs/queue.ts';
import { releaseDueDecisions } from './staff-decisions.service.ts';
import { lapseDueOffers, remindOpenOffers } from './offer-deadlines.ts';

export { lapseDueOffers, releaseDueDecisions, remindOpenOffers };

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
