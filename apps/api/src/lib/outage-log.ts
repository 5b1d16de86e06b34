import type { FastifyBaseLogger } from 'fastify';
import { databaseUnavailable, driverReason } from './db-errors.ts';

export interface PassFailures {
  /** A pass failed: logged, except a database outage already logged. */
  failed(error: unknown): void;
  /** A pass succeeded: ends the outage logged, if any. */
  succeeded(): void;
}

/**
 * The failures of work repeated every few seconds (the job queue polling for jobs): while the database
 * is unavailable every pass fails alike, so the outage is logged once when it begins and once when the
 * work runs again, not at every tick. Any other failure is logged each time, with its stack.
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
