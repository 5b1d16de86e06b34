import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '@kaminuza/shared';
import { startJobQueue, type JobQueue } from '../../lib/jobs/queue.ts';
import { MOMO_SCRIPTS, startMomoSimulator, type MomoSimulator } from '../../simulators/mtn-momo.ts';
import { emailOutbox } from '../../db/schema/index.ts';
import { TEST_PUBLIC_URL, testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import {
  createPayingInstitution,
  createPendingPayment,
  paymentByReference,
  settledPayment,
} from '../../test/payments.ts';
import { mobileMoneyCallback } from './mobile-money.service.ts';
import {
  MOBILE_MONEY_POLL_JOB,
  MOBILE_MONEY_STATUS_JOB,
  mobileMoneyJobs,
  paymentJobs,
  sendMobileMoneyPoll,
} from './payments.jobs.ts';
import { mtnMomoProviderFrom } from './mobile-money-providers.ts';
import type { MobileMoneyProvider } from './providers/mobile-money.ts';

/*
 * The poll of a pending MoMo payment, run by the job queue on the test database against the simulator
 * over HTTP: it settles from the status, fails the payment once its prompt expired, and ends when a
 * callback settled the payment first.
 */

const CREDENTIALS = { apiUser: randomUUID(), apiKey: 'momo-api-key', subscriptionKey: 'momo-subscription-key' };
const NOWHERE = 'http://127.0.0.1:9/nowhere';
const QUICK_POLL = { firstSeconds: 1, maxSeconds: 1 };
const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as FastifyBaseLogger;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: MomoSimulator;
let momo: MobileMoneyProvider;
let queue: JobQueue;
let partnerId: string;
const log = { warn() {} };
/** What a settlement driven directly by this file reports to, and links its receipt email from. */
const settling = { log, publicUrl: TEST_PUBLIC_URL };

const momoEnv = () => ({
  MTN_MOMO_BASE_URL: simulator.url,
  MTN_MOMO_API_USER: CREDENTIALS.apiUser,
  MTN_MOMO_API_KEY: CREDENTIALS.apiKey,
  MTN_MOMO_SUBSCRIPTION_KEY: CREDENTIALS.subscriptionKey,
  MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
});

beforeAll(async () => {
  database = await createTestDatabase();
  simulator = await startMomoSimulator({ ...CREDENTIALS, expireAfterMs: 60_000, payerDelayMs: 10 });
  momo = mtnMomoProviderFrom(testEnv(momoEnv()))!;
  queue = await startJobQueue({
    backend: database.connection,
    definitions: mobileMoneyJobs({
      db: database.db,
      providers: new Map([['mtn_momo', momo]]),
      log,
      publicUrl: TEST_PUBLIC_URL,
      retry: { retryLimit: 3, retryDelaySeconds: 1, retryDelayMaxSeconds: 1, expireInSeconds: 30 },
      poll: QUICK_POLL,
    }),
    log: silent,
    work: true,
  });

  partnerId = await createPayingInstitution(database.db, 'momo-poll');
});

afterAll(async () => {
  await queue?.stop();
  await simulator?.stop();
  await database?.close();
});

/** A pending MoMo payment of 1500 RWF asked of a payer whose number ends in `script`; no callback reaches us. */
async function pendingPayment(script: string) {
  const { applicationId, reference } = await createPendingPayment(database.db, partnerId, {
    provider: 'mtn_momo',
    amount: 1500,
    currency: 'RWF',
  });
  await momo.requestPayment({
    reference,
    amount: 1500,
    currency: 'RWF',
    msisdn: `250788${String(randomBytes(2).readUInt16BE() % 1000).padStart(3, '0')}${script}`,
    country: 'RW',
    payerMessage: 'Application fee',
    payeeNote: `Application ${applicationId}`,
    callbackUrl: NOWHERE,
  });
  return reference;
}

const paymentOf = (reference: string) => paymentByReference(database.db, reference);

const settledPaymentOf = (reference: string) => settledPayment(database.db, reference, 15_000);

const startPoll = (reference: string, expiresInMs: number) =>
  sendMobileMoneyPoll(
    queue,
    { provider: 'mtn_momo', reference, until: new Date(Date.now() + expiresInMs).toISOString(), attempt: 0 },
    QUICK_POLL,
  );

describe('the poll of a pending MoMo payment', () => {
  it('settles the payment from the status when no callback comes', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.approve);
    await startPoll(reference, 60_000);
    const settled = await settledPaymentOf(reference);
    expect(settled).toMatchObject({
      status: 'succeeded',
      provider_event_id: `mtn_momo:${reference}:succeeded`,
    });
    // The job was handed the configured public URL: the receipt email links to it.
    const [receipt] = await database.db
      .select({ text: emailOutbox.text })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.template, 'payment_receipt'), like(emailOutbox.text, `%${reference}%`)));
    expect(receipt!.text).toContain(`${TEST_PUBLIC_URL}/verify/receipt/${settled.receipt_code}`);
  });

  it('asks again while the payer has not answered, and settles once they approve', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.timeout);
    await startPoll(reference, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await paymentOf(reference)).toMatchObject({ status: 'pending' });
    expect(simulator.approve(reference)).toBe(true);
    expect(await settledPaymentOf(reference)).toMatchObject({ status: 'succeeded' });
  });

  it('fails the payment with the timeout reason once its prompt expired unanswered', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.timeout);
    await startPoll(reference, 1500);
    expect(await settledPaymentOf(reference)).toMatchObject({
      status: 'failed',
      failure_reason: PAYMENT_MESSAGES.mobile_money_timeout,
      provider_event_id: `mtn_momo:${reference}:failed`,
    });
    // MoMo itself still holds the prompt as pending: the payment failed on our clock.
    expect(simulator.prompts().find((prompt) => prompt.referenceId === reference)?.status).toBe('PENDING');
  });

  it('ten callbacks at once settle the payment once, and its poll after them changes nothing', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.approve);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [, ...outcomes] = await Promise.all([
      startPoll(reference, 60_000),
      ...Array.from({ length: 10 }, () => mobileMoneyCallback(database.db, momo, { externalId: reference }, settling)),
    ]);
    expect(await settledPaymentOf(reference)).toMatchObject({ status: 'succeeded' });
    const settled = outcomes.filter((outcome) => outcome === 'settled').length;
    expect(settled).toBe(1);
    expect(outcomes.every((outcome) => outcome === 'settled' || outcome === 'unchanged')).toBe(true);
    const paidAt = (await paymentOf(reference)).paid_at;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await paymentOf(reference)).toMatchObject({ status: 'succeeded', paid_at: paidAt });
  });
});

describe('registration', () => {
  it('the MoMo jobs exist only when the MTN_MOMO_* variables are set', () => {
    const names = (env: ReturnType<typeof testEnv>) =>
      paymentJobs({ db: database.db, env, log }).map((definition) => definition.name);
    expect(names(testEnv())).not.toContain(MOBILE_MONEY_POLL_JOB);
    expect(names(testEnv())).not.toContain(MOBILE_MONEY_STATUS_JOB);
    expect(names(testEnv(momoEnv()))).toEqual(expect.arrayContaining([MOBILE_MONEY_POLL_JOB, MOBILE_MONEY_STATUS_JOB]));
  });
});
