import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentProvider as ProviderName, StaffPermission } from '@kaminuza/shared';
import { notifications, paymentDiscrepancies, payments } from '../../db/schema/index.ts';
import {
  FLUTTERWAVE_CARDS,
  startFlutterwaveSimulator,
  type FlutterwaveSimulator,
} from '../../simulators/flutterwave.ts';
import { TEST_PUBLIC_URL, testEnv, useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { payOnHostedPage } from '../../test/flutterwave.ts';
import {
  createApplicationOf,
  createPayingInstitution,
  createPendingPayment,
  paymentByReference,
} from '../../test/payments.ts';
import { cardProviderFrom } from './card-providers.ts';
import { RECONCILE_AFTER_MS, reconcilePendingPayments } from './payments.service.ts';
import type { FlutterwaveProvider } from './providers/flutterwave.ts';
import type { CallbackRequest, SandboxProvider } from './providers/sandbox-provider.ts';
import { reconcileSettledPayments, recordLookups, type RecordLookup } from './reconciliation.service.ts';

/*
 * The daily reconciliation of card payments: against Flutterwave's verify_by_reference, over HTTP to its
 * simulator, and against the sandbox, whose record is the charge it decided. A settled payment that agrees
 * is reconciled silently; one whose outcome, amount, currency or transaction differs at the provider, or
 * that the provider does not know, is recorded once and its institution's finance staff told once.
 */

/** The sandbox's callbacks reach the app's callback route, as a provider's would reach its public URL. */
async function deliverThroughApp(request: CallbackRequest): Promise<number> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: new URL(request.url).pathname,
    headers: request.headers,
    payload: request.body,
  });
  return response.statusCode;
}

const ctx = useTestApp(testEnv(), { sandboxCallbacks: { deliver: deliverThroughApp } });
const SECRET_KEY = 'FLWSECK_TEST-reconciliation-secret-key-X';
const SECRET_HASH = 'flutterwave-reconciliation-hash';
const log = { warn() {} };
/** The run happens the day after the payments settled. */
const tomorrow = () => new Date(Date.now() + 24 * 3600_000);

let simulator: FlutterwaveSimulator;
let flutterwave: FlutterwaveProvider;
let sandbox: SandboxProvider;
let lookups: Map<ProviderName, RecordLookup>;

const flutterwaveEnv = (secretKey = SECRET_KEY) =>
  testEnv({
    PAYMENTS_PROVIDER: 'flutterwave',
    FLUTTERWAVE_BASE_URL: simulator.url,
    FLUTTERWAVE_SECRET_KEY: secretKey,
    FLUTTERWAVE_SECRET_HASH: SECRET_HASH,
  });

function flutterwaveFrom(secretKey?: string): FlutterwaveProvider {
  const card = cardProviderFrom(flutterwaveEnv(secretKey), { db: ctx.db, log });
  if (card.name !== 'flutterwave') throw new Error('expected Flutterwave');
  return card.provider;
}

beforeAll(async () => {
  // No webhook reaches anyone here: Flutterwave's verify answer settles, as the reconcile pass does.
  simulator = await startFlutterwaveSimulator({
    secretKey: SECRET_KEY,
    secretHash: SECRET_HASH,
    webhookUrl: 'http://127.0.0.1:9/nowhere',
  });
  flutterwave = flutterwaveFrom();
  const card = cardProviderFrom(testEnv(), { db: ctx.db, log });
  if (card.name !== 'sandbox') throw new Error('expected the sandbox');
  sandbox = card.provider;
  // One deployment has one card provider; the two are compared here side by side.
  lookups = new Map([
    ...recordLookups({ mobileMoney: new Map(), card: flutterwave, publicUrl: TEST_PUBLIC_URL }),
    ...recordLookups({ mobileMoney: new Map(), card: sandbox, publicUrl: TEST_PUBLIC_URL }),
  ]);
});

afterAll(async () => {
  await simulator?.stop();
});

/** Writes the payment as settled by hand (what a bug or a tampered row would leave). */
async function markSucceeded(reference: string, values: Partial<typeof payments.$inferInsert> = {}) {
  await ctx.db
    .update(payments)
    .set({ status: 'succeeded', method: 'card', paid_at: new Date().toISOString(), ...values })
    .where(eq(payments.reference, reference));
  return (await paymentByReference(ctx.db, reference)).id;
}

const discrepanciesOf = (paymentId: string) =>
  ctx.db.select().from(paymentDiscrepancies).where(eq(paymentDiscrepancies.payment_id, paymentId));

const notificationsOf = (userId: string) =>
  ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.user_id, userId), eq(notifications.type, 'payment_discrepancies')));

const staffOf = (partnerId: string, permissions: StaffPermission[]): Promise<TestAccount> =>
  signInAs(ctx.app, 'staff', { partnerId, permissions });

