import type { Db } from '../../db/client.ts';
import { defineJob, type JobDefinition } from '../../lib/jobs/queue.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { runDueDeletions } from './deletion.service.ts';

/**
 * Runs account deletions whose grace period is over, with their stored files: every quarter hour. A
 * failure (storage unreachable) rolls the deletion back and the job retries it.
 */
export function accountDeletionJobs({ db, storage }: { db: Db; storage: Storage }): JobDefinition[] {
  return [
    defineJob<Record<string, never>>({
      name: 'accounts.delete-due',
      schedule: '*/15 * * * *',
      retry: { retryLimit: 3, retryDelaySeconds: 60, retryDelayMaxSeconds: 600, expireInSeconds: 1800 },
      async handle(_data, { log }) {
        const count = await runDueDeletions(db, storage, new Date());
        if (count > 0) log.info({ count }, 'deleted accounts whose grace period ended');
      },
    }),
  ];
}
