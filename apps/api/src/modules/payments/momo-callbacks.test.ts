import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { MOMO_SCRIPTS, startMomoSimulator, type MomoSimulator } from '../../simulators/mtn-momo.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import {
  createPayingInstitution,
  createPendingPayment,
  paymentByReference,
  settledPayment,
} from '../../test/payments.ts';
import { mtnMomoProviderFrom } from './mobile-money-providers.ts';
import type { MobileMoneyProvider } from './providers/mobile-money.ts';

/*
 * The MoMo callback route of an app configured for MoMo, reached over a real socket by the simulator's
 * own callbacks: a callback settles only what the status call confirms, a malformed one changes
 * nothing, and one whose status call fails is kept as a job that settles the payment once MoMo answers.
 */

const CREDENTIALS = { apiUser: randomUUID(), apiKey: 'momo-api-key', subscriptionKey: 'momo-subscription-key' };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: MomoSimulator;
let app: App;
let momo: MobileMoneyProvider;
let callbackUrl: string;
let partnerId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  simulator = await startMomoSimulator({ ...CREDENTIALS, expireAfterMs: 60_000, payerDelayMs: 10 });
  const env = testEnv({
    MTN_MOMO_BASE_URL: simulator.url,
    MTN_MOMO_API_USER: CREDENTIALS.apiUser,
    MTN_MOMO_API_KEY: CREDENTIALS.apiKey,
    MTN_MOMO_SUBSCRIPTION_KEY: CREDENTIALS.subscriptionKey,
    MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
  });
  app = await buildApp({
    database,
    env,
    logger: false,
    // The queue runs here: a callback whose status call failed is asked again by its job.
    work: true,
    mobileMoneyRetry: { retryLimit: 5, retryDelaySeconds: 1, retryDelayMaxSeconds: 1, expireInSeconds: 30 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  callbackUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/payments/callbacks/mtn-momo`;
  momo = mtnMomoProviderFrom(env)!;

  partnerId = await createPayingInstitution(database.db, 'momo-cb');
});

afterAll(async () => {
  await app?.close();
  await simulator?.stop();
  await database?.close();
});

/** A pending MoMo payment of 1500 RWF asked of a payer whose number ends in `script`. */
async function pendingPayment(script: string, callback = callbackUrl) {
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
    callbackUrl: callback,
  });
  return reference;
}

const paymentOf = (reference: string) => paymentByReference(database.db, reference);

const settledPaymentOf = (reference: string, within?: number) => settledPayment(database.db, reference, within);

const callbacksFor = (reference: string) =>
  simulator.callbacksSent().filter(({ body }) => body.externalId === reference);

describe('MTN MoMo callbacks', () => {
  it('the simulator’s callback (PUT) reaches the route, which settles the payment from the status', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.approve);
    expect(await settledPaymentOf(reference)).toMatchObject({ status: 'succeeded', method: 'mobile_money' });
    // The payment settles while the route answers: the simulator records the 200 a moment later.
    await vi.waitFor(() => expect(callbacksFor(reference).map(({ status }) => status)).toEqual([200]));
  });

  it('a callback with the wrong amount settles nothing on its word: the status (right amount) decides', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.wrongAmountCallback);
    expect(await settledPaymentOf(reference)).toMatchObject({ status: 'succeeded', amount: 1500 });
  });

  it('POST is accepted as well, and a declined prompt fails the payment', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.decline);
    // Wait for the simulator's own callback, then send the same body again by POST: still settled once.
    expect(await settledPaymentOf(reference)).toMatchObject({ status: 'failed' });
    const response = await fetch(callbackUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(callbacksFor(reference)[0]!.body),
    });
    expect(response.status).toBe(200);
    expect(await paymentOf(reference)).toMatchObject({ status: 'failed' });
  });

  it.each([
    ['invalid JSON', '{"externalId": '],
    ['a body naming no payment', JSON.stringify({ status: 'SUCCESSFUL', amount: '1500' })],
    ['a reference that is not ours', JSON.stringify({ externalId: '../../token', status: 'SUCCESSFUL' })],
  ])('%s is 400 and changes nothing', async (_case, body) => {
    const reference = await pendingPayment(MOMO_SCRIPTS.timeout);
    const response = await fetch(callbackUrl, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body });
    expect(response.status).toBe(400);
    expect(await paymentOf(reference)).toMatchObject({ status: 'pending' });
  });

  it('a body far bigger than a status body is refused (400) before it is read, and changes nothing', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.timeout);
    const send = (padding: number) =>
      fetch(callbackUrl, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ externalId: reference, status: 'SUCCESSFUL', padding: 'x'.repeat(padding) }),
      });
    expect((await send(20_000)).status).toBe(400);
    // The same body, small enough, is read (and the status call finds the prompt pending).
    expect((await send(10)).status).toBe(200);
    expect(await paymentOf(reference)).toMatchObject({ status: 'pending' });
  });

  it('MoMo unreachable for the status call: 200 all the same, and a job settles the payment once it answers', async () => {
    // MoMo's own callbacks for this prompt go nowhere: only the job can settle it.
    const reference = await pendingPayment(MOMO_SCRIPTS.timeout, 'http://127.0.0.1:9/nowhere');
    simulator.setMode('503');
    try {
      const started = Date.now();
      const response = await fetch(callbackUrl, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ externalId: reference, status: 'SUCCESSFUL', amount: '1500', currency: 'RWF' }),
      });
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await paymentOf(reference)).toMatchObject({ status: 'pending' });
    } finally {
      simulator.setMode('normal');
    }
    // The payer approves on the phone while the job waits to ask again; its next try settles it.
    expect(simulator.approve(reference)).toBe(true);
    expect(await settledPaymentOf(reference, 15_000)).toMatchObject({ status: 'succeeded' });
  });
});
