import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { PgBoss, fromPglite, type Job } from 'pg-boss';
import type { DatabaseConnection } from '../../db/client.ts';
import { passFailures } from '../outage-log.ts';
import { eventLoopGauge, giveWay, MAX_GIVE_WAY_MS } from './give-way.ts';

/**
 * Background work on a PostgreSQL job queue (pg-boss, ADR 033). A job is a row in the queue's own
 * tables (schema `pgboss`, created and upgraded by pg-boss's own migrations at start): it survives a
 * restart, is claimed by one worker with SKIP LOCKED however many instances run, is retried with
 * exponential backoff when its handler throws, and is kept as `failed` (with its error) once its
 * retries are spent, for an admin to see and retry. On embedded PGlite the same library runs through
 * its PGlite adapter on the same database.
 */

/** Where the queue's tables live: the platform's own database, on a server or embedded. */
export type QueueBackend = DatabaseConnection;

/** The schema pg-boss keeps its tables in. */
export const QUEUE_SCHEMA = 'pgboss';

export interface RetryPolicy {
  /** Attempts after the first before the job is kept as failed. */
  retryLimit: number;
  /** Seconds before the first retry; doubled at each next one (backoff) up to retryDelayMaxSeconds. */
  retryDelaySeconds: number;
  retryDelayMaxSeconds: number;
  /** A job still running after this long is taken as lost (its process died) and retried. */
  expireInSeconds: number;
}

export interface JobContext {
  id: string;
  /** 0 at the first attempt. */
  retryCount: number;
  /** True when this attempt is the last one: a handler can record a final failure before throwing. */
  lastAttempt: boolean;
  log: FastifyBaseLogger;
  /** To create follow-up jobs (never from inside a database transaction: see relay.ts). */
  queue: JobSender;
}

export interface JobDefinition<T extends object = Record<string, unknown>> {
  /** Letters, digits, dots and hyphens: `email.send`. */
  name: string;
  retry: RetryPolicy;
  /**
   * A cron expression (UTC): the queue starts a job on that schedule, once across every instance.
   * Scheduled jobs carry no data.
   */
  schedule?: string;
  /** How many jobs of this queue one instance runs at once. */
  concurrency?: number;
  /**
   * Work nobody is waiting on at that moment (a receipt email, a push): while this instance is busy
   * answering requests, the job waits a few seconds at most before running (give-way.ts, ADR 048).
   */
  givesWay?: boolean;
  /** Does the work; throwing retries the job (later, with backoff) until its retries are spent. */
  handle(data: T, context: JobContext): Promise<void>;
}

/** Builds a definition with its data typed. */
export function defineJob<T extends object>(definition: JobDefinition<T>): JobDefinition {
  return definition as unknown as JobDefinition;
}

/**
 * A job id made from what the job is about (a name-based UUID, RFC 9562 version 8): the same parts give
 * the same id, so relaying the same work twice creates one job.
 */
