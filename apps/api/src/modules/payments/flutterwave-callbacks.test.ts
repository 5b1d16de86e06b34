import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PAYMENT_MESSAGES } from '@kaminuza/shared';
import { payments } from '../../db/schema/index.ts';
import { buildApp, type App } from '../../app.ts';
import {
  FLUTTERWAVE_CARDS,
  startFlutterwaveSimulator,
  type FlutterwaveSimulator,
} from '../../simulators/flutterwave.ts';
import { TEST_PUBLIC_URL, testEnv } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import { payOnHostedPage } from '../../test/flutterwave.ts';
import {
  createApplicationOf,
  createPayingInstitution,
  paymentByReference,
  settledPayment,
} from '../../test/payments.ts';
import type { Env } from '../../lib/env.ts';
import { cardProviderFrom } from './card-providers.ts';
import { RECONCILE_AFTER_MS, reconcilePendingPayments } from './payments.service.ts';
import { refundingProvidersFrom } from './refund-providers.ts';
import { REFUND_SWEEP_AFTER_MS, resumeProviderRefunds, runProviderRefund } from './refunds.service.ts';

/*
 * Cards through Flutterwave, end to end over real sockets: an app configured with FLUTTERWAVE_* opens
 * checkouts on the simulator, the payer's browser pays on its hosted page and comes back to /pay, the
 * simulator's webhooks reach the app's callback route, and only Flutterwave's verify answer settles —
 * from the webhook, from the returning payer's GET /payments/:reference, or from the reconcile pass.
 */

const SECRET_KEY = 'FLWSECK_TEST-callbacks-secret-key-X';
const SECRET_HASH = 'flutterwave-callbacks-hash-for-tests';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: FlutterwaveSimulator;
let app: App;
let env: Env;
let webhookUrl: string;
let partnerId: string;
const warnings: string[] = [];
const log = { warn: (_object: object, message: string) => void warnings.push(message) };
/** What a settlement driven directly by this file reports to, and links its receipt email from. */
const settling = { log, publicUrl: TEST_PUBLIC_URL };

