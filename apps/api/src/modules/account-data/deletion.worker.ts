import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startIntervalJob, type IntervalJob } from '../../lib/interval-job.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { runDueDeletions } from './deletion.service.ts';

/**
 * Runs account deletions whose grace period is over: once at start, then every `intervalMs`. Several api
 * instances share the work through the row locks of runDueDeletions.
 */
export function startAccountDeletionWorker({
  db,
  storage,
  log,
  intervalMs = 15 * 60_000,
}: {
  db: Db;
  storage: Storage;
  log: FastifyBaseLogger;
  intervalMs?: number;
}): IntervalJob {
  return startIntervalJob({
    pass: () => runDueDeletions(db, storage, new Date()),
    intervalMs,
    log,
    done: 'deleted accounts whose grace period ended',
    failed: 'deleting accounts failed',
    runAtStart: true,
  });
}