/** The payments of an institution compared again, as if never reconciled. */
const forgetReconciled = (partnerId: string) =>
  ctx.db.update(payments).set({ reconciled_at: null }).where(eq(payments.partner_id, partnerId));

describe('the daily reconciliation against Flutterwave', () => {
  /**
   * A Flutterwave checkout of 50 USD, paid on its hosted page with `card`, and settled through the real
   * path: the reconcile pass asks verify_by_reference. Answers the payment's id.
   */
  async function paidByCard(partnerId: string, card: string) {
    const { reference } = await createPendingPayment(ctx.db, partnerId, {
      provider: 'flutterwave',
      amount: 50,
      currency: 'USD',
    });
    const { checkoutUrl } = await flutterwave.createCheckout({
      reference,
      amount: 50,
      currency: 'USD',
      returnPath: '/pay',
      description: 'Application fee',
      payer: { email: 'payer@test.kaminuza.example', name: 'Test Payer' },
    });
    expect((await payOnHostedPage(checkoutUrl, card)).status).toBe(303);
    await reconcilePendingPayments(
      ctx.db,
      flutterwave,
      { log, publicUrl: TEST_PUBLIC_URL },
      new Date(Date.now() + RECONCILE_AFTER_MS + 1000),
    );
    const payment = await paymentByReference(ctx.db, reference);
    expect(payment.status).not.toBe('pending');
    return payment;
  }

  it('reconciles what agrees silently; reports each difference once, and what Flutterwave does not know', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-flw');
    const finance = await staffOf(partnerId, ['view_payments']);

    const agreeing = await paidByCard(partnerId, FLUTTERWAVE_CARDS.success);
    expect(agreeing).toMatchObject({ status: 'succeeded', provider_transaction_id: expect.stringMatching(/^\d+$/) });
    // Owed back (a success after the payment failed): Flutterwave's success is what it must say.
    const owed = await paidByCard(partnerId, FLUTTERWAVE_CARDS.noWebhook);
    await markSucceeded(owed.reference, { status: 'failed', refund_status: 'needed', paid_at: null });
    // Declined at Flutterwave, succeeded on our side.
    const declined = await paidByCard(partnerId, FLUTTERWAVE_CARDS.insufficientFunds);
    expect(declined.status).toBe('failed');
    await markSucceeded(declined.reference);
    // Another amount, another currency, another transaction on our side than at Flutterwave.
    const otherAmount = await paidByCard(partnerId, FLUTTERWAVE_CARDS.success);
    await markSucceeded(otherAmount.reference, { amount: 60 });
    const otherCurrency = await paidByCard(partnerId, FLUTTERWAVE_CARDS.success);
    await markSucceeded(otherCurrency.reference, { currency: 'EUR' });
    const otherMovement = await paidByCard(partnerId, FLUTTERWAVE_CARDS.success);
    await markSucceeded(otherMovement.reference, { provider_transaction_id: '999' });
    // Never opened at Flutterwave: it knows no transaction of the reference.
    const { reference: neverOpened } = await createPendingPayment(ctx.db, partnerId, {
      provider: 'flutterwave',
      amount: 50,
      currency: 'USD',
    });
    const unknown = await markSucceeded(neverOpened);

    const run = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(run).toMatchObject({ unreachable: 0 });
    expect(await discrepanciesOf(agreeing.id)).toEqual([]);
    expect((await paymentByReference(ctx.db, agreeing.reference)).reconciled_at).not.toBeNull();
    expect(await discrepanciesOf(owed.id)).toEqual([]);
    expect(await discrepanciesOf(declined.id)).toMatchObject([
      {
        kind: 'status_mismatch',
        ours: { status: 'succeeded', amount: 5000, currency: 'USD' },
        theirs: { status: 'failed', amount: 5000, currency: 'USD', transaction_id: declined.provider_transaction_id },
      },
    ]);
    expect(await discrepanciesOf(otherAmount.id)).toMatchObject([
      { kind: 'amount_mismatch', ours: { amount: 6000 }, theirs: { status: 'succeeded', amount: 5000 } },
    ]);
    expect(await discrepanciesOf(otherCurrency.id)).toMatchObject([
      { kind: 'amount_mismatch', ours: { amount: 5000, currency: 'EUR' }, theirs: { amount: 5000, currency: 'USD' } },
    ]);
    expect(await discrepanciesOf(otherMovement.id)).toMatchObject([
      {
        kind: 'status_mismatch',
        ours: { transaction_id: '999' },
        theirs: { status: 'succeeded', transaction_id: otherMovement.provider_transaction_id },
      },
    ]);
    expect(await discrepanciesOf(unknown)).toMatchObject([
      { kind: 'missing_at_provider', theirs: { status: null, amount: null, currency: null } },
    ]);
    const told = await notificationsOf(finance.id);
    expect(told).toMatchObject([{ data: { count: 5 }, link: '/partner/finance#differences' }]);

    // Compared again, nothing is recorded twice and no one is told again.
    await forgetReconciled(partnerId);
    const again = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(again.found).toBe(0);
    expect(await discrepanciesOf(declined.id)).toHaveLength(1);
    expect(await notificationsOf(finance.id)).toHaveLength(1);
  });

  it('leaves a payment for the retry while Flutterwave is unreachable; a refused key is a difference', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-flw-down');
    const paid = await paidByCard(partnerId, FLUTTERWAVE_CARDS.success);

    simulator.setMode('503');
    try {
      const down = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
      expect(down.unreachable).toBeGreaterThanOrEqual(1);
      expect((await paymentByReference(ctx.db, paid.reference)).reconciled_at).toBeNull();
      expect(await discrepanciesOf(paid.id)).toEqual([]);
    } finally {
      simulator.setMode('normal');
    }

    // A key Flutterwave no longer takes: it would not say (its refusal's message is kept), which finance staff must hear of.
    const refusing = recordLookups({
      mobileMoney: new Map(),
      card: flutterwaveFrom('FLWSECK_TEST-revoked'),
      publicUrl: TEST_PUBLIC_URL,
    });
    await reconcileSettledPayments(ctx.db, refusing, log, tomorrow());
    expect(await discrepanciesOf(paid.id)).toMatchObject([
      { kind: 'unknown_at_provider', theirs: { code: 'Invalid authorization key' } },
    ]);
  });
});

