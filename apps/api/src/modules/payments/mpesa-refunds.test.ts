import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { payments } from '../../db/schema/index.ts';
import { MPESA_SCRIPTS, startMpesaSimulator, type MpesaSimulator } from '../../simulators/mpesa-daraja.ts';
import { testEnv } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import { freePort } from '../../test/server-process.ts';
import { createPayingInstitution, paymentByReference, promptedPayment, settledPayment } from '../../test/payments.ts';
import { mpesaProviderFrom } from './mobile-money-providers.ts';
import { pollMobileMoneyPayment } from './mobile-money.service.ts';
import type { MobileMoneyProvider } from './providers/mobile-money.ts';

/*
 * M-Pesa refunds end to end, over real sockets: the STK callback's receipt is kept once Daraja's query
 * confirms the success; staff ask for the refund; the job asks Daraja for a reversal; M-Pesa's Result comes
 * to the refund's own URL on the app, which closes the refund. Forged or stray results change nothing.
 */

const CREDENTIALS = {
  consumerKey: 'mpesa-refunds-key',
  consumerSecret: 'mpesa-refunds-secret',
  shortcode: '174379',
  passkey: 'mpesa-refunds-passkey',
};
const INITIATOR = { initiatorName: 'kaminuza-api', securityCredential: 'c2VjdXJpdHktY3JlZGVudGlhbA==' };
const log = { warn() {} };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: MpesaSimulator;
let app: App;
let mpesa: MobileMoneyProvider;
let origin: string;
let partnerId: string;
let finance: TestAccount;

beforeAll(async () => {
  database = await createTestDatabase();
  simulator = await startMpesaSimulator({ ...CREDENTIALS, ...INITIATOR, payerDelayMs: 20, resultDelayMs: 50 });
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const env = testEnv({
    PUBLIC_URL: origin,
    MPESA_BASE_URL: simulator.url,
    MPESA_CONSUMER_KEY: CREDENTIALS.consumerKey,
    MPESA_CONSUMER_SECRET: CREDENTIALS.consumerSecret,
    MPESA_SHORTCODE: CREDENTIALS.shortcode,
    MPESA_PASSKEY: CREDENTIALS.passkey,
    MPESA_INITIATOR_NAME: INITIATOR.initiatorName,
    MPESA_SECURITY_CREDENTIAL: INITIATOR.securityCredential,
  });
  app = await buildApp({ database, env, logger: false, work: true });
  await app.listen({ port, host: '127.0.0.1' });
  mpesa = mpesaProviderFrom(env)!;
  partnerId = await createPayingInstitution(database.db, 'mpesa-refunds', 'KE');
  finance = await signInAs(app, 'staff', { partnerId, permissions: ['manage_finance'] });
});

