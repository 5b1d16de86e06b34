import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FINANCE_MESSAGES,
  type FinanceDiscrepancy,
  type FinanceDiscrepancyList,
  type StaffPermission,
} from '@kaminuza/shared';
import { auditLog, notifications, paymentDiscrepancies, payments } from '../../db/schema/index.ts';
import { startJobQueue, type JobQueue } from '../../lib/jobs/queue.ts';
import { AIRTEL_SCRIPTS, startAirtelSimulator, type AirtelSimulator } from '../../simulators/airtel-money.ts';
import { MOMO_SCRIPTS, startMomoSimulator, type MomoSimulator } from '../../simulators/mtn-momo.ts';
import { MPESA_SCRIPTS, startMpesaSimulator, type MpesaSimulator } from '../../simulators/mpesa-daraja.ts';
import { TEST_PUBLIC_URL, testEnv, useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createPayingInstitution, createPendingPayment, paymentByReference } from '../../test/payments.ts';
import { airtelMoneyProviderFrom, mpesaProviderFrom, mtnMomoProviderFrom } from './mobile-money-providers.ts';
import { pollMobileMoneyPayment } from './mobile-money.service.ts';
import { DAILY_RECONCILIATION_JOB, dailyReconciliationJob, paymentJobs } from './payments.jobs.ts';
import type { MobileMoneyProvider } from './providers/mobile-money.ts';
import { reconcileSettledPayments, recordLookups, type RecordLookup } from './reconciliation.service.ts';
import type { PaymentProvider as ProviderName } from '@kaminuza/shared';

/*
 * The daily reconciliation against the mobile money simulators over HTTP: settled payments whose record
 * differs from MoMo's own are recorded once as discrepancies, finance staff are told once per run, an
 * unreachable MoMo fails the job and its retry compares what was left; Airtel's and Daraja's status answers,
 * which state less, are compared for what they do state; and the finance routes that list and resolve them.
 * The card providers' are in daily-reconciliation-cards.test.ts.
 */

const ctx = useTestApp();
const CREDENTIALS = { apiUser: randomUUID(), apiKey: 'momo-api-key', subscriptionKey: 'momo-subscription-key' };
const NOWHERE = 'http://127.0.0.1:9/nowhere';
const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as FastifyBaseLogger;
const log = { warn() {} };
/** What a settlement driven directly by this file reports to, and links its receipt email from. */
const settling = { log, publicUrl: TEST_PUBLIC_URL };
/** The run happens the day after the payments settled. */
const tomorrow = () => new Date(Date.now() + 24 * 3600_000);

let simulator: MomoSimulator;
let airtelSimulator: AirtelSimulator;
let momo: MobileMoneyProvider;
let airtel: MobileMoneyProvider;
const AIRTEL_CREDENTIALS = { clientId: 'airtel-client', clientSecret: 'airtel-secret' };
let mpesaSimulator: MpesaSimulator;
let mpesa: MobileMoneyProvider;
const MPESA_CREDENTIALS = {
  consumerKey: 'mpesa-consumer-key',
  consumerSecret: 'mpesa-consumer-secret',
  shortcode: '174379',
  passkey: 'mpesa-passkey-for-reconciliation-tests',
};
let lookups: Map<ProviderName, RecordLookup>;

const momoEnv = () => ({
  MTN_MOMO_BASE_URL: simulator.url,
  MTN_MOMO_API_USER: CREDENTIALS.apiUser,
  MTN_MOMO_API_KEY: CREDENTIALS.apiKey,
  MTN_MOMO_SUBSCRIPTION_KEY: CREDENTIALS.subscriptionKey,
  MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
});