describe('the daily reconciliation against the card sandbox', () => {
  /** A student's sandbox checkout paid with `cardNumber` through the app, as the hosted /pay page does. */
  async function paidInSandbox(partnerId: string, cardNumber: string) {
    const student = await signInAs(ctx.app, 'student');
    const { applicationId } = await createApplicationOf(ctx.db, partnerId, student.id);
    const started = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/applications/${applicationId}/payment`,
      headers: student.headers,
    });
    expect(started.statusCode, started.body).toBe(201);
    const { reference } = started.json<{ data: { payment: { reference: string } } }>().data.payment;
    const paid = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/payments/sandbox/${reference}/complete`,
      headers: student.headers,
      payload: { method: 'card', card_number: cardNumber, expiry: '12/30', cvc: '123' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return paymentByReference(ctx.db, reference);
  }

  it('reconciles what agrees silently; reports each difference once, and a payment it never charged', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-sandbox');
    const finance = await staffOf(partnerId, ['manage_finance']);

    const agreeing = await paidInSandbox(partnerId, '4242 4242 4242 4242');
    expect(agreeing.status).toBe('succeeded');
    const declined = await paidInSandbox(partnerId, '4000 0000 0000 0002');
    expect(declined.status).toBe('failed');
    await markSucceeded(declined.reference);
    const otherAmount = await paidInSandbox(partnerId, '4242 4242 4242 4242');
    await markSucceeded(otherAmount.reference, { amount: otherAmount.amount + 1 });
    const otherCurrency = await paidInSandbox(partnerId, '4242 4242 4242 4242');
    await markSucceeded(otherCurrency.reference, { currency: otherCurrency.currency === 'EUR' ? 'GBP' : 'EUR' });
    const { reference: neverCharged } = await createPendingPayment(ctx.db, partnerId, {
      provider: 'sandbox',
      amount: agreeing.amount,
      currency: agreeing.currency,
    });
    const unknown = await markSucceeded(neverCharged);

    const run = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(run).toMatchObject({ unreachable: 0 });
    expect(await discrepanciesOf(agreeing.id)).toEqual([]);
    expect((await paymentByReference(ctx.db, agreeing.reference)).reconciled_at).not.toBeNull();
    expect(await discrepanciesOf(declined.id)).toMatchObject([
      { kind: 'status_mismatch', ours: { status: 'succeeded' }, theirs: { status: 'failed', transaction_id: null } },
    ]);
    expect(await discrepanciesOf(otherAmount.id)).toMatchObject([{ kind: 'amount_mismatch' }]);
    expect(await discrepanciesOf(otherCurrency.id)).toMatchObject([
      { kind: 'amount_mismatch', theirs: { currency: otherCurrency.currency } },
    ]);
    expect(await discrepanciesOf(unknown)).toMatchObject([{ kind: 'missing_at_provider', theirs: { status: null } }]);
    expect(await notificationsOf(finance.id)).toMatchObject([{ data: { count: 4 } }]);

    await forgetReconciled(partnerId);
    expect((await reconcileSettledPayments(ctx.db, lookups, log, tomorrow())).found).toBe(0);
    expect(await notificationsOf(finance.id)).toHaveLength(1);
  });
});
