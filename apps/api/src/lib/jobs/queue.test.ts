import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { createTestDatabase } from '../../test/database.ts';
import { databaseUnavailable } from '../db-errors.ts';
import { defineJob, jobIdFor, queueError, startJobQueue, type JobDefinition, type JobQueue } from './queue.ts';

const silent = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;
const quick = { retryLimit: 2, retryDelaySeconds: 1, retryDelayMaxSeconds: 1, expireInSeconds: 30 };

let database: Database;
const open: JobQueue[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await Promise.all(open.map((queue) => queue.stop()));
  await database.close();
});

async function queueOf(definitions: JobDefinition[], work = true): Promise<JobQueue> {
  const queue = await startJobQueue({ backend: database.connection, definitions, log: silent, work });
  open.push(queue);
  return queue;
}

async function stop(queue: JobQueue): Promise<void> {
  open.splice(open.indexOf(queue), 1);
  await queue.stop();
}

describe('the job queue', () => {
  it('retries a failing job with backoff until it succeeds', async () => {
    const attempts: number[] = [];
    const queue = await queueOf([
      defineJob<{ n: number }>({
        name: 'test.flaky',
        retry: quick,
        async handle(_data, { retryCount }) {
          attempts.push(retryCount);
          if (retryCount < 2) throw new Error(`attempt ${retryCount + 1} failed`);
        },
      }),
    ]);
    await queue.send('test.flaky', { n: 1 });
    await expect.poll(() => attempts, { timeout: 15_000, interval: 50 }).toEqual([0, 1, 2]);
    await stop(queue);
  });

  it('keeps a job whose retries are spent as failed, with its error, and an admin can retry it', async () => {
    let fixed = false;
    const seen: { retryCount: number; lastAttempt: boolean }[] = [];
    const queue = await queueOf([
      defineJob<{ reference: string }>({
        name: 'test.broken',
        retry: { ...quick, retryLimit: 1 },
        async handle(_data, { retryCount, lastAttempt }) {
          seen.push({ retryCount, lastAttempt });
          if (!fixed) throw new Error('the provider answered 503');
        },
      }),
    ]);
    const id = await queue.send('test.broken', { reference: 'KZ-PAY-1' });
    await expect
      .poll(async () => (await queue.failed({ limit: 10, offset: 0 })).total, { timeout: 15_000, interval: 50 })
      .toBe(1);
    expect(seen).toEqual([
      { retryCount: 0, lastAttempt: false },
      { retryCount: 1, lastAttempt: true },
    ]);
    const { jobs } = await queue.failed({ limit: 10, offset: 0 });
    expect(jobs).toEqual([
      {
        id,
        queue: 'test.broken',
        subject: 'KZ-PAY-1',
        error: 'the provider answered 503',
        attempts: 2,
        created_at: expect.any(String),
        failed_at: expect.any(String),
      },
    ]);
    expect(await queue.counts()).toEqual([{ queue: 'test.broken', queued: 0, active: 0, failed: 1 }]);

    // Retried by hand: one more attempt, now that the cause is fixed.
    fixed = true;
    expect(await queue.retry('test.broken', id!)).toBe(true);
    await expect.poll(() => seen.length, { timeout: 15_000, interval: 50 }).toBe(3);
    await expect.poll(async () => (await queue.counts())[0]?.failed, { timeout: 5_000 }).toBe(0);
    // Only a failed job of a known queue can be retried.
    expect(await queue.retry('test.broken', id!)).toBe(false);
    expect(await queue.retry('test.unknown', id!)).toBe(false);
    await stop(queue);
  });

  it('runs each job once however many instances work the queue', async () => {
    const handled: string[] = [];
    const definition = defineJob<{ key: string }>({
      name: 'test.shared',
      retry: quick,
      concurrency: 2,
      async handle({ key }) {
        handled.push(key);
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
    });
    const instances = [await queueOf([definition]), await queueOf([definition]), await queueOf([definition])];
    const keys = Array.from({ length: 60 }, (_, index) => `job-${index}`);
    await instances[0]!.sendMany(
      'test.shared',
      keys.map((key) => ({ id: jobIdFor('test.shared', key), data: { key } })),
    );
    await expect.poll(() => handled.length, { timeout: 15_000, interval: 50 }).toBe(keys.length);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...handled].sort()).toEqual([...keys].sort());
    for (const instance of instances) await stop(instance);
  });

  it('keeps what was sent through a restart, and creates one job per id', async () => {
    const handled: string[] = [];
    const definition = defineJob<{ key: string }>({
      name: 'test.durable',
      retry: quick,
      async handle({ key }) {
        handled.push(key);
      },
    });
    // Sent by an instance that does not work the queue, then gone.
    const sender = await queueOf([definition], false);
    const id = jobIdFor('test.durable', 'one');
    expect(await sender.send('test.durable', { key: 'one' }, { id })).toBe(id);
    expect(await sender.send('test.durable', { key: 'one again' }, { id })).toBeNull();
    expect(await sender.counts()).toEqual([{ queue: 'test.durable', queued: 1, active: 0, failed: 0 }]);
    await stop(sender);
    expect(handled).toEqual([]);

    const worker = await queueOf([definition]);
    await expect.poll(() => handled, { timeout: 10_000, interval: 50 }).toEqual(['one']);
    await stop(worker);
  });

  it('holds back a job that gives way while the process is busy answering, not the others', async () => {
    const started: Record<string, number> = {};
    const job = (name: string, givesWay: boolean) =>
      defineJob({
        name,
        retry: quick,
        givesWay,
        async handle() {
          started[name] = Date.now();
        },
      });
    const queue = await queueOf([job('test.receipt', true), job('test.urgent', false)]);
    /** Keeps the event loop busy until `until`, in slices, as a burst of requests would. */
    const spin = async (until: number) => {
      while (Date.now() < until) {
        const slice = Date.now() + 40;
        while (Date.now() < slice);
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    // Busy long enough for the gauge to read it, then both jobs sent while the load goes on.
    await spin(Date.now() + 600);
    const burstEnds = Date.now() + 1_500;
    await Promise.all([queue.send('test.receipt', {}), queue.send('test.urgent', {}), spin(burstEnds)]);
    await expect.poll(() => Object.keys(started).length, { timeout: 15_000, interval: 50 }).toBe(2);
    expect(started['test.urgent']).toBeLessThan(burstEnds);
    expect(started['test.receipt']).toBeGreaterThanOrEqual(burstEnds);
    await stop(queue);
  });

  it('reads the failures pg-boss emits as plain objects as errors, a lost database as an outage', () => {
    const lost = { message: 'connect ECONNREFUSED 127.0.0.1:5432 (Queue: email.send)', code: 'ECONNREFUSED' };
    expect(databaseUnavailable(lost)).toBe(false);
    expect(databaseUnavailable(queueError(lost))).toBe(true);
    expect(databaseUnavailable(queueError({ message: 'a bug' }))).toBe(false);
    const error = new Error('kept');
    expect(queueError(error)).toBe(error);
  });

  it('makes the same id from the same parts, a different one otherwise', () => {
    const id = jobIdFor('push.deliver', 'a', 'b');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(jobIdFor('push.deliver', 'a', 'b')).toBe(id);
    expect(jobIdFor('push.deliver', 'ab', '')).not.toBe(id);
  });
});