afterAll(async () => {
  await app?.close();
  await simulator?.stop();
  await database?.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A 1500 KES M-Pesa payment approved by the payer, its callback delivered to the app's route. */
async function paidByMpesa(callbackUrl = `${origin}/api/v1/payments/callbacks/mpesa`) {
  const { reference, providerReference } = await promptedPayment(database.db, partnerId, mpesa, {
    script: MPESA_SCRIPTS.approve,
    amount: 1500,
    currency: 'KES',
    callbackUrl,
  });
  const receipt = async () => {
    for (let tries = 0; tries < 200; tries += 1) {
      const found = simulator.prompts().find((prompt) => prompt.CheckoutRequestID === providerReference);
      if (found?.MpesaReceiptNumber) return found.MpesaReceiptNumber;
      await pause(20);
    }
    throw new Error('the payer never approved');
  };
  return { reference, providerReference: providerReference!, receipt: await receipt() };
}

/** Settled, its receipt kept, then owed back (as a success after a waiver leaves it). */
async function owedBack() {
  const paid = await paidByMpesa();
  let row = await settledPayment(database.db, paid.reference);
  for (let tries = 0; row.provider_transaction_id === null && tries < 100; tries += 1) {
    await pause(20);
    row = await paymentByReference(database.db, paid.reference);
  }
  expect(row).toMatchObject({ status: 'succeeded', provider_transaction_id: paid.receipt });
  await database.db
    .update(payments)
    .set({ status: 'failed', paid_at: null, refund_status: 'needed' })
    .where(eq(payments.id, row.id));
  return { ...paid, id: row.id };
}

const askRefund = (paymentId: string) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/partners/${partnerId}/finance/payments/${paymentId}/provider-refund`,
    headers: finance.headers,
  });

async function refundClosed(paymentId: string, within = 8000) {
  const until = Date.now() + within;
  for (;;) {
    const [row] = await database.db.select().from(payments).where(eq(payments.id, paymentId));
    if (row!.refund_status !== 'processing' || Date.now() > until) return row!;
    await pause(50);
  }
}

describe('the M-Pesa receipt', () => {
  it('is kept from the callback once the STK query confirms the success, also when a poll settled it first', async () => {
    // The simulator's callback goes nowhere: a poll settles the payment, without a receipt.
    const paid = await paidByMpesa(`${simulator.url}/nowhere`);
    while ((await pollMobileMoneyPayment(database.db, mpesa, paid.reference, { log, publicUrl: origin })) === 'pending')
      await pause(20);
    expect(await paymentByReference(database.db, paid.reference)).toMatchObject({
      status: 'succeeded',
      provider_transaction_id: null,
    });
    // Then the callback reaches the route: the query confirms, and its receipt is kept.
    const [sent] = simulator
      .callbacksSent()
      .filter(({ url }) => url.endsWith('/nowhere'))
      .slice(-1);
    const delivered = await fetch(`${origin}/api/v1/payments/callbacks/mpesa`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(sent!.body),
    });
    expect(delivered.status).toBe(200);
    expect(await paymentByReference(database.db, paid.reference)).toMatchObject({
      provider_transaction_id: paid.receipt,
    });
  });

  it('a receipt that is not one (format) is not kept', async () => {
    const paid = await paidByMpesa(`${simulator.url}/nowhere`);
    while ((await pollMobileMoneyPayment(database.db, mpesa, paid.reference, { log, publicUrl: origin })) === 'pending')
      await pause(20);
    const forged = {
      Body: {
        stkCallback: {
          MerchantRequestID: 'x',
          CheckoutRequestID: paid.providerReference,
          ResultCode: 0,
          ResultDesc: 'ok',
          CallbackMetadata: { Item: [{ Name: 'MpesaReceiptNumber', Value: "'; drop table payments; --" }] },
        },
      },
    };
    const delivered = await fetch(`${origin}/api/v1/payments/callbacks/mpesa`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(forged),
    });
    expect(delivered.status).toBe(200);
    expect(await paymentByReference(database.db, paid.reference)).toMatchObject({ provider_transaction_id: null });
  });
});

describe('refunds through M-Pesa (Daraja reversal)', () => {
  it('staff ask; the reversal’s Result comes to the refund’s URL and closes it, once', async () => {
    const payment = await owedBack();
    const asked = await askRefund(payment.id);
    expect(asked.statusCode, asked.body).toBe(200);
    const closed = await refundClosed(payment.id);
    expect(closed).toMatchObject({ refund_status: 'refunded', refund_method: 'provider' });
    const [reversal] = simulator.reversals().filter((entry) => entry.TransactionID === payment.receipt);
    expect(reversal).toMatchObject({
      Amount: 1500,
      ResultURL: `${origin}/api/v1/payments/refund-results/mpesa/${closed.refund_reference}`,
    });
    expect(closed.provider_refund_id).toBe(reversal!.ConversationID);
    const results = simulator.resultsSent().filter(({ url }) => url === reversal!.ResultURL);
    expect(results.map(({ status }) => status)).toEqual([200]);

    // The same Result again, or a forged one for another reference, changes nothing.
    const again = await fetch(reversal!.ResultURL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(results[0]!.body),
    });
    expect(again.status).toBe(200);
    const stray = await fetch(`${origin}/api/v1/payments/refund-results/mpesa/${randomUUID()}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(results[0]!.body),
    });
    expect(stray.status).toBe(200);
    expect(await paymentByReference(database.db, payment.reference)).toMatchObject({
      refund_status: 'refunded',
      refunded_at: closed.refunded_at,
    });
  });

  it('a reversal M-Pesa fails is owed back again with its ResultCode', async () => {
    const payment = await owedBack();
    simulator.scriptReversal(payment.receipt, 'failed');
    expect((await askRefund(payment.id)).statusCode).toBe(200);
    const closed = await refundClosed(payment.id);
    expect(closed).toMatchObject({ refund_status: 'needed', refunded_at: null });
    expect(closed.refund_error).not.toBeNull();
  });

  it('a Result naming another reversal, a body that is no Result, or an unknown provider change nothing', async () => {
    const payment = await owedBack();
    simulator.scriptReversal(payment.receipt, 'no_result');
    expect((await askRefund(payment.id)).statusCode).toBe(200);
    let row = await paymentByReference(database.db, payment.reference);
    for (let tries = 0; row.provider_refund_id === null && tries < 100; tries += 1) {
      await pause(20);
      row = await paymentByReference(database.db, payment.reference);
    }
    expect(row).toMatchObject({ refund_status: 'processing', provider_refund_id: expect.any(String) });
    const url = `${origin}/api/v1/payments/refund-results/mpesa/${row.refund_reference}`;
    const post = (body: unknown, to = url) =>
      fetch(to, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const otherConversation = {
      Result: {
        ResultType: 0,
        ResultCode: 0,
        ResultDesc: 'The service request is processed successfully.',
        OriginatorConversationID: 'x-1',
        ConversationID: 'AG_20261127_0000000000000000000',
        TransactionID: 'SKR0000000',
      },
    };
    expect((await post(otherConversation)).status).toBe(200);
    expect((await post({ hello: 'world' })).status).toBe(400);
    expect(
      (await post(otherConversation, `${origin}/api/v1/payments/refund-results/nowhere/${row.refund_reference}`))
        .status,
    ).toBe(404);
    expect((await post(otherConversation, `${origin}/api/v1/payments/refund-results/mpesa/not-a-uuid`)).status).toBe(
      400,
    );
    expect(await paymentByReference(database.db, payment.reference)).toMatchObject({
      refund_status: 'processing',
      refunded_at: null,
    });
  });
});
