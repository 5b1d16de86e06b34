import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentProvider as ProviderName, StaffPermission } from '@kaminuza/shared';
import { notifications, paymentDiscrepancies, payments } from '../../db/schema/index.ts';
import {
  FLUTTERWAVE_CARDS,
  startFlutterwaveSimulator,
  type FlutterwaveSimulator,
} from '../../simulators/flutterwave.ts';
import { MOMO_SCRIPTS, startMomoSimulator, type MomoSimulator } from '../../simulators/mtn-momo.ts';
import { TEST_PUBLIC_URL, testEnv, useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { payOnHostedPage } from '../../test/flutterwave.ts';
import { createPayingInstitution, createPendingPayment, paymentByReference } from '../../test/payments.ts';
import { cardProviderFrom } from './card-providers.ts';
import { mtnMomoProviderFrom } from './mobile-money-providers.ts';
import { expireMobileMoneyPayment, failMobileMoneyPayment, pollMobileMoneyPayment } from './mobile-money.service.ts';
import { RECONCILE_AFTER_MS, reconcilePendingPayments } from './payments.service.ts';
import type { FlutterwaveProvider } from './providers/flutterwave.ts';
import type { MobileMoneyProvider } from './providers/mobile-money.ts';
import {
  LATE_SUCCESS_GRACE_MS,
  PENDING_ASKED_FOR_MS,
  reconcileSettledPayments,
  recordLookups,
  type RecordLookup,
} from './reconciliation.service.ts';

/*
 * The daily reconciliation of failed payments, against the MoMo and Flutterwave simulators over HTTP: a
 * failure the provider says succeeded (its callback or webhook lost) is settled as owed back and shown to
 * finance staff; a failure the provider says failed, or does not know, agrees silently. A checkout Flutterwave
 * still holds pending is asked again the next night rather than called unknown, and a provider's rate limit
 * (429) is asked again later like an unreachable provider.
 */

const ctx = useTestApp();
const MOMO = { apiUser: randomUUID(), apiKey: 'momo-api-key', subscriptionKey: 'momo-subscription-key' };
const SECRET_KEY = 'FLWSECK_TEST-failures-secret-key-X';
const SECRET_HASH = 'flutterwave-failures-hash';
const NOWHERE = 'http://127.0.0.1:9/nowhere';
const log = { warn() {} };
const settling = { log, publicUrl: TEST_PUBLIC_URL };
const DAY = 24 * 3600_000;
/** The run happens the day after the payments settled. */
const tomorrow = () => new Date(Date.now() + DAY);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let momoSimulator: MomoSimulator;
let flutterwaveSimulator: FlutterwaveSimulator;
let momo: MobileMoneyProvider;
let flutterwave: FlutterwaveProvider;
let lookups: Map<ProviderName, RecordLookup>;

beforeAll(async () => {
  // A prompt expires at MoMo quickly here, and its late success follows shortly after.
  momoSimulator = await startMomoSimulator({ ...MOMO, expireAfterMs: 100, lateAfterMs: 100, payerDelayMs: 10 });
  momo = mtnMomoProviderFrom(
    testEnv({
      MTN_MOMO_BASE_URL: momoSimulator.url,
      MTN_MOMO_API_USER: MOMO.apiUser,
      MTN_MOMO_API_KEY: MOMO.apiKey,
      MTN_MOMO_SUBSCRIPTION_KEY: MOMO.subscriptionKey,
      MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
    }),
  )!;
  // Its webhooks reach no one: every one is lost, as the case under test is.
  flutterwaveSimulator = await startFlutterwaveSimulator({
    secretKey: SECRET_KEY,
    secretHash: SECRET_HASH,
    webhookUrl: NOWHERE,
  });
  const card = cardProviderFrom(
    testEnv({
      PAYMENTS_PROVIDER: 'flutterwave',
      FLUTTERWAVE_BASE_URL: flutterwaveSimulator.url,
      FLUTTERWAVE_SECRET_KEY: SECRET_KEY,
      FLUTTERWAVE_SECRET_HASH: SECRET_HASH,
    }),
    { db: ctx.db, log },
  );
  if (card.name !== 'flutterwave') throw new Error('expected Flutterwave');
  flutterwave = card.provider;
  lookups = recordLookups({
    mobileMoney: new Map([['mtn_momo', momo]]),
    card: flutterwave,
    publicUrl: TEST_PUBLIC_URL,
  });
});

afterAll(async () => {
  await momoSimulator?.stop();
  await flutterwaveSimulator?.stop();
});

const discrepanciesOf = (paymentId: string) =>
  ctx.db.select().from(paymentDiscrepancies).where(eq(paymentDiscrepancies.payment_id, paymentId));

const notificationsOf = (userId: string) =>
  ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.user_id, userId), eq(notifications.type, 'payment_discrepancies')));