beforeAll(async () => {
  simulator = await startMomoSimulator({ ...CREDENTIALS, expireAfterMs: 60_000, payerDelayMs: 10 });
  momo = mtnMomoProviderFrom(testEnv(momoEnv()))!;
  airtelSimulator = await startAirtelSimulator({ ...AIRTEL_CREDENTIALS, payerDelayMs: 10 });
  airtel = airtelMoneyProviderFrom(
    testEnv({
      AIRTEL_MONEY_BASE_URL: airtelSimulator.url,
      AIRTEL_MONEY_CLIENT_ID: AIRTEL_CREDENTIALS.clientId,
      AIRTEL_MONEY_CLIENT_SECRET: AIRTEL_CREDENTIALS.clientSecret,
    }),
  )!;
  mpesaSimulator = await startMpesaSimulator({ ...MPESA_CREDENTIALS, expireAfterMs: 60_000, payerDelayMs: 10 });
  mpesa = mpesaProviderFrom(
    testEnv({
      MPESA_BASE_URL: mpesaSimulator.url,
      MPESA_CONSUMER_KEY: MPESA_CREDENTIALS.consumerKey,
      MPESA_CONSUMER_SECRET: MPESA_CREDENTIALS.consumerSecret,
      MPESA_SHORTCODE: MPESA_CREDENTIALS.shortcode,
      MPESA_PASSKEY: MPESA_CREDENTIALS.passkey,
    }),
  )!;
  lookups = recordLookups({
    mobileMoney: new Map([
      ['mtn_momo', momo],
      ['airtel_money', airtel],
      ['mpesa', mpesa],
    ]),
    card: null,
    publicUrl: TEST_PUBLIC_URL,
  });
});

afterAll(async () => {
  await simulator?.stop();
  await airtelSimulator?.stop();
  await mpesaSimulator?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A MoMo payment of 1500 RWF asked of a payer whose number ends in `script`, decided by the simulator. */
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
  await sleep(100);
  return reference;
}

/** Writes the payment as settled by hand (what a bug or a tampered row would leave). */
async function markSucceeded(reference: string, values: Partial<typeof payments.$inferInsert> = {}) {
  await ctx.db
    .update(payments)
    .set({ status: 'succeeded', method: 'mobile_money', paid_at: new Date().toISOString(), ...values })
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

describe('the daily reconciliation against MoMo', () => {
  it('records each difference once, tells finance staff once, and a second run adds nothing', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon');
    const finance = await staffOf(partnerId, ['view_payments']);
    const reviewer = await staffOf(partnerId, ['review_applications']);

    // Settled through the real path: MoMo's record and ours agree.
    const agreeing = await promptedPayment(partnerId, MOMO_SCRIPTS.approve);
    expect(await pollMobileMoneyPayment(ctx.db, momo, agreeing, settling)).toBe('settled');
    // MoMo says FAILED; our row says succeeded.
    const declined = await markSucceeded(await promptedPayment(partnerId, MOMO_SCRIPTS.decline));
    // MoMo's record says one more than asked; our row says succeeded for 1500.
    const otherAmount = await markSucceeded(await promptedPayment(partnerId, MOMO_SCRIPTS.wrongAmountRecord));
    // Never asked of MoMo at all: it answers 404.
    const { reference: unknown } = await createPendingPayment(ctx.db, partnerId, {
      provider: 'mtn_momo',
      amount: 1500,
      currency: 'RWF',
    });
    const missing = await markSucceeded(unknown);
    // Still pending: not settled, not compared.
    const pending = await promptedPayment(partnerId, MOMO_SCRIPTS.timeout);

    // Settled today: the run of today leaves them for tomorrow's.
    expect((await reconcileSettledPayments(ctx.db, lookups, log)).compared).toBe(0);

    const first = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(first.unreachable).toBe(0);
    expect(await discrepanciesOf((await paymentByReference(ctx.db, agreeing)).id)).toEqual([]);
    const [status] = await discrepanciesOf(declined);
    expect(status).toMatchObject({
      kind: 'status_mismatch',
      partner_id: partnerId,
      ours: { status: 'succeeded', amount: 1500, currency: 'RWF' },
      theirs: { status: 'failed', amount: 1500, currency: 'RWF' },
      resolved_at: null,
    });
    const [amount] = await discrepanciesOf(otherAmount);
    expect(amount).toMatchObject({
      kind: 'amount_mismatch',
      ours: { amount: 1500 },
      theirs: { status: 'succeeded', amount: 1501, currency: 'RWF' },
    });
    expect(await discrepanciesOf(missing)).toMatchObject([
      { kind: 'missing_at_provider', theirs: { status: null, amount: null, code: 'RESOURCE_NOT_FOUND' } },
    ]);
    expect((await paymentByReference(ctx.db, pending)).reconciled_at).toBeNull();
    expect((await paymentByReference(ctx.db, agreeing)).reconciled_at).not.toBeNull();

    const told = await notificationsOf(finance.id);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ data: { count: 3 }, link: '/partner/finance#differences', push: false });
    expect(await notificationsOf(reviewer.id)).toEqual([]);

    // Every payment is reconciled: a second run (or the same day's retry) compares nothing and tells no one.
    const second = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(second).toMatchObject({ found: 0 });
    expect(await discrepanciesOf(declined)).toHaveLength(1);
    expect(await notificationsOf(finance.id)).toHaveLength(1);

    // Compared again (e.g. reconciled_at cleared), the open difference is not doubled either.
    await ctx.db.update(payments).set({ reconciled_at: null }).where(eq(payments.id, declined));
    const again = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(again.found).toBe(0);
    expect(await discrepanciesOf(declined)).toHaveLength(1);
  });

  it('a payment owed back must be a success at MoMo: a late success agrees, a failure there differs', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-refund');
    const agreeing = await promptedPayment(partnerId, MOMO_SCRIPTS.approve);
    const owed = await markSucceeded(agreeing, { status: 'failed', refund_status: 'needed', paid_at: null });
    const wrong = await markSucceeded(await promptedPayment(partnerId, MOMO_SCRIPTS.insufficientFunds), {
      status: 'failed',
      refund_status: 'needed',
      paid_at: null,
    });
    await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(await discrepanciesOf(owed)).toEqual([]);
    expect(await discrepanciesOf(wrong)).toMatchObject([
      { kind: 'status_mismatch', ours: { status: 'failed' }, theirs: { status: 'failed' } },
    ]);
  });

  it('an unreachable MoMo fails the job, records nothing, and the retry compares the payment', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-down');
    const reference = await promptedPayment(partnerId, MOMO_SCRIPTS.decline);
    const paymentId = await markSucceeded(reference);
    let queue: JobQueue | undefined;
    try {
      queue = await startJobQueue({
        backend: ctx.database.connection,
        // Unscheduled here: a scheduled queue looks for due retries only every 30 s.
        definitions: [
          {
            ...dailyReconciliationJob({
              db: ctx.db,
              lookups,
              retry: { retryLimit: 5, retryDelaySeconds: 1, retryDelayMaxSeconds: 1, expireInSeconds: 30 },
              clock: tomorrow,
            }),
            schedule: undefined,
          },
        ],
        log: silent,
        work: true,
      });
      simulator.setMode('503');
      await queue.send(DAILY_RECONCILIATION_JOB, {});
      await sleep(2500);
      expect((await paymentByReference(ctx.db, reference)).reconciled_at).toBeNull();
      expect(await discrepanciesOf(paymentId)).toEqual([]);

      simulator.setMode('normal');
      const until = Date.now() + 15_000;
      while ((await paymentByReference(ctx.db, reference)).reconciled_at === null && Date.now() < until) {
        await sleep(100);
      }
      expect(await discrepanciesOf(paymentId)).toMatchObject([{ kind: 'status_mismatch' }]);
      expect((await queue.counts()).find((count) => count.queue === DAILY_RECONCILIATION_JOB)).toMatchObject({
        failed: 0,
      });
    } finally {
      simulator.setMode('normal');
      await queue?.stop();
    }
  });

  it('is a job of every deployment, on a nightly UTC schedule', () => {
    const job = paymentJobs({ db: ctx.db, env: testEnv(), log }).find((d) => d.name === DAILY_RECONCILIATION_JOB);
    expect(job?.schedule).toBe('30 0 * * *');
  });
});

