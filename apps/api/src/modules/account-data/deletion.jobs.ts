import type { Db } from '../../db/client.ts';
import { scheduledPass, type JobDefinition } from '../../lib/jobs/queue.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { runDueDeletions } from './deletion.service.ts';

/**
 * Runs account deletions whose grace period is over, with their stored files: every quarter hour. A
 * failure (storage unreachable) rolls the deletion back and the job retries it.
 */
export function accountDeletionJobs({ db, storage }: { db: Db; storage: Storage }): JobDefinition[] {
  return [
    scheduledPass({
      name: 'accounts.delete-due',
      schedule: '*/15 * * * *',
      pass: () => runDueDeletions(db, storage, new Date()),
      done: 'deleted accounts whose grace period ended',
    }),
  ];
}