const staffOf = (partnerId: string, permissions: StaffPermission[]): Promise<TestAccount> =>
  signInAs(ctx.app, 'staff', { partnerId, permissions });

/** A MoMo payment of 1500 RWF asked of a payer whose number ends in `script`: its prompt reaches MoMo. */
async function promptedPayment(partnerId: string, script: string) {
  const msisdn = `250788${String(randomBytes(2).readUInt16BE() % 1000).padStart(3, '0')}${script}`;
  const { reference } = await createPendingPayment(ctx.db, partnerId, {
    provider: 'mtn_momo',
    amount: 1500,
    currency: 'RWF',
    payerPhone: msisdn,
  });
  await momo.requestPayment({
    reference,
    amount: 1500,
    currency: 'RWF',
    msisdn,
    country: 'RW',
    payerMessage: 'Application fee',
    payeeNote: 'Application fee',
    callbackUrl: NOWHERE,
  });
  return reference;
}

/** Waits until MoMo's record of the prompt says `status`. */
async function untilMomoSays(reference: string, status: string) {
  const until = Date.now() + 5_000;
  while (momoSimulator.prompts().find((prompt) => prompt.referenceId === reference)?.status !== status) {
    if (Date.now() > until) throw new Error(`MoMo never said ${status} of ${reference}`);
    await sleep(20);
  }
}

/**
 * A MoMo payment whose prompt we expired (failed, timeout) and that the payer approved afterwards: MoMo's
 * late success was called back to no one, so nothing of ours heard of it.
 */
async function lateSuccessLost(partnerId: string) {
  const reference = await promptedPayment(partnerId, MOMO_SCRIPTS.lateSuccess);
  expect(await expireMobileMoneyPayment(ctx.db, momo, reference, settling)).toBe('settled');
  await untilMomoSays(reference, 'SUCCESSFUL');
  const payment = await paymentByReference(ctx.db, reference);
  expect(payment).toMatchObject({ status: 'failed', refund_status: null });
  return payment;
}

describe('failed mobile money payments in the daily reconciliation', () => {
  it('a late success whose callback was lost is owed back and shown once; other failures agree silently', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-failed-momo');
    const finance = await staffOf(partnerId, ['view_payments']);

    const late = await lateSuccessLost(partnerId);
    // Declined by the payer: MoMo says FAILED too.
    const declined = await promptedPayment(partnerId, MOMO_SCRIPTS.decline);
    await untilMomoSays(declined, 'FAILED');
    expect(await pollMobileMoneyPayment(ctx.db, momo, declined, settling)).toBe('settled');
    // Its prompt never reached MoMo: MoMo does not know it (404).
    const { reference: neverSent } = await createPendingPayment(ctx.db, partnerId, {
      provider: 'mtn_momo',
      amount: 1500,
      currency: 'RWF',
      payerPhone: '250788000111',
    });
    expect(await failMobileMoneyPayment(ctx.db, momo, neverSent, 'unavailable', settling)).toBe('settled');

    // Failed today: the run of today leaves them for tomorrow's.
    await reconcileSettledPayments(ctx.db, lookups, log);
    expect((await paymentByReference(ctx.db, late.reference)).reconciled_at).toBeNull();

    const run = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(run.unreachable).toBe(0);
    expect(run.owed).toBeGreaterThanOrEqual(1);
    const owed = await paymentByReference(ctx.db, late.reference);
    expect(owed).toMatchObject({ status: 'failed', refund_status: 'needed' });
    expect(owed.provider_transaction_id).toMatch(/\S/);
    expect(owed.reconciled_at).not.toBeNull();
    expect(await discrepanciesOf(late.id)).toMatchObject([
      {
        kind: 'status_mismatch',
        partner_id: partnerId,
        ours: { status: 'failed', amount: 1500, currency: 'RWF', transaction_id: null },
        theirs: { status: 'succeeded', amount: 1500, currency: 'RWF', transaction_id: owed.provider_transaction_id },
        resolved_at: null,
      },
    ]);
    for (const reference of [declined, neverSent]) {
      const agreeing = await paymentByReference(ctx.db, reference);
      expect(agreeing).toMatchObject({ status: 'failed', refund_status: null });
      expect(agreeing.reconciled_at).not.toBeNull();
      expect(await discrepanciesOf(agreeing.id)).toEqual([]);
    }
    expect(await notificationsOf(finance.id)).toMatchObject([{ data: { count: 1 } }]);

    // Compared again: now owed back, MoMo's success agrees; nothing is recorded or told twice.
    await ctx.db.update(payments).set({ reconciled_at: null }).where(eq(payments.partner_id, partnerId));
    const again = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(again.found).toBe(0);
    expect(await discrepanciesOf(late.id)).toHaveLength(1);
    expect((await paymentByReference(ctx.db, late.reference)).refund_status).toBe('needed');
    expect(await notificationsOf(finance.id)).toHaveLength(1);
  });

  it('a failure of the evening waits for the next night, its payer may still be paying', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-failed-grace');
    const late = await lateSuccessLost(partnerId);
    // Failed at 23:00 UTC, compared by the run at 00:30: too soon after the failure.
    const night = new Date(Date.UTC(2027, 0, 10, 0, 30));
    const failedAt = new Date(Date.UTC(2027, 0, 9, 23, 0)).toISOString();
    await ctx.db.update(payments).set({ updated_at: failedAt }).where(eq(payments.id, late.id));
    expect(night.getTime() - Date.parse(failedAt)).toBeLessThan(LATE_SUCCESS_GRACE_MS);

    await reconcileSettledPayments(ctx.db, lookups, log, night);
    expect(await paymentByReference(ctx.db, late.reference)).toMatchObject({
      refund_status: null,
      reconciled_at: null,
    });

    await reconcileSettledPayments(ctx.db, lookups, log, new Date(night.getTime() + DAY));
    expect(await paymentByReference(ctx.db, late.reference)).toMatchObject({ refund_status: 'needed' });
    expect(await discrepanciesOf(late.id)).toMatchObject([{ kind: 'status_mismatch' }]);
  });
});