describe('the daily reconciliation against Airtel Money', () => {
  /** An Airtel payment of 1500 UGX approved at once, settled through the real path. */
  async function approvedAirtelPayment(partnerId: string) {
    const msisdn = `2567500${String(randomBytes(2).readUInt16BE() % 1000).padStart(3, '0')}${AIRTEL_SCRIPTS.approve}`;
    const { reference } = await createPendingPayment(ctx.db, partnerId, {
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
      payeeNote: 'Application fee',
      callbackUrl: NOWHERE,
    });
    await sleep(100);
    expect(await pollMobileMoneyPayment(ctx.db, airtel, reference, settling)).toBe('settled');
    return (await paymentByReference(ctx.db, reference)).id;
  }

  it('finds another transaction id; compares no amount, which its status does not state', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-airtel', 'UG');
    const agreeing = await approvedAirtelPayment(partnerId);
    const otherAmount = await approvedAirtelPayment(partnerId);
    await ctx.db.update(payments).set({ amount: 2000 }).where(eq(payments.id, otherAmount));
    const otherMovement = await approvedAirtelPayment(partnerId);
    await ctx.db
      .update(payments)
      .set({ provider_transaction_id: 'MP000000.0000.X00000' })
      .where(eq(payments.id, otherMovement));

    await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(await discrepanciesOf(agreeing)).toEqual([]);
    // Airtel's status states no amount: an amount can only be compared where the provider states one.
    expect(await discrepanciesOf(otherAmount)).toEqual([]);
    expect(await discrepanciesOf(otherMovement)).toMatchObject([
      { kind: 'status_mismatch', ours: { transaction_id: 'MP000000.0000.X00000' }, theirs: { status: 'succeeded' } },
    ]);
  });
});

