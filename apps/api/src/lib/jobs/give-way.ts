import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/**
 * Background work that can wait gives way to requests (ADR 048). On deadline day the receipts of a burst
 * of submits are delivered by the same process that answers the submits; sending them during the burst
 * takes CPU from the applicants still waiting on "Submitting…", and nobody is waiting on a receipt that
 * arrives a few seconds later. So a job that can wait (`givesWay`) first waits while this process's event
 * loop is busy answering (utilization over the last quarter second above BUSY), but never past the
 * deadline its batch was given: under a sustained load every job still runs, seconds late, and the
 * queue never starves.
 */

/** Event-loop utilization above which the process counts as busy. */
export const BUSY = 0.8;
/** The window utilization is measured over, and how often a waiting job looks again. */
const WINDOW_MS = 250;
/** How long a batch of jobs that can wait may be held back at most. */
export const MAX_GIVE_WAY_MS = 5_000;

export interface LoadGauge {
  /** The event loop's utilization over the latest window (0–1). */
  utilization(): number;
  stop(): void;
}

/** The process's event loop, measured every WINDOW_MS by a timer that does not keep the process alive. */
export function eventLoopGauge(): LoadGauge {
  let mark: EventLoopUtilization = performance.eventLoopUtilization();
  let latest = 0;
  const timer = setInterval(() => {
    const current = performance.eventLoopUtilization();
    latest = performance.eventLoopUtilization(current, mark).utilization;
    mark = current;
  }, WINDOW_MS);
  timer.unref();
  return {
    utilization: () => latest,
    // Stopped (the queue is shutting down): nothing waits any more.
    stop: () => {
      clearInterval(timer);
      latest = 0;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits while the gauge reads busy, until `deadline` (ms since the epoch) at the latest; answers how long. */
export async function giveWay(gauge: LoadGauge, deadline: number): Promise<number> {
  const started = Date.now();
  while (gauge.utilization() > BUSY && Date.now() < deadline) await sleep(Math.min(WINDOW_MS, deadline - Date.now()));
  return Date.now() - started;
}
