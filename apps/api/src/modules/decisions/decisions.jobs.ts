import type { Db } from '../../db/client.ts';
import { defineJob, type JobDefinition } from '../../lib/jobs/queue.ts';
import { releaseDueDecisions } from './staff-decisions.service.ts';

export { releaseDueDecisions };

/**
 * Releases scheduled decisions when their day begins: every minute, once across the instances (the
 * row locks of releaseDueDecisions also keep a decision from going out twice).
 */
export function decisionJobs({ db, publicUrl }: { db: Db; publicUrl: string }): JobDefinition[] {
  return [
    defineJob<Record<string, never>>({
      name: 'decisions.release-due',
      schedule: '* * * * *',
      retry: { retryLimit: 2, retryDelaySeconds: 10, retryDelayMaxSeconds: 60, expireInSeconds: 300 },
      async handle(_data, { log }) {
        const count = await releaseDueDecisions(db, new Date(), publicUrl);
        if (count > 0) log.info({ count }, 'released scheduled decisions');
      },
    }),
  ];
}