describe('the daily reconciliation against M-Pesa (Daraja)', () => {
  /**
   * An M-Pesa payment of 1500 KES pushed to a payer whose number ends in `script`, Daraja's CheckoutRequestID
   * kept beside it as the start of a payment keeps it, and decided by the simulator.
   */
  async function pushedPayment(partnerId: string, script: string) {
    const msisdn = `2547123${String(randomBytes(2).readUInt16BE() % 100).padStart(2, '0')}${script}`;
    const { reference } = await createPendingPayment(ctx.db, partnerId, {
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
      payeeNote: 'Application fee',
      callbackUrl: NOWHERE,
    });
    await ctx.db
      .update(payments)
      .set({ provider_reference: providerReference })
      .where(eq(payments.reference, reference));
    await sleep(100);
    return { reference, checkoutRequestId: providerReference! };
  }

  it('compares the outcome Daraja states, not the amount or receipt it does not; a failure there differs', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-mpesa', 'KE');
    const finance = await staffOf(partnerId, ['manage_finance']);

    // Settled through the real path, and the payer's M-Pesa receipt kept on our side: Daraja's query
    // answers neither amount nor receipt number, so neither can differ from what it does not say.
    const approved = await pushedPayment(partnerId, MPESA_SCRIPTS.approve);
    expect(await pollMobileMoneyPayment(ctx.db, mpesa, approved.reference, settling)).toBe('settled');
    const receipt = mpesaSimulator.prompts().find((p) => p.id === approved.checkoutRequestId)!.MpesaReceiptNumber;
    expect(receipt).toMatch(/^[A-Z0-9]{10}$/);
    const agreeing = await markSucceeded(approved.reference, { provider_transaction_id: receipt, amount: 1800 });
    // Cancelled on the phone (ResultCode 1032) and a wrong PIN (2001); our rows say succeeded.
    const cancelled = await markSucceeded((await pushedPayment(partnerId, MPESA_SCRIPTS.decline)).reference);
    const wrongPin = await markSucceeded((await pushedPayment(partnerId, MPESA_SCRIPTS.wrongPin)).reference);
    // A CheckoutRequestID Daraja never issued: its query refuses it as invalid.
    const { reference: neverPushed } = await createPendingPayment(ctx.db, partnerId, {
      provider: 'mpesa',
      amount: 1500,
      currency: 'KES',
      providerReference: 'ws_CO_270520261200000001254712300000',
    });
    const unknown = await markSucceeded(neverPushed);
    // No CheckoutRequestID kept at all: Daraja cannot be asked about it.
    const { reference: unnamed } = await createPendingPayment(ctx.db, partnerId, {
      provider: 'mpesa',
      amount: 1500,
      currency: 'KES',
    });
    const cannotAsk = await markSucceeded(unnamed);

    const run = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(run.unreachable).toBe(0);
    expect(await discrepanciesOf(agreeing)).toEqual([]);
    expect((await paymentByReference(ctx.db, approved.reference)).reconciled_at).not.toBeNull();
    expect(await discrepanciesOf(cancelled)).toMatchObject([
      {
        kind: 'status_mismatch',
        ours: { status: 'succeeded', amount: 150_000, currency: 'KES' },
        theirs: { status: 'failed', amount: null, currency: 'KES', transaction_id: null },
      },
    ]);
    expect(await discrepanciesOf(wrongPin)).toMatchObject([{ kind: 'status_mismatch', theirs: { status: 'failed' } }]);
    expect(await discrepanciesOf(unknown)).toMatchObject([
      { kind: 'missing_at_provider', theirs: { status: null, code: '400.002.02' } },
    ]);
    expect(await discrepanciesOf(cannotAsk)).toMatchObject([{ kind: 'unknown_at_provider', theirs: { code: null } }]);
    expect(await notificationsOf(finance.id)).toMatchObject([{ data: { count: 4 } }]);

    await ctx.db.update(payments).set({ reconciled_at: null }).where(eq(payments.partner_id, partnerId));
    expect((await reconcileSettledPayments(ctx.db, lookups, log, tomorrow())).found).toBe(0);
    expect(await notificationsOf(finance.id)).toHaveLength(1);
  });

  it('a payment owed back agrees with a success at Daraja; an unreachable Daraja is asked again later', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-mpesa-owed', 'KE');
    const { reference } = await pushedPayment(partnerId, MPESA_SCRIPTS.approve);
    const owed = await markSucceeded(reference, { status: 'failed', refund_status: 'needed', paid_at: null });

    mpesaSimulator.setMode('503');
    try {
      const down = await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
      expect(down.unreachable).toBeGreaterThanOrEqual(1);
      expect((await paymentByReference(ctx.db, reference)).reconciled_at).toBeNull();
    } finally {
      mpesaSimulator.setMode('normal');
    }
    await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect((await paymentByReference(ctx.db, reference)).reconciled_at).not.toBeNull();
    expect(await discrepanciesOf(owed)).toEqual([]);
  });
});

