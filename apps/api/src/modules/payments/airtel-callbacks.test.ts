import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '@kaminuza/shared';
import { buildApp, type App } from '../../app.ts';
import { AIRTEL_SCRIPTS, startAirtelSimulator, type AirtelSimulator } from '../../simulators/airtel-money.ts';
import { TEST_PUBLIC_URL, testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import {
  createPayingInstitution,
  createPendingPayment,
  paymentByReference,
  settledPayment,
} from '../../test/payments.ts';
import { airtelMoneyProviderFrom, mobileMoneyProvidersFrom } from './mobile-money-providers.ts';
import { mobileMoneyCallback, pollMobileMoneyPayment } from './mobile-money.service.ts';
import { MOBILE_MONEY_POLL_JOB, MOBILE_MONEY_STATUS_JOB, paymentJobs } from './payments.jobs.ts';
import type { MobileMoneyProvider } from './providers/mobile-money.ts';

/*
 * The Airtel Money callback route of an app configured for Airtel, reached over a real socket by the
 * simulator's own callbacks (its callback URL, as registered in Airtel's portal, is the app's route): a
 * callback settles only what the transaction enquiry confirms, a malformed one changes nothing, and one
 * whose enquiry fails is kept as a job that settles the payment once Airtel answers.
 */

const CREDENTIALS = { clientId: randomUUID(), clientSecret: 'airtel-client-secret' };
const log = { warn() {} };
/** What a settlement driven directly by this file reports to, and links its receipt email from. */
const settling = { log, publicUrl: TEST_PUBLIC_URL };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: AirtelSimulator;
let app: App;
let airtel: MobileMoneyProvider;
let callbackUrl: string;
let partnerId: string;

const airtelEnv = () => ({
  AIRTEL_MONEY_BASE_URL: simulator.url,
  AIRTEL_MONEY_CLIENT_ID: CREDENTIALS.clientId,
  AIRTEL_MONEY_CLIENT_SECRET: CREDENTIALS.clientSecret,
});

beforeAll(async () => {
  database = await createTestDatabase();
  simulator = await startAirtelSimulator({ ...CREDENTIALS, expireAfterMs: 1500, lateAfterMs: 500, payerDelayMs: 10 });
  const env = testEnv(airtelEnv());
  app = await buildApp({
    database,
    env,
    logger: false,
    // The queue runs here: a callback whose enquiry failed is asked again by its job.
    work: true,
    mobileMoneyRetry: { retryLimit: 5, retryDelaySeconds: 1, retryDelayMaxSeconds: 1, expireInSeconds: 30 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  callbackUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/payments/callbacks/airtel-money`;
  simulator.setCallbackUrl(callbackUrl);
  airtel = airtelMoneyProviderFrom(env)!;

  partnerId = await createPayingInstitution(database.db, 'airtel-cb', 'UG');
});

afterAll(async () => {
  await app?.close();
  await simulator?.stop();
  await database?.close();
});

/** A pending Airtel payment of 1500 UGX asked of a Ugandan payer whose number ends in `script`. */
async function pendingPayment(script: string) {
  const msisdn = `2567500${String(randomBytes(2).readUInt16BE() % 1000).padStart(3, '0')}${script}`;
  const { applicationId, reference } = await createPendingPayment(database.db, partnerId, {
    provider: 'airtel_money',
    amount: 1500,
    currency: 'UGX',
    payerPhone: msisdn,
  });
  await airtel.requestPayment({
    reference,
    amount: 1500,
    currency: 'UGX',
    msisdn,
    country: 'UG',
    payerMessage: 'Application fee',
    payeeNote: `Application ${applicationId}`,
    callbackUrl,
  });
  return reference;
}

const paymentOf = (reference: string) => paymentByReference(database.db, reference);
const settledPaymentOf = (reference: string, within?: number) => settledPayment(database.db, reference, within);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const callbacksFor = (reference: string) =>
  simulator.callbacksSent().filter(({ body }) => body.transaction.id === reference);

async function callbacksAnswered(reference: string, count: number, within = 5000) {
  const until = Date.now() + within;
  while (callbacksFor(reference).filter(({ status }) => status !== null).length < count && Date.now() < until) {
    await pause(20);
  }
  return callbacksFor(reference);
}

const post = (body: string) =>
  fetch(callbackUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

describe('Airtel Money callbacks', () => {
  it('the simulator’s callback (POST) reaches the route, which settles the payment from the enquiry', async () => {
    const reference = await pendingPayment(AIRTEL_SCRIPTS.approve);
    const payment = await settledPaymentOf(reference);
    expect(payment).toMatchObject({ status: 'succeeded', method: 'mobile_money', amount: 1500, currency: 'UGX' });
    const airtelMoneyId = simulator.prompts().find((prompt) => prompt.id === reference)?.airtelMoneyId;
    expect(payment.provider_transaction_id).toBe(airtelMoneyId);
    expect((await callbacksAnswered(reference, 1)).map(({ status }) => status)).toEqual([200]);
  });

  it.each([
    [AIRTEL_SCRIPTS.decline, PAYMENT_MESSAGES.mobile_money_declined],
    [AIRTEL_SCRIPTS.insufficientFunds, PAYMENT_MESSAGES.mobile_money_insufficient_funds],
    [AIRTEL_SCRIPTS.wrongPin, PAYMENT_MESSAGES.mobile_money_wrong_pin],
  ])('a prompt failed by payer …%s fails the payment with its reason', async (script, message) => {
    const reference = await pendingPayment(script);
    expect(await settledPaymentOf(reference)).toMatchObject({ status: 'failed', failure_reason: message });
  });

  it('a duplicate callback settles once', async () => {
    const reference = await pendingPayment(AIRTEL_SCRIPTS.duplicateCallback);
    expect((await callbacksAnswered(reference, 2)).map(({ status }) => status)).toEqual([200, 200]);
    expect(await paymentOf(reference)).toMatchObject({
      status: 'succeeded',
      provider_event_id: `airtel_money:${reference}:succeeded`,
      refund_status: null,
    });
  });

  it('an early or forged callback claiming TS settles nothing: the enquiry still says TIP', async () => {
    const reference = await pendingPayment(AIRTEL_SCRIPTS.earlyCallback);
    const [claim] = await callbacksAnswered(reference, 1);
    expect(claim).toMatchObject({ status: 200, body: { transaction: { status_code: 'TS' } } });
    expect(await paymentOf(reference)).toMatchObject({ status: 'pending' });
    // The same claim sent by anyone else changes nothing either.
    expect((await post(JSON.stringify(claim!.body))).status).toBe(200);
    expect(await paymentOf(reference)).toMatchObject({ status: 'pending', paid_at: null });
  });

  it('a late success after the payment expired is recorded as owed back, not as paid', async () => {
    const reference = await pendingPayment(AIRTEL_SCRIPTS.lateSuccess);
    // No callback for the expiry: the poll finds TE and fails the payment.
    let outcome = await pollMobileMoneyPayment(database.db, airtel, reference, settling);
    for (let tries = 0; outcome === 'pending' && tries < 200; tries += 1) {
      await pause(25);
      outcome = await pollMobileMoneyPayment(database.db, airtel, reference, settling);
    }
    expect(outcome).toBe('settled');
    expect(await paymentOf(reference)).toMatchObject({
      status: 'failed',
      failure_reason: PAYMENT_MESSAGES.mobile_money_timeout,
    });
    // Then Airtel's TS and its callback: the route records the refund owed.
    expect((await callbacksAnswered(reference, 1)).map(({ status }) => status)).toEqual([200]);
    const payment = await paymentOf(reference);
    expect(payment).toMatchObject({ status: 'failed', paid_at: null, refund_status: 'needed' });
    expect(payment.provider_transaction_id).toMatch(/^MP/);
    // Asked again, the same success is recorded once.
    expect(await pollMobileMoneyPayment(database.db, airtel, reference, settling)).toBe('unchanged');
  });

  it('10 callbacks at once, through the route and directly, and a poll settle the payment once', async () => {
    simulator.setCallbackUrl(null);
    let reference: string;
    try {
      reference = await pendingPayment('002');
      expect(simulator.approve(reference)).toBe(true);
    } finally {
      simulator.setCallbackUrl(callbackUrl);
    }
    expect(await paymentOf(reference)).toMatchObject({ status: 'pending' });
    const body = { transaction: { id: reference, message: 'success', status_code: 'TS', airtel_money_id: 'x' } };
    const [replies, direct] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, () => post(JSON.stringify(body)).then((reply) => reply.status))),
      Promise.all([
        ...Array.from({ length: 10 }, () => mobileMoneyCallback(database.db, airtel, body, settling)),
        pollMobileMoneyPayment(database.db, airtel, reference, settling),
      ]),
    ]);
    expect(replies).toEqual(Array.from({ length: 10 }, () => 200));
    // The ones seen here settled it at most once (or the route did), and none twice.
    expect(direct.filter((outcome) => outcome === 'settled').length).toBeLessThanOrEqual(1);
    expect(direct.every((outcome) => outcome === 'settled' || outcome === 'unchanged')).toBe(true);
    const payment = await paymentOf(reference);
    expect(payment).toMatchObject({
      status: 'succeeded',
      provider_event_id: `airtel_money:${reference}:succeeded`,
      refund_status: null,
    });
    // The callback's airtel_money_id is not believed: the enquiry's is kept.
    expect(payment.provider_transaction_id).toBe(simulator.prompts().find((p) => p.id === reference)?.airtelMoneyId);
  });

  it.each([
    ['invalid JSON', '{"transaction": '],
    ['a body naming no payment', JSON.stringify({ transaction: { status_code: 'TS' } })],
    ['a reference that is not ours', JSON.stringify({ transaction: { id: '../../token', status_code: 'TS' } })],
    ['a body of another shape', JSON.stringify([1, 2, 3])],
  ])('%s is 400 and changes nothing', async (_case, body) => {
    const reference = await pendingPayment(AIRTEL_SCRIPTS.timeout);
    expect((await post(body)).status).toBe(400);
    expect(await paymentOf(reference)).toMatchObject({ status: 'pending' });
  });

  it('Airtel unreachable for the enquiry: 200 all the same, and a job settles the payment once it answers', async () => {
    simulator.setCallbackUrl(null);
    let reference: string;
    try {
      reference = await pendingPayment(AIRTEL_SCRIPTS.timeout);
      simulator.setMode('503');
      const started = Date.now();
      const response = await post(JSON.stringify({ transaction: { id: reference, status_code: 'TS' } }));
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await paymentOf(reference)).toMatchObject({ status: 'pending' });
      simulator.setMode('normal');
      // The payer approves on the phone while the job waits to ask again; its next try settles it.
      expect(simulator.approve(reference)).toBe(true);
    } finally {
      simulator.setMode('normal');
      simulator.setCallbackUrl(callbackUrl);
    }
    expect(await settledPaymentOf(reference, 15_000)).toMatchObject({ status: 'succeeded' });
  });
});

describe('configuration', () => {
  it('Airtel is registered, with its jobs, only when the AIRTEL_MONEY_* variables are set', () => {
    expect([...mobileMoneyProvidersFrom(testEnv(airtelEnv())).keys()]).toEqual(['airtel_money']);
    expect(mobileMoneyProvidersFrom(testEnv()).size).toBe(0);
    const names = (env: ReturnType<typeof testEnv>) =>
      paymentJobs({ db: database.db, env, log }).map((definition) => definition.name);
    expect(names(testEnv())).not.toContain(MOBILE_MONEY_STATUS_JOB);
    expect(names(testEnv(airtelEnv()))).toEqual(
      expect.arrayContaining([MOBILE_MONEY_POLL_JOB, MOBILE_MONEY_STATUS_JOB]),
    );
  });

  it('the variables are set together, and production refuses a local simulator', () => {
    expect(() => testEnv({ AIRTEL_MONEY_BASE_URL: 'https://openapiuat.airtel.africa' })).toThrow(/AIRTEL_MONEY/);
    expect(() => testEnv({ AIRTEL_MONEY_CLIENT_ID: 'id', AIRTEL_MONEY_CLIENT_SECRET: 'secret' })).toThrow(
      /AIRTEL_MONEY_BASE_URL/,
    );
    const production = {
      NODE_ENV: 'production',
      AUTH_SECRET: 'a'.repeat(40),
      PAYMENTS_WEBHOOK_SECRET: 'b'.repeat(40),
      PAYMENTS_PROVIDER: 'sandbox',
      AIRTEL_MONEY_CLIENT_ID: 'id',
      AIRTEL_MONEY_CLIENT_SECRET: 'secret',
    };
    expect(() => testEnv({ ...production, AIRTEL_MONEY_BASE_URL: 'http://127.0.0.1:4010' })).toThrow(
      /Airtel's own https address/,
    );
    expect(testEnv({ ...production, AIRTEL_MONEY_BASE_URL: 'https://openapi.airtel.africa' })).toMatchObject({
      AIRTEL_MONEY_BASE_URL: 'https://openapi.airtel.africa',
    });
  });
});
