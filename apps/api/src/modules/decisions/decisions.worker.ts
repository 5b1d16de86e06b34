import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { releaseDueDecisions } from './decisions.service.ts';

export { releaseDueDecisions };

export interface DecisionReleaseWorker {
  /** Runs one pass now (tests). */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Releases scheduled decisions when their day begins: once at start (a decision that fell due while no
 * api ran goes out now), then every `intervalMs`. Passes never overlap; several api instances share the
 * work through the row locks of releaseDueDecisions.
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
}): DecisionReleaseWorker {
  let chain: Promise<unknown> = Promise.resolve();
  let stopped = false;

  function runNow(): Promise<number> {
    const next = chain.then(() => (stopped ? 0 : releaseDueDecisions(db, new Date(), publicUrl)));
    chain = next.catch(() => undefined);
    return next;
  }

  function pass(): void {
    runNow()
      .then((count) => {
        if (count > 0) log.info({ count }, 'released scheduled decisions');
      })
      .catch((error: unknown) => log.error({ err: error }, 'releasing scheduled decisions failed'));
  }

  pass();
  const timer = setInterval(pass, intervalMs);
  timer.unref();

  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await chain;
    },
  };
}
