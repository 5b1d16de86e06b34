import type { FastifyBaseLogger } from 'fastify';
import { databaseUnavailable, driverReason } from './db-errors.ts';

export interface PassFailures {
  /** A pass failed: logged, except a database outage already logged. */
  failed(error: unknown): void;
  /** A pass succeeded: ends the outage logged, if any. */
  succeeded(): void;
}

/**
 * The failures of a job that runs every few seconds: while the database is unavailable every pass
 * fails alike, so the outage is logged once when it begins and once when the job runs again, not at
 * every tick. Any other failure is logged each time, with its stack.
 */
export function passFailures(log: FastifyBaseLogger, failed: string): PassFailures {
  let outage = false;
  return {
    failed(error) {
      if (!databaseUnavailable(error)) {
        log.error({ err: error }, failed);
        return;
      }
      if (outage) return;
      outage = true;
      log.warn(
        { reason: driverReason(error) },
        `${failed}: database unavailable, retrying at each run until it returns`,
      );
    },
    succeeded() {
      if (!outage) return;
      outage = false;
      log.info(`${failed} while the database was unavailable: running again`);
    },
  };
}

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
  const failures = passFailures(log, failed);

  function runNow(): Promise<number> {
    const next = chain.then(() => (stopped ? 0 : pass()));
    chain = next.catch(() => undefined);
    return next;
  }

  function tick(): void {
    runNow()
      .then((count) => {
        failures.succeeded();
        if (count > 0) log.info({ count }, done);
      })
      .catch((error: unknown) => failures.failed(error));
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
