import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '@kaminuza/shared';
import { buildApp, type App } from '../../app.ts';
import { payments } from '../../db/schema/index.ts';
import { MPESA_SCRIPTS, startMpesaSimulator, type MpesaSimulator } from '../../simulators/mpesa-daraja.ts';
import { TEST_PUBLIC_URL, testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import {
  createPayingInstitution,
  createPendingPayment,
  paymentByReference,
  settledPayment,
} from '../../test/payments.ts';
import { expireMobileMoneyPayment, pollMobileMoneyPayment } from './mobile-money.service.ts';
import { mpesaProviderFrom } from './mobile-money-providers.ts';
import type { MobileMoneyProvider, MobileMoneyStatus } from './providers/mobile-money.ts';

/*
 * The M-Pesa callback route of an app configured for Daraja, reached over a real socket by the simulator's
 * own callbacks: a callback names the prompt by its CheckoutRequestID, the STK query alone settles it (once,
 * however many callbacks and polls race), a forged or lying callback changes nothing, and one whose query
 * fails is kept as a job that settles the payment once Daraja answers.
 */

const CREDENTIALS = {
  consumerKey: 'mpesa-consumer-key',
  consumerSecret: 'mpesa-consumer-secret',
  shortcode: '174379',
  passkey: 'mpesa-passkey-for-callback-tests',
};
const log = { warn() {} };
/** What a settlement driven directly by this file reports to, and links its receipt email from. */
const settling = { log, publicUrl: TEST_PUBLIC_URL };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: MpesaSimulator;
let app: App;
let mpesa: MobileMoneyProvider;
let callbackUrl: string;
let partnerId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  // The payer answers after 300 ms: time for the test to record Daraja's id beside the payment first.
  simulator = await startMpesaSimulator({ ...CREDENTIALS, expireAfterMs: 3000, lateAfterMs: 500, payerDelayMs: 300 });
  const env = testEnv({
    MPESA_BASE_URL: simulator.url,
    MPESA_CONSUMER_KEY: CREDENTIALS.consumerKey,
    MPESA_CONSUMER_SECRET: CREDENTIALS.consumerSecret,
    MPESA_SHORTCODE: CREDENTIALS.shortcode,
    MPESA_PASSKEY: CREDENTIALS.passkey,
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
  callbackUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/payments/callbacks/mpesa`;
  mpesa = mpesaProviderFrom(env)!;

  partnerId = await createPayingInstitution(database.db, 'mpesa-cb', 'KE');
});

afterAll(async () => {
  await app?.close();
  await simulator?.stop();
  await database?.close();
});

/**
 * A pending M-Pesa payment of 1500 KES pushed to a payer whose number ends in `script`, with Daraja's
 * CheckoutRequestID kept beside our reference as the start of a payment will.
 */
async function pendingPayment(script: string, callback = callbackUrl) {
  const msisdn = `2547123${String(randomBytes(2).readUInt16BE() % 100).padStart(2, '0')}${script}`;
  const { applicationId, reference } = await createPendingPayment(database.db, partnerId, {
    provider: 'mpesa',
    amount: 1500,
    currency: 'KES',
    payerPhone: msisdn,
  });
  const { providerReference } = await mpesa.requestPayment({
    reference,
    amount: 150_000,
    currency: 'KES',
    msisdn,
    country: 'KE',
    payerMessage: 'Application fee',
    payeeNote: `Application ${applicationId}`,
    callbackUrl: callback,
  });
  await database.db
    .update(payments)
    .set({ provider_reference: providerReference })
    .where(eq(payments.reference, reference));
  return { reference, id: providerReference! };
}

const paymentOf = (reference: string) => paymentByReference(database.db, reference);
const settledPaymentOf = (reference: string, within?: number) => settledPayment(database.db, reference, within);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const callbacksFor = (id: string) =>
  simulator
    .callbacksSent()
    .filter(
      ({ body }) =>
        (body.Body as { stkCallback?: { CheckoutRequestID?: string } }).stkCallback?.CheckoutRequestID === id,
    );

/** The simulator's callbacks for a prompt once `count` of them have been answered (or `within` ms passed). */
async function deliveredCallbacks(id: string, count: number, within = 5000) {
  const until = Date.now() + within;
  for (;;) {
    const sent = callbacksFor(id);
    if (sent.filter(({ status }) => status !== null).length >= count || Date.now() > until) return sent;
    await pause(25);
  }
}

/** The query's answer once it is no longer `state`. */
async function statusWhenNot(reference: string, id: string, state: MobileMoneyStatus['state'], within = 8000) {
  const until = Date.now() + within;
  for (;;) {
    const status = await mpesa.status({ reference, providerReference: id, currency: 'KES', country: 'KE' });
    if (status.state !== state || Date.now() > until) return status;
    await pause(50);
  }
}

const post = (body: unknown) =>
  fetch(callbackUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('M-Pesa callbacks', () => {
  it('the simulator’s callback (POST) reaches the route; the STK query settles the payment', async () => {
    const { reference, id } = await pendingPayment(MPESA_SCRIPTS.approve);
    const settled = await settledPaymentOf(reference);
    const receipt = simulator.prompts().find((prompt) => prompt.CheckoutRequestID === id);
    expect(settled).toMatchObject({
      status: 'succeeded',
      method: 'mobile_money',
      provider_event_id: `mpesa:${reference}:succeeded`,
      // Daraja's query states no receipt: the callback's is kept once the query confirmed the success.
      provider_transaction_id: receipt?.MpesaReceiptNumber,
    });
    expect(receipt?.MpesaReceiptNumber).toMatch(/^[A-Z0-9]{10}$/);
    expect((await deliveredCallbacks(id, 1)).map(({ status }) => status)).toEqual([200]);
  });

  it('a wrong PIN fails the payment with its own message', async () => {
    const { reference } = await pendingPayment(MPESA_SCRIPTS.wrongPin);
    expect(await settledPaymentOf(reference)).toMatchObject({
      status: 'failed',
      failure_reason: PAYMENT_MESSAGES.mobile_money_wrong_pin,
    });
  });

  it('10 identical callbacks at once and a poll settle the payment exactly once', async () => {
    // The simulator's own callback goes nowhere: the ten below and the poll race for the payment.
    const { reference, id } = await pendingPayment('001', `${simulator.url}/nowhere`);
    expect(simulator.approve(id)).toBe(true);
    const [sent] = await deliveredCallbacks(id, 1);
    if (!sent) throw new Error('the simulator sent no callback');
    expect(sent.status).toBe(404);
    expect((await paymentOf(reference)).status).toBe('pending');
    const [replies, polled] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, () => post(sent.body).then((reply) => reply.status))),
      pollMobileMoneyPayment(database.db, mpesa, { providerReference: id }, settling),
    ]);
    expect(replies).toEqual(Array.from({ length: 10 }, () => 200));
    expect(['settled', 'unchanged']).toContain(polled);
    const settled = await paymentOf(reference);
    expect(settled).toMatchObject({
      status: 'succeeded',
      provider_event_id: `mpesa:${reference}:succeeded`,
      refund_status: null,
    });
    // Settled once: whatever asks again changes nothing, not even the moment it was paid.
    expect(await pollMobileMoneyPayment(database.db, mpesa, reference, settling)).toBe('unchanged');
    expect((await post(sent.body)).status).toBe(200);
    expect(await paymentOf(reference)).toMatchObject({ status: 'succeeded', paid_at: settled.paid_at });
  });

  it('a late success after the prompt expired is recorded once as needing a refund', async () => {
    const { reference, id } = await pendingPayment(MPESA_SCRIPTS.lateSuccess);
    // Our poll chain gives up on the prompt (its time is over) and fails the payment with the timeout reason;
    // Daraja says 1037 too, without a callback.
    expect(await expireMobileMoneyPayment(database.db, mpesa, reference, settling)).toBe('settled');
    expect(await paymentOf(reference)).toMatchObject({
      status: 'failed',
      failure_reason: PAYMENT_MESSAGES.mobile_money_timeout,
    });
    expect(await statusWhenNot(reference, id, 'pending')).toMatchObject({ state: 'failed', providerReason: '1037' });
    // The payer's success comes with a callback; the route's query confirms it: money taken, refund owed.
    const [late] = await deliveredCallbacks(id, 1, 8000);
    expect(late?.status).toBe(200);
    expect(await paymentOf(reference)).toMatchObject({ status: 'failed', paid_at: null, refund_status: 'needed' });
    // Asked again, the same success is recorded once.
    expect(await pollMobileMoneyPayment(database.db, mpesa, reference, settling)).toBe('unchanged');
    expect(await expireMobileMoneyPayment(database.db, mpesa, reference, settling)).toBe('unchanged');
  });

  it('a callback with the wrong amount settles nothing on its word: the query decides', async () => {
    const { reference, id } = await pendingPayment(MPESA_SCRIPTS.wrongAmountCallback);
    expect(await settledPaymentOf(reference)).toMatchObject({ status: 'succeeded', amount: 1500 });
    const [sent] = await deliveredCallbacks(id, 1);
    const items = (
      sent!.body.Body as { stkCallback: { CallbackMetadata: { Item: { Name: string; Value: unknown }[] } } }
    ).stkCallback.CallbackMetadata.Item;
    expect(items.find(({ Name }) => Name === 'Amount')?.Value).toBe(15_000);
    // Its receipt is not kept: the amount it claims is not the payment's.
    expect((await paymentOf(reference)).provider_transaction_id).toBeNull();
  });

  it('a forged success for a prompt still pending settles nothing', async () => {
    const { reference, id } = await pendingPayment(MPESA_SCRIPTS.timeout);
    const forged = {
      Body: {
        stkCallback: {
          MerchantRequestID: '1-1',
          CheckoutRequestID: id,
          ResultCode: 0,
          ResultDesc: 'The service request is processed successfully.',
          CallbackMetadata: {
            Item: [
              { Name: 'Amount', Value: 1500 },
              { Name: 'MpesaReceiptNumber', Value: 'FORGED0001' },
              { Name: 'PhoneNumber', Value: 254712345444 },
            ],
          },
        },
      },
    };
    expect((await post(forged)).status).toBe(200);
    expect(await paymentOf(reference)).toMatchObject({ status: 'pending', provider_transaction_id: null });
    // A CheckoutRequestID of no payment of ours is answered and changes nothing either.
    expect(
      (await post({ Body: { stkCallback: { ...forged.Body.stkCallback, CheckoutRequestID: 'ws_CO_forged' } } })).status,
    ).toBe(200);
    expect(await paymentOf(reference)).toMatchObject({ status: 'pending' });
  });

  it.each([
    ['invalid JSON', '{"Body": '],
    ['a body naming no prompt', JSON.stringify({ Body: { stkCallback: { ResultCode: 0 } } })],
    ['a MoMo-shaped body', JSON.stringify({ externalId: randomUUID(), status: 'SUCCESSFUL' })],
    ['an id that is not one', JSON.stringify({ Body: { stkCallback: { CheckoutRequestID: '../../oauth' } } })],
  ])('%s is 400 and changes nothing', async (_case, body) => {
    const { reference } = await pendingPayment(MPESA_SCRIPTS.timeout);
    expect((await post(body)).status).toBe(400);
    expect(await paymentOf(reference)).toMatchObject({ status: 'pending' });
  });

  it('Daraja unreachable for the query: 200 all the same, and a job settles the payment once it answers', async () => {
    // Daraja's own callbacks for this prompt go nowhere: only the job can settle it.
    const { reference, id } = await pendingPayment('002', 'http://127.0.0.1:9/nowhere');
    simulator.setMode('503');
    try {
      const started = Date.now();
      const response = await post({ Body: { stkCallback: { CheckoutRequestID: id, ResultCode: 0 } } });
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await paymentOf(reference)).toMatchObject({ status: 'pending' });
    } finally {
      simulator.setMode('normal');
    }
    // The payer approves on the phone while the job waits to ask again; its next try settles it.
    expect(simulator.approve(id)).toBe(true);
    expect(await settledPaymentOf(reference, 15_000)).toMatchObject({ status: 'succeeded' });
  });
});