async function listDifferences(account: TestAccount, partnerId: string) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/partners/${partnerId}/finance/discrepancies`,
    headers: account.headers,
  });
  return { status: response.statusCode, body: response.json() as { data: FinanceDiscrepancyList } };
}

async function resolve(account: TestAccount, partnerId: string, id: string, payload: object) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${partnerId}/finance/discrepancies/${id}/resolve`,
    headers: account.headers,
    payload,
  });
  return {
    status: response.statusCode,
    body: response.json() as { data: FinanceDiscrepancy; error?: { message: string; details?: unknown } },
  };
}

describe('the finance differences', () => {
  it('lists the open ones and resolves one with a note (audited); refusals', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'recon-routes');
    const otherId = await createPayingInstitution(ctx.db, 'recon-routes-other');
    const paymentId = await markSucceeded(await promptedPayment(partnerId, MOMO_SCRIPTS.decline));
    await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    const manager = await staffOf(partnerId, ['manage_finance']);
    const viewer = await staffOf(partnerId, ['view_payments']);
    const reviewer = await staffOf(partnerId, ['review_applications']);
    const outsider = await staffOf(otherId, ['all']);
    const student = await signInAs(ctx.app, 'student');

    const listed = await listDifferences(viewer, partnerId);
    expect(listed.status).toBe(200);
    const item = listed.body.data.items.find((found) => found.payment.id === paymentId)!;
    expect(item).toMatchObject({
      kind: 'status_mismatch',
      payment: { provider: 'mtn_momo' },
      ours: { status: 'succeeded' },
      theirs: { status: 'failed' },
      resolved_at: null,
    });
    expect(listed.body.data.items.every((found) => found.payment.id !== undefined)).toBe(true);
    expect((await listDifferences(reviewer, partnerId)).status).toBe(403);
    expect((await listDifferences(outsider, partnerId)).status).toBe(404);
    expect((await listDifferences(student, partnerId)).status).toBe(403);
    expect((await listDifferences(outsider, otherId)).body.data.items).toEqual([]);

    expect((await resolve(viewer, partnerId, item.id, { note: 'Checked' })).status).toBe(403);
    expect((await resolve(outsider, otherId, item.id, { note: 'Checked' })).status).toBe(404);
    const blank = await resolve(manager, partnerId, item.id, { note: '  ' });
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.body)).toContain(FINANCE_MESSAGES.discrepancy_note_required);

    const done = await resolve(manager, partnerId, item.id, { note: 'MoMo confirmed the failure; payment voided.' });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ id: item.id, note: 'MoMo confirmed the failure; payment voided.' });
    expect(done.body.data.resolved_at).toMatch(/Z$/);
    const [row] = await discrepanciesOf(paymentId);
    expect(row!.resolved_by).toBe(manager.id);
    const audit = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment.discrepancy_resolved'), eq(auditLog.target_id, paymentId)));
    expect(audit).toHaveLength(1);
    expect((await listDifferences(viewer, partnerId)).body.data.items.map((found) => found.id)).not.toContain(item.id);

    const twice = await resolve(manager, partnerId, item.id, { note: 'Again' });
    expect(twice.status).toBe(409);
    expect(twice.body.error?.message).toBe(FINANCE_MESSAGES.discrepancy_resolved);

    // Resolved, the same difference found again is a new open one.
    await ctx.db.update(payments).set({ reconciled_at: null }).where(eq(payments.id, paymentId));
    await reconcileSettledPayments(ctx.db, lookups, log, tomorrow());
    expect(await discrepanciesOf(paymentId)).toHaveLength(2);
  });
});
