import type { Db } from '../../db/client.ts';
import { scheduledPass, type JobDefinition } from '../../lib/jobs/queue.ts';
import { releaseDueDecisions } from './staff-decisions.service.ts';

export { releaseDueDecisions };

/**
 * Releases scheduled decisions when their day begins: every minute, once across the instances (the
 * row locks of releaseDueDecisions also keep a decision from going out twice).
 */
export function decisionJobs({ db, publicUrl }: { db: Db; publicUrl: string }): JobDefinition[] {
  return [
    scheduledPass({
      name: 'decisions.release-due',
      schedule: '* * * * *',
      pass: () => releaseDueDecisions(db, new Date(), publicUrl),
      done: 'released scheduled decisions',
    }),
  ];
}
