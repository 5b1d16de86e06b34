import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { defineJob, type JobDefinition, type JobSender } from './queue.ts';

/**
 * Jobs for records written inside a business transaction (an email in the outbox, a notification to
 * push). The record is the durable request: it commits with the event or not at all. Its job is created
 * after the commit, with the record's id as the job's id, so it is created once however often it is
 * relayed:
 * - right away: a trigger on the record's table sends NOTIFY on `job_relay` (delivered at commit,
 *   migration 0015), and every instance listening relays what is pending;
 * - and by the sweep, a scheduled job, for whatever a crash between the commit and the relay left.
 * The job is not created inside the transaction itself because on embedded PGlite (one connection) the
 * queue's statement would wait for the transaction that waits for it.
 */
export interface Relay {
  /** Named in the NOTIFY payload. */
  name: string;
  /**
   * Creates the jobs of up to `limit` pending records, then marks them relayed; answers how many it
   * found. Runs outside any transaction; two instances relaying at once create each job once (same id).
   */
  run(queue: JobSender, limit: number): Promise<number>;
}

/**
 * The relay of a table's records: `pending` finds up to `limit` records without a job (oldest first),
 * each gets the job `job` with the record's id as its id and `{ id }` as its data, then `markQueued`
 * marks them relayed.
 */
export function recordRelay({
  name,
  job,
  pending,
  markQueued,
}: {
  name: string;
  job: string;
  pending(limit: number): Promise<string[]>;
  markQueued(ids: string[]): Promise<void>;
}): Relay {
  return {
    name,
    async run(queue, limit) {
      const ids = await pending(limit);
      if (ids.length === 0) return 0;
      await queue.sendMany(
        job,
        ids.map((id) => ({ id, data: { id } })),
      );
      await markQueued(ids);
      return ids.length;
    },
  };
}

export const RELAY_CHANNEL = 'job_relay';
const RELAY_BATCH = 200;

async function runUntilDone(relay: Relay, queue: JobSender): Promise<number> {
  let total = 0;
  for (;;) {
    const found = await relay.run(queue, RELAY_BATCH);
    total += found;
    if (found < RELAY_BATCH) return total;
  }
}

/** The sweep: every minute, relays what is still pending. */
export function relaySweepJob(relays: readonly Relay[]): JobDefinition {
  return defineJob<Record<string, never>>({
    name: 'jobs.relay-sweep',
    schedule: '* * * * *',
    retry: { retryLimit: 0, retryDelaySeconds: 30, retryDelayMaxSeconds: 30, expireInSeconds: 300 },
    async handle(_data, { queue, log }) {
      for (const relay of relays) {
        const count = await runUntilDone(relay, queue);
        if (count > 0) log.info({ relay: relay.name, count }, 'relayed records a crash had left without a job');
      }
    },
  });
}

/**
 * Relays on every NOTIFY. Passes of one relay never overlap in this process: a request arriving during
 * a pass runs one more pass after it.
 */
export async function listenForRelays({
  database,
  queue,
  relays,
  log,
}: {
  database: Pick<Database, 'listen'>;
  queue: JobSender;
  relays: readonly Relay[];
  log: FastifyBaseLogger;
}): Promise<() => Promise<void>> {
  const byName = new Map(relays.map((relay) => [relay.name, relay]));
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  let stopped = false;

  function trigger(name: string): void {
    const relay = byName.get(name);
    if (!relay || stopped) return;
    if (running.has(name)) {
      again.add(name);
      return;
    }
    const pass = runUntilDone(relay, queue)
      .then(() => undefined)
      .catch((error: unknown) => log.warn({ relay: name, err: error }, 'relay failed: the sweep will retry'))
      .finally(() => {
        running.delete(name);
        if (again.delete(name)) trigger(name);
      });
    running.set(name, pass);
  }

  const unlisten = await database.listen(RELAY_CHANNEL, trigger, () => {
    // Listening again after a lost connection: what was notified meanwhile is relayed now.
    for (const name of byName.keys()) trigger(name);
  });
  // What was written while no instance listened (before this start) goes out now, not at the sweep.
  for (const name of byName.keys()) trigger(name);
  return async () => {
    stopped = true;
    await unlisten();
    await Promise.all(running.values());
  };
}