describe('failed card payments in the daily reconciliation', () => {
  /** A Flutterwave checkout of 50 USD: its hosted page's link. */
  async function openCheckout(partnerId: string) {
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
    return { reference, checkoutUrl };
  }

  /** The reconcile pass, `after` ms on: it settles what Flutterwave's verify has decided, or expires. */
  const reconcilePass = (after = RECONCILE_AFTER_MS + 1000) =>
    reconcilePendingPayments(ctx.db, flutterwave, settling, new Date(Date.now() + after));

  it('a success after a decline on the same page, or after we expired the checkout, is owed back', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-failed-flw');
    const finance = await staffOf(partnerId, ['manage_finance']);

    // Declined, settled failed; then the payer tries another card on the same page, whose webhook is lost.
    const retried = await openCheckout(partnerId);
    expect((await payOnHostedPage(retried.checkoutUrl, FLUTTERWAVE_CARDS.declined)).status).toBe(303);
    await reconcilePass();
    expect(await paymentByReference(ctx.db, retried.reference)).toMatchObject({ status: 'failed' });
    const paidAfter = await payOnHostedPage(retried.checkoutUrl, FLUTTERWAVE_CARDS.noWebhook);
    expect(paidAfter.location?.searchParams.get('status')).toBe('successful');
    const transactionId = paidAfter.location!.searchParams.get('transaction_id');

    // Undecided for over its hour (its card awaiting the bank), expired by us; then paid after all.
    const expired = await openCheckout(partnerId);
    expect((await payOnHostedPage(expired.checkoutUrl, FLUTTERWAVE_CARDS.pendingAuthorisation)).status).toBe(303);
    await reconcilePass(flutterwave.checkoutExpiresAfterMs! + 1000);
    expect(await paymentByReference(ctx.db, expired.reference)).toMatchObject({ status: 'failed' });
    expect((await payOnHostedPage(expired.checkoutUrl, FLUTTERWAVE_CARDS.noWebhook)).status).toBe(303);

    // Declined only: Flutterwave says failed too.
    const declined = await openCheckout(partnerId);
    expect((await payOnHostedPage(declined.checkoutUrl, FLUTTERWAVE_CARDS.insufficientFunds)).status).toBe(303);
    await reconcilePass();

    await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    const owed = await paymentByReference(ctx.db, retried.reference);
    expect(owed).toMatchObject({ status: 'failed', refund_status: 'needed', provider_transaction_id: transactionId });
    expect(await discrepanciesOf(owed.id)).toMatchObject([
      {
        kind: 'status_mismatch',
        ours: { status: 'failed', amount: 5000, currency: 'USD' },
        theirs: { status: 'succeeded', amount: 5000, currency: 'USD', transaction_id: transactionId },
      },
    ]);
    const owedAfterExpiry = await paymentByReference(ctx.db, expired.reference);
    expect(owedAfterExpiry).toMatchObject({ status: 'failed', refund_status: 'needed' });
    expect(await discrepanciesOf(owedAfterExpiry.id)).toMatchObject([
      { kind: 'status_mismatch', theirs: { status: 'succeeded' } },
    ]);
    const agreeing = await paymentByReference(ctx.db, declined.reference);
    expect(agreeing).toMatchObject({ status: 'failed', refund_status: null });
    expect(agreeing.reconciled_at).not.toBeNull();
    expect(await discrepanciesOf(agreeing.id)).toEqual([]);
    expect(await notificationsOf(finance.id)).toMatchObject([{ data: { count: 2 } }]);
  });

  it('a transaction Flutterwave holds pending is asked again, not called unknown; days on, it differs', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-flw-pending');
    const { reference, checkoutUrl } = await openCheckout(partnerId);
    expect((await payOnHostedPage(checkoutUrl, FLUTTERWAVE_CARDS.pendingAuthorisation)).status).toBe(303);
    // Settled succeeded on our side (by hand: what a bug or a tampered row would leave).
    await ctx.db
      .update(payments)
      .set({ status: 'succeeded', method: 'card', paid_at: new Date().toISOString() })
      .where(eq(payments.reference, reference));
    const { id } = await paymentByReference(ctx.db, reference);

    const run = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(run.waiting).toBeGreaterThanOrEqual(1);
    expect(await discrepanciesOf(id)).toEqual([]);
    expect((await paymentByReference(ctx.db, reference)).reconciled_at).toBeNull();

    await reconcileSettledPayments(ctx.db, lookups, log, new Date(Date.now() + PENDING_ASKED_FOR_MS + DAY));
    expect(await discrepanciesOf(id)).toMatchObject([
      { kind: 'status_mismatch', ours: { status: 'succeeded' }, theirs: { status: 'pending' } },
    ]);
    expect((await paymentByReference(ctx.db, reference)).reconciled_at).not.toBeNull();
  });
});

