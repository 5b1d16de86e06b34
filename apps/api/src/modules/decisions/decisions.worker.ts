import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { startIntervalJob, type IntervalJob } from '../../lib/interval-job.ts';
import { releaseDueDecisions } from './staff-decisions.service.ts';

export { releaseDueDecisions };

/**
 * Releases scheduled decisions when their day begins: once at start (a decision that fell due while no
 * api ran goes out now), then every `intervalMs`. Several api instances share the work through the row
 * locks of releaseDueDecisions.
 */
export function startDecisionReleaseWorker({
  db,
  publicUrl,
  log,
  intervalMs = 30_000,
}: {
  db: Db;
  publicUrl: string;
  log: FastifyBaseLogger;
  intervalMs?: number;
}): IntervalJob {
  return startIntervalJob({
    pass: () => releaseDueDecisions(db, new Date(), publicUrl),
    intervalMs,
    log,
    done: 'released scheduled decisions',
    failed: 'releasing scheduled decisions failed',
    runAtStart: true,
  });
}