beforeAll(async () => {
  database = await createTestDatabase();
  // The app's address is known once it listens: the simulator's webhook URL is set then (the dashboard setting).
  simulator = await startFlutterwaveSimulator({
    secretKey: SECRET_KEY,
    secretHash: SECRET_HASH,
    webhookUrl: 'http://127.0.0.1:9/unset',
    refundSettlesAfterMs: 300,
  });
  env = testEnv({
    FLUTTERWAVE_BASE_URL: simulator.url,
    FLUTTERWAVE_SECRET_KEY: SECRET_KEY,
    FLUTTERWAVE_SECRET_HASH: SECRET_HASH,
  });
  app = await buildApp({ database, env, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  webhookUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/payments/callbacks/flutterwave`;
  simulator.setWebhookUrl(webhookUrl);
  partnerId = await createPayingInstitution(database.db, 'flw-cb');
});

afterAll(async () => {
  await app?.close();
  await simulator?.stop();
  await database?.close();
});

afterEach(() => simulator.setMode('normal'));

/** A signed-in student with an in-progress application, and the checkout they open for it. */
async function openCheckout() {
  const student = await signInAs(app, 'student');
  const { applicationId } = await createApplicationOf(database.db, partnerId, student.id);
  const response = await startPayment(student, applicationId);
  expect(response.statusCode, response.body).toBe(201);
  const { payment, checkout_url: link } = response.json<{
    data: { payment: { reference: string; amount: number; currency: string }; checkout_url: string };
  }>().data;
  return { student, applicationId, reference: payment.reference, link, payment };
}

const startPayment = (student: TestAccount, applicationId: string) =>
  app.inject({ method: 'POST', url: `/api/v1/applications/${applicationId}/payment`, headers: student.headers });

const checkoutOf = (student: TestAccount, reference: string) =>
  app.inject({ method: 'GET', url: `/api/v1/payments/${reference}`, headers: student.headers });

const webhook = (body: string, hash: string | null = SECRET_HASH) =>
  fetch(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(hash === null ? {} : { 'verif-hash': hash }) },
    body,
  });

const webhooksOf = (reference: string) =>
  simulator.webhooksSent().filter((entry) => entry.body.data.tx_ref === reference);

describe('cards through Flutterwave', () => {
  it('opens the checkout on Flutterwave’s hosted page; the pending one is answered again with our /pay page', async () => {
    const { student, applicationId, reference, link, payment } = await openCheckout();
    expect(link).toMatch(new RegExp(`^${simulator.url}/hosted/pay/`));
    const stored = await paymentByReference(database.db, reference);
    expect(stored).toMatchObject({ provider: 'flutterwave', status: 'pending' });
    const opened = simulator.checkouts().find((entry) => entry.txRef === reference)!;
    expect(opened).toMatchObject({
      amount: payment.amount,
      currency: payment.currency,
      redirectUrl: `${TEST_PUBLIC_URL}/pay?reference=${reference}`,
      customer: { email: student.email, name: 'Test Student' },
    });

    const again = await startPayment(student, applicationId);
    expect(again.statusCode).toBe(200);
    expect(again.json<{ data: { checkout_url: string } }>().data.checkout_url).toBe(`/pay?reference=${reference}`);

    const page = await checkoutOf(student, reference);
    expect(page.json<{ data: { status: string; methods: string[] } }>().data).toMatchObject({
      status: 'pending',
      methods: ['card'],
    });
  });

  it('a successful card: the webhook is verified and settles, with Flutterwave’s transaction id', async () => {
    const { student, reference, link } = await openCheckout();
    const paid = await payOnHostedPage(link, FLUTTERWAVE_CARDS.success);
    expect(paid.status).toBe(303);
    expect(`${paid.location!.origin}${paid.location!.pathname}`).toBe(`${TEST_PUBLIC_URL}/pay`);
    const transactionId = paid.location!.searchParams.get('transaction_id');

    const settled = await settledPayment(database.db, reference);
    expect(settled).toMatchObject({ status: 'succeeded', method: 'card', provider_transaction_id: transactionId });
    await simulator.idle();
    expect(webhooksOf(reference).map((entry) => entry.status)).toEqual([200]);
    expect((await checkoutOf(student, reference)).json<{ data: { status: string } }>().data.status).toBe('succeeded');
  });

  it('a declined card fails the payment with the declined message; a new checkout may be opened', async () => {
    const { student, applicationId, reference, link } = await openCheckout();
    const declined = await payOnHostedPage(link, FLUTTERWAVE_CARDS.insufficientFunds);
    expect(declined.location?.searchParams.get('status')).toBe('failed');
    expect(await settledPayment(database.db, reference)).toMatchObject({
      status: 'failed',
      failure_reason: PAYMENT_MESSAGES.card_declined,
    });
    const next = await startPayment(student, applicationId);
    expect(next.statusCode).toBe(201);
    expect(next.json<{ data: { checkout_url: string } }>().data.checkout_url).toMatch(/\/hosted\/pay\//);
  });

  it('no webhook at all: the returning payer’s page asks verify and shows the outcome at once', async () => {
    const { student, reference, link } = await openCheckout();
    const paid = await payOnHostedPage(link, FLUTTERWAVE_CARDS.noWebhook);
    await simulator.idle();
    expect(webhooksOf(reference)).toHaveLength(0);
    expect((await paymentByReference(database.db, reference)).status).toBe('pending');

    const page = await checkoutOf(student, reference);
    expect(page.json<{ data: { status: string } }>().data.status).toBe('succeeded');
    expect(await paymentByReference(database.db, reference)).toMatchObject({
      status: 'succeeded',
      provider_transaction_id: paid.location!.searchParams.get('transaction_id'),
    });
  });

  it('a webhook sent twice settles once', async () => {
    const { reference, link } = await openCheckout();
    await payOnHostedPage(link, FLUTTERWAVE_CARDS.duplicateWebhook);
    const first = await settledPayment(database.db, reference);
    await simulator.idle();
    expect(webhooksOf(reference).map((entry) => entry.status)).toEqual([200, 200]);
    expect(await paymentByReference(database.db, reference)).toEqual(first);
  });

  it('a webhook stating the wrong amount is not believed: the verify answer settles the amount asked', async () => {
    const { reference, link, payment } = await openCheckout();
    await payOnHostedPage(link, FLUTTERWAVE_CARDS.wrongAmountWebhook);
    await simulator.idle();
    expect(webhooksOf(reference)[0]!.body.data.amount).toBe(payment.amount * 10);
    expect(await settledPayment(database.db, reference)).toMatchObject({
      status: 'succeeded',
      amount: payment.amount,
    });
  });

  it('a webhook with a wrong hash is 401 and changes nothing; verify settles it when asked', async () => {
    const { student, reference, link } = await openCheckout();
    await payOnHostedPage(link, FLUTTERWAVE_CARDS.wrongHashWebhook);
    await simulator.idle();
    expect(webhooksOf(reference).map((entry) => entry.status)).toEqual([401]);
    expect((await paymentByReference(database.db, reference)).status).toBe('pending');

    const forged = JSON.stringify({
      event: 'charge.completed',
      data: { id: 1, tx_ref: reference, status: 'successful' },
    });
    for (const hash of [null, '', 'x'.repeat(SECRET_HASH.length), `${SECRET_HASH}x`]) {
      const response = await webhook(forged, hash);
      expect(response.status, String(hash)).toBe(401);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
        PAYMENT_MESSAGES.signature_invalid,
      );
    }
    expect((await paymentByReference(database.db, reference)).status).toBe('pending');
    expect((await checkoutOf(student, reference)).json<{ data: { status: string } }>().data.status).toBe('succeeded');
  });

  it('a webhook that is not JSON, names no payment or is too big is 4xx and cannot crash anything', async () => {
    expect((await webhook('{not json')).status).toBe(400);
    expect((await webhook(JSON.stringify({ event: 'charge.completed' }))).status).toBe(400);
    expect((await webhook(JSON.stringify({ data: { tx_ref: '../../x' } }))).status).toBe(400);
    expect((await webhook(JSON.stringify([1, 2, 3]))).status).toBe(400);
    const huge = await webhook(JSON.stringify({ data: { tx_ref: 'x'.repeat(70 * 1024) } }));
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
    // A reference of nobody's: verify knows no transaction, nothing to settle.
    expect((await webhook(JSON.stringify({ data: { tx_ref: 'pay_000000000000000000000000' } }))).status).toBe(200);
  });

  it('10 identical webhooks and the payer’s page at the same moment settle the payment once', async () => {
    const { student, reference, link } = await openCheckout();
    // Paid without a webhook, so that every request below races for the one settlement.
    await payOnHostedPage(link, FLUTTERWAVE_CARDS.noWebhook);
    const transaction = simulator.transactions().find((entry) => entry.tx_ref === reference)!;
    const body = JSON.stringify({ event: 'charge.completed', data: { id: transaction.id, tx_ref: reference } });
    const [page, ...answers] = await Promise.all([
      checkoutOf(student, reference),
      ...Array.from({ length: 10 }, () => webhook(body)),
    ]);
    expect(page.statusCode).toBe(200);
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const settled = await paymentByReference(database.db, reference);
    expect(settled).toMatchObject({
      status: 'succeeded',
      refund_status: null,
      provider_transaction_id: String(transaction.id),
    });
    // Later deliveries change nothing: the first settlement's time stands.
    await webhook(body);
    expect(await paymentByReference(database.db, reference)).toEqual(settled);
  });

  it('verify unreachable: the webhook is 503 and the payment stays pending; the reconcile pass settles it', async () => {
    const { student, reference, link } = await openCheckout();
    simulator.setMode('503');
    await payOnHostedPage(link, FLUTTERWAVE_CARDS.success);
    await simulator.idle();
    expect(webhooksOf(reference).map((entry) => entry.status)).toEqual([503]);
    const page = await checkoutOf(student, reference);
    expect(page.statusCode).toBe(200);
    expect(page.json<{ data: { status: string } }>().data.status).toBe('pending');

    simulator.setMode('close');
    const { provider } = cardProviderFrom(env, { db: database.db, log });
    const later = new Date(Date.now() + RECONCILE_AFTER_MS + 60_000);
    expect(await reconcilePendingPayments(database.db, provider, settling, later)).toBe(0);
    expect((await paymentByReference(database.db, reference)).status).toBe('pending');

    simulator.setMode('normal');
    expect(await reconcilePendingPayments(database.db, provider, settling, later)).toBeGreaterThanOrEqual(1);
    expect(await paymentByReference(database.db, reference)).toMatchObject({
      status: 'succeeded',
      provider_transaction_id: String(simulator.transactions().find((entry) => entry.tx_ref === reference)!.id),
    });
  });

  it('a checkout never paid expires after an hour; a new one opens; a late card success is recorded as owed back', async () => {
    const { student, applicationId, reference, link } = await openCheckout();
    const { provider } = cardProviderFrom(env, { db: database.db, log });
    const soon = new Date(Date.now() + RECONCILE_AFTER_MS + 60_000);
    await reconcilePendingPayments(database.db, provider, settling, soon);
    expect((await paymentByReference(database.db, reference)).status).toBe('pending');

    // While Flutterwave cannot answer, nothing is given up.
    const hours = new Date(Date.now() + 2 * 60 * 60_000);
    simulator.setMode('503');
    await reconcilePendingPayments(database.db, provider, settling, hours);
    expect((await paymentByReference(database.db, reference)).status).toBe('pending');
    simulator.setMode('normal');

    await reconcilePendingPayments(database.db, provider, settling, hours);
    expect(await paymentByReference(database.db, reference)).toMatchObject({
      status: 'failed',
      failure_reason: PAYMENT_MESSAGES.checkout_expired,
    });
    expect((await startPayment(student, applicationId)).statusCode).toBe(201);

    await payOnHostedPage(link, FLUTTERWAVE_CARDS.success);
    const until = Date.now() + 5_000;
    while ((await paymentByReference(database.db, reference)).refund_status === null && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await paymentByReference(database.db, reference)).toMatchObject({
      status: 'failed',
      refund_status: 'needed',
    });
  });

  it('a checkout cannot be opened while Flutterwave is unreachable: a clear 503, nothing recorded', async () => {
    const student = await signInAs(app, 'student');
    const { applicationId } = await createApplicationOf(database.db, partnerId, student.id);
    simulator.setMode('503');
    const response = await startPayment(student, applicationId);
    expect(response.statusCode).toBe(503);
    expect(response.json<{ error: { message: string } }>().error.message).toBe(
      PAYMENT_MESSAGES.card_provider_unavailable,
    );
    expect(response.headers['retry-after']).toBe('30');
    simulator.setMode('normal');
    expect((await startPayment(student, applicationId)).statusCode).toBe(201);
  });

  it('the sandbox’s own routes are not there when cards go through Flutterwave', async () => {
    const { student, reference } = await openCheckout();
    const sandbox = await app.inject({
      method: 'POST',
      url: `/api/v1/payments/sandbox/${reference}/complete`,
      headers: student.headers,
      payload: { method: 'card', card_number: '4242424242424242', expiry: '12/30', cvc: '123' },
    });
    expect(sandbox.statusCode).toBe(404);
    const callback = await app.inject({
      method: 'POST',
      url: '/api/v1/payments/callbacks/sandbox',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(callback.statusCode).toBe(404);
  });
});

describe('refunds through Flutterwave', () => {
  /** A card payment paid with `card` on the hosted page, then owed back (as a success after a waiver leaves it). */
  async function owedBack(card: string) {
    const { link, reference } = await openCheckout();
    expect((await payOnHostedPage(link, card)).status).toBe(303);
    const paid = await settledPayment(database.db, reference);
    expect(paid).toMatchObject({ status: 'succeeded', provider_transaction_id: expect.stringMatching(/^\d+$/) });
    await database.db
      .update(payments)
      .set({ status: 'failed', paid_at: null, refund_status: 'needed', refund_reference: randomUUID() })
      .where(eq(payments.id, paid.id));
    await database.db.update(payments).set({ refund_status: 'processing' }).where(eq(payments.id, paid.id));
    return paid;
  }

  const refunding = () => refundingProvidersFrom(env, { db: database.db, log });

  it('pending at first: the sweep asks Flutterwave again and closes it refunded, once', async () => {
    const paid = await owedBack(FLUTTERWAVE_CARDS.refundPendingThenCompleted);
    expect(await runProviderRefund(database.db, refunding(), paid.id, TEST_PUBLIC_URL, log)).toBe('pending');
    const pending = await paymentByReference(database.db, paid.reference);
    expect(pending).toMatchObject({ refund_status: 'processing', provider_refund_id: expect.stringMatching(/^\d+$/) });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const later = Date.now() + REFUND_SWEEP_AFTER_MS + 1000;
    expect(await resumeProviderRefunds(database.db, refunding(), TEST_PUBLIC_URL, log, later)).toBe(1);
    expect(await paymentByReference(database.db, paid.reference)).toMatchObject({
      refund_status: 'refunded',
      refund_method: 'provider',
      provider_refund_id: pending.provider_refund_id,
    });
    expect(
      simulator.refunds().filter((refund) => String(refund.transaction_id) === paid.provider_transaction_id),
    ).toHaveLength(1);
  });

  it('pending, then failed at Flutterwave: owed back again with Flutterwave’s status', async () => {
    const paid = await owedBack(FLUTTERWAVE_CARDS.refundPendingThenFailed);
    expect(await runProviderRefund(database.db, refunding(), paid.id, TEST_PUBLIC_URL, log)).toBe('pending');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const later = Date.now() + REFUND_SWEEP_AFTER_MS + 1000;
    expect(await resumeProviderRefunds(database.db, refunding(), TEST_PUBLIC_URL, log, later)).toBe(1);
    expect(await paymentByReference(database.db, paid.reference)).toMatchObject({
      refund_status: 'needed',
      refund_error: 'failed',
      refunded_at: null,
    });
  });
});