export function jobIdFor(...parts: string[]): string {
  const bytes = createHash('sha256').update(parts.join('\u0000')).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Scheduled passes are retried a little, then left for their next run. */
const SCHEDULED_RETRY: RetryPolicy = {
  retryLimit: 2,
  retryDelaySeconds: 30,
  retryDelayMaxSeconds: 120,
  expireInSeconds: 15 * 60,
};

/**
 * A pass over the data run on a schedule (cron, UTC), once across the instances: `pass` answers how
 * many things it did, logged as `done` when there were any.
 */
export function scheduledPass({
  name,
  schedule,
  pass,
  done,
}: {
  name: string;
  schedule: string;
  pass: () => Promise<number>;
  done: string;
}): JobDefinition {
  return defineJob<Record<string, never>>({
    name,
    schedule,
    retry: SCHEDULED_RETRY,
    async handle(_data, { log }) {
      const count = await pass();
      if (count > 0) log.info({ count }, done);
    },
  });
}

export interface SendOptions {
  /**
   * The job's id. A job is created once per id: sending again while a job with that id is kept is a
   * no-op, which is how a record's job (an email's delivery) is never doubled.
   */
  id?: string;
  /** Not before this moment. */
  startAfter?: Date;
}

export interface FailedJob {
  id: string;
  queue: string;
  /** What it was about, from its data: the record's id or the payment's reference. */
  subject: string | null;
  error: string | null;
  attempts: number;
  created_at: string;
  failed_at: string;
}

export interface QueueCounts {
  queue: string;
  /** Waiting to run (now or later, retries included). */
  queued: number;
  active: number;
  failed: number;
}

export interface JobSender {
  send(name: string, data: object, options?: SendOptions): Promise<string | null>;
  /** Creates several jobs of one queue in one statement; ids already kept are skipped. */
  sendMany(name: string, jobs: readonly { id: string; data: object }[]): Promise<void>;
}

export interface JobQueue extends JobSender {
  /** Failed jobs, most recent first. */
  failed(options: { limit: number; offset: number }): Promise<{ jobs: FailedJob[]; total: number }>;
  /** Puts a failed job back in its queue; false when there is no such failed job. */
  retry(queue: string, id: string): Promise<boolean>;
  counts(): Promise<QueueCounts[]>;
  /** The queues this process knows (all of them in a running api). */
  readonly queues: readonly string[];
  /** Stops fetching, waits for the jobs under way (at most `timeoutMs`), closes the queue's connections. */
  stop(timeoutMs?: number): Promise<void>;
}

const ERROR_MAX_LENGTH = 1_000;
/** How often an idle worker looks for due jobs (retries) when no notification woke it. */
const POLLING_INTERVAL_SECONDS = 2;
/** The same for the queues of scheduled passes, whose retries nobody waits for. */
const SCHEDULED_POLLING_INTERVAL_SECONDS = 30;
/** Jobs one fetch takes at most. */
const FETCH_BATCH = 10;

function errorText(output: unknown): string | null {
  if (output === null || output === undefined) return null;
  if (typeof output === 'object' && 'message' in output && typeof output.message === 'string') {
    return output.message.slice(0, ERROR_MAX_LENGTH);
  }
  return JSON.stringify(output).slice(0, ERROR_MAX_LENGTH);
}

/**
 * pg-boss emits its polling failures as plain objects ({ message, code, queue, worker }), not Errors:
 * made Errors again, with their code, so a database outage is told apart (and logged once).
 */
export function queueError(value: unknown): unknown {
  if (value instanceof Error || !value || typeof value !== 'object') return value;
  const { message, code } = value as { message?: unknown; code?: unknown };
  const error = new Error(typeof message === 'string' ? message : 'job queue error');
  return typeof code === 'string' ? Object.assign(error, { code }) : error;
}

const SUBJECT_KEYS = ['reference', 'id', 'subscription_id'] as const;

function subjectOf(data: unknown): string | null {
  if (!data || typeof data !== 'object') return null;
  for (const key of SUBJECT_KEYS) {
    const value = (data as Record<string, unknown>)[key];
    if (typeof value === 'string') return value;
  }
  return null;
}

function newBoss(backend: QueueBackend, work: boolean): PgBoss {
  // An instance that only sends needs no listener, no maintenance and no cron clock of its own.
  const common = { schema: QUEUE_SCHEMA, useListenNotify: work, supervise: work, schedule: work };
  if (backend.kind === 'pglite') return new PgBoss({ ...common, db: fromPglite(backend.client), backend: 'pglite' });
  return new PgBoss({
    ...common,
    connectionString: backend.url,
    max: 4,
    application_name: 'kaminuza-jobs',
    connectionTimeoutMillis: 5_000,
  });
}

/**
 * Opens the queue: installs or upgrades its tables, creates the queues of `definitions` with their
 * retry policies and schedules, and with `work` runs their handlers in this process. Without `work` it
 * only sends (tests that run handlers themselves).
 */
export async function startJobQueue({
  backend,
  definitions,
  log,
  work = true,
  onFailure,
}: {
  backend: QueueBackend;
  definitions: readonly JobDefinition[];
  log: FastifyBaseLogger;
  work?: boolean;
  /** Told of every failed attempt (metrics); `final` when no retry is left. */
  onFailure?: (queue: string, final: boolean) => void;
}): Promise<JobQueue> {
  const names = new Set<string>();
  for (const definition of definitions) {
    if (names.has(definition.name)) throw new Error(`job defined twice: ${definition.name}`);
    names.add(definition.name);
  }
  const boss = newBoss(backend, work);
  // pg-boss reports its own failures (a lost connection while polling) as events: logged, an outage once.
  const failures = passFailures(log, 'job queue failed');
  boss.on('error', (error) => failures.failed(queueError(error)));
  boss.on('warning', (warning) => log.warn({ warning: warning.data }, `job queue: ${warning.message}`));
  await boss.start();
  failures.succeeded();

  for (const { name, retry } of definitions) {
    const options = {
      retryLimit: retry.retryLimit,
      retryDelay: retry.retryDelaySeconds,
      retryBackoff: true,
      retryDelayMax: retry.retryDelayMaxSeconds,
      expireInSeconds: retry.expireInSeconds,
      // A new job wakes the workers (NOTIFY) instead of waiting for their next poll.
      notify: true,
    };
    // Every instance declares the queues it works; the first creates them, the others update them.
    if (await boss.getQueue(name)) await boss.updateQueue(name, options);
    else
      await boss.createQueue(name, options).catch(async (error: unknown) => {
        if (!(await boss.getQueue(name))) throw error;
      });
  }

  const sender: JobSender = {
    async send(name, data, options = {}) {
      return boss.send(name, data, {
        ...(options.id ? { id: options.id } : {}),
        ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      });
    },
    async sendMany(name, jobs) {
      if (jobs.length === 0) return;
      await boss.insert(
        name,
        jobs.map((job) => ({ id: job.id, data: job.data })),
      );
    },
  };

  const gauge = work && definitions.some((definition) => definition.givesWay) ? eventLoopGauge() : null;
  if (work) {
    for (const definition of definitions) {
      const polling = definition.schedule ? SCHEDULED_POLLING_INTERVAL_SECONDS : POLLING_INTERVAL_SECONDS;
      await boss.work<Record<string, unknown>>(
        definition.name,
        {
          // Up to a batch per fetch, settled job by job: one failing job is retried alone. A full batch
          // means more is waiting, so the worker fetches again at once.
          batchSize: FETCH_BATCH,
          perJobResults: true,
          burstWhenBatchFull: true,
          localConcurrency: definition.concurrency ?? 1,
          // New jobs wake the workers (NOTIFY); polling finds retries whose delay has passed, soon for
          // work someone waits for, at leisure for scheduled passes.
          pollingIntervalSeconds: polling,
          notifyPollingIntervalSeconds: polling,
        },
        async (jobs: Job<Record<string, unknown>>[]) => {
          const results: { id: string; status: 'completed' | 'failed'; output?: object }[] = [];
          const giveWayUntil = Date.now() + MAX_GIVE_WAY_MS;
          for (const job of jobs) {
            if (definition.givesWay && gauge) await giveWay(gauge, giveWayUntil);
            const context: JobContext = {
              id: job.id,
              retryCount: job.retryCount,
              lastAttempt: job.retryCount >= definition.retry.retryLimit,
              log,
              queue: sender,
            };
            try {
              await definition.handle(job.data ?? {}, context);
              failures.succeeded();
              results.push({ id: job.id, status: 'completed' });
            } catch (error) {
              const entry = { job: definition.name, job_id: job.id, attempt: job.retryCount + 1, err: error };
              if (context.lastAttempt) log.error(entry, 'job failed: no retries left');
              else log.warn(entry, 'job failed: will retry');
              onFailure?.(definition.name, context.lastAttempt);
              const message = error instanceof Error ? error.message : String(error);
              results.push({ id: job.id, status: 'failed', output: { message: message.slice(0, ERROR_MAX_LENGTH) } });
            }
          }
          return results;
        },
      );
    }
    for (const definition of definitions) {
      if (definition.schedule) await boss.schedule(definition.name, definition.schedule, null, { tz: 'UTC' });
    }
  }

  const queueNames = [...names];
  const db = boss.getDb();

  return {
    queues: queueNames,
    ...sender,
    async failed({ limit, offset }) {
      const { rows } = await db.executeSql(
        `select id, name, data, output, retry_count, created_on, completed_on, count(*) over () as total
           from ${QUEUE_SCHEMA}.job where state = 'failed' and name = any($1::text[])
          order by completed_on desc, id limit $2 offset $3`,
        [queueNames, limit, offset],
      );
      const total = rows.length > 0 ? Number(rows[0].total) : await countFailed();
      return {
        total,
        jobs: rows.map((row) => ({
          id: String(row.id),
          queue: String(row.name),
          subject: subjectOf(row.data),
          error: errorText(row.output),
          attempts: Number(row.retry_count) + 1,
          created_at: new Date(row.created_on as string).toISOString(),
          failed_at: new Date((row.completed_on ?? row.created_on) as string).toISOString(),
        })),
      };
    },
    async retry(queue, id) {
      if (!names.has(queue)) return false;
      const { rows } = await db.executeSql(
        `select 1 from ${QUEUE_SCHEMA}.job where name = $1 and id = $2 and state = 'failed'`,
        [queue, id],
      );
      if (rows.length === 0) return false;
      // pg-boss answers { affected } (its declared type leaves the fields out): one more attempt was given.
      const result = (await boss.retry(queue, id)) as { affected?: number };
      return (result.affected ?? 0) > 0;
    },
    async counts() {
      const { rows } = await db.executeSql(
        `select name,
                count(*) filter (where state in ('created', 'retry')) as queued,
                count(*) filter (where state = 'active') as active,
                count(*) filter (where state = 'failed') as failed
           from ${QUEUE_SCHEMA}.job where name = any($1::text[]) group by name`,
        [queueNames],
      );
      const byName = new Map(rows.map((row) => [String(row.name), row]));
      return queueNames.map((queue) => {
        const row = byName.get(queue);
        return {
          queue,
          queued: Number(row?.queued ?? 0),
          active: Number(row?.active ?? 0),
          failed: Number(row?.failed ?? 0),
        };
      });
    },
    async stop(timeoutMs = 10_000) {
      gauge?.stop();
      await boss.stop({ graceful: true, timeout: timeoutMs, close: true });
    },
  };

  async function countFailed(): Promise<number> {
    const { rows } = await db.executeSql(
      `select count(*) as total from ${QUEUE_SCHEMA}.job where state = 'failed' and name = any($1::text[])`,
      [queueNames],
    );
    return Number(rows[0]?.total ?? 0);
  }
}
