import type { FastifyBaseLogger } from 'fastify';

export interface IntervalJob {
  /** Runs one pass now (tests); it waits for a pass under way. */
  runNow(): Promise<number>;
  /** Stops the timer and waits for the pass under way. */
  stop(): Promise<void>;
}

/**
 * A job of the api process run every `intervalMs` (and once at start with `runAtStart`). Passes never
 * overlap; a pass answers how many things it did, logged as `done` when there were any.
 */
export function startIntervalJob({
  pass,
  intervalMs,
  log,
  done,
  failed,
  runAtStart = false,
}: {
  pass: () => Promise<number>;
  intervalMs: number;
  log: FastifyBaseLogger;
  done: string;
  failed: string;
  runAtStart?: boolean;
}): IntervalJob {
  let chain: Promise<unknown> = Promise.resolve();
  let stopped = false;

  function runNow(): Promise<number> {
    const next = chain.then(() => (stopped ? 0 : pass()));
    chain = next.catch(() => undefined);
    return next;
  }

  function tick(): void {
    runNow()
      .then((count) => {
        if (count > 0) log.info({ count }, done);
      })
      .catch((error: unknown) => log.error({ err: error }, failed));
  }

  if (runAtStart) tick();
  const timer = setInterval(tick, intervalMs);
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