describe('a provider limiting our rate during the daily reconciliation', () => {
  it('is asked again later, as one unreachable: nothing is recorded meanwhile', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-rate-limited');
    const reference = await promptedPayment(partnerId, MOMO_SCRIPTS.approve);
    await untilMomoSays(reference, 'SUCCESSFUL');
    expect(await pollMobileMoneyPayment(ctx.db, momo, reference, settling)).toBe('settled');
    const late = await lateSuccessLost(partnerId);
    const { reference: card, checkoutUrl } = await (async () => {
      const { reference: cardReference } = await createPendingPayment(ctx.db, partnerId, {
        provider: 'flutterwave',
        amount: 50,
        currency: 'USD',
      });
      const opened = await flutterwave.createCheckout({
        reference: cardReference,
        amount: 50,
        currency: 'USD',
        returnPath: '/pay',
        description: 'Application fee',
        payer: { email: 'payer@test.kaminuza.example', name: 'Test Payer' },
      });
      return { reference: cardReference, checkoutUrl: opened.checkoutUrl };
    })();
    expect((await payOnHostedPage(checkoutUrl, FLUTTERWAVE_CARDS.noWebhook)).status).toBe(303);
    await reconcilePendingPayments(ctx.db, flutterwave, settling, new Date(Date.now() + RECONCILE_AFTER_MS + 1000));
    expect(await paymentByReference(ctx.db, card)).toMatchObject({ status: 'succeeded' });
    const asked = [reference, late.reference, card];

    momoSimulator.setMode('429');
    flutterwaveSimulator.setMode('429');
    try {
      const limited = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
      expect(limited.unreachable).toBeGreaterThanOrEqual(3);
      for (const each of asked) {
        const payment = await paymentByReference(ctx.db, each);
        expect(payment.reconciled_at).toBeNull();
        expect(await discrepanciesOf(payment.id)).toEqual([]);
      }
      expect((await paymentByReference(ctx.db, late.reference)).refund_status).toBeNull();
    } finally {
      momoSimulator.setMode('normal');
      flutterwaveSimulator.setMode('normal');
    }

    await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    for (const each of asked) expect((await paymentByReference(ctx.db, each)).reconciled_at).not.toBeNull();
    expect(await discrepanciesOf((await paymentByReference(ctx.db, reference)).id)).toEqual([]);
    expect(await paymentByReference(ctx.db, late.reference)).toMatchObject({ refund_status: 'needed' });
  });
});
