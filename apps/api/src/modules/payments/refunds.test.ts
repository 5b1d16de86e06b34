import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINANCE_MESSAGES, type FinancePage, type FinancePayment } from '@kaminuza/shared';
import { buildApp, type App } from '../../app.ts';
import { auditLog, notifications, payments } from '../../db/schema/index.ts';
import { AIRTEL_SCRIPTS, startAirtelSimulator, type AirtelSimulator } from '../../simulators/airtel-money.ts';
import { testEnv } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import {
  createPayingInstitution,
  createPendingPayment,
  paymentByReference,
  promptedPayment,
} from '../../test/payments.ts';
import { airtelMoneyProviderFrom } from './mobile-money-providers.ts';
import { pollMobileMoneyPayment } from './mobile-money.service.ts';
import type { MobileMoneyProvider } from './providers/mobile-money.ts';
import { refundingProvidersFrom, type RefundingProviders } from './refund-providers.ts';
import { REFUND_SWEEP_AFTER_MS, resumeProviderRefunds, runProviderRefund } from './refunds.service.ts';

/*
 * Refunds through the provider's API, over HTTP against the Airtel Money simulator: staff ask once, the
 * job refunds, the applicant is told; two clicks refund once; a refusal is owed back again with the
 * provider's code; an unreachable provider leaves the refund under way until the sweep gets an answer;
 * and every refusal of the route.
 */

const CREDENTIALS = { clientId: randomUUID(), clientSecret: 'airtel-refund-secret' };
const log = { warn() {} };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: AirtelSimulator;
let app: App;
let airtel: MobileMoneyProvider;
let refunding: RefundingProviders;
let partnerId: string;
let finance: TestAccount;

const publicUrl = () => testEnv().PUBLIC_URL;

beforeAll(async () => {
  database = await createTestDatabase();
  simulator = await startAirtelSimulator({ ...CREDENTIALS, payerDelayMs: 5 });
  const env = testEnv({
    AIRTEL_MONEY_BASE_URL: simulator.url,
    AIRTEL_MONEY_CLIENT_ID: CREDENTIALS.clientId,
    AIRTEL_MONEY_CLIENT_SECRET: CREDENTIALS.clientSecret,
  });
  // The queue runs here: the refund job staff start is what calls Airtel.
  app = await buildApp({ database, env, logger: false, work: true });
  airtel = airtelMoneyProviderFrom(env)!;
  refunding = refundingProvidersFrom(env, { db: database.db, log });
  partnerId = await createPayingInstitution(database.db, 'refunds', 'UG');
  finance = await signInAs(app, 'staff', { partnerId, permissions: ['manage_finance'] });
});

afterAll(async () => {
  await app?.close();
  await simulator?.stop();
  await database?.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An Airtel payment of 1500 UGX that succeeded and is owed back (as a success arriving after the prompt
 * expired leaves it: failed, with Airtel's transaction id and refund 'needed').
 */
async function owedBack() {
  const created = await promptedPayment(database.db, partnerId, airtel, {
    script: AIRTEL_SCRIPTS.approve,
    amount: 1500,
    currency: 'UGX',
    callbackUrl: 'http://127.0.0.1:9/unused',
  });
  const { reference } = created;
  while ((await pollMobileMoneyPayment(database.db, airtel, reference, { log, publicUrl: publicUrl() })) === 'pending')
    await pause(20);
  const paid = await paymentByReference(database.db, reference);
  expect(paid).toMatchObject({ status: 'succeeded', provider_transaction_id: expect.stringMatching(/^MP/) });
  await database.db
    .update(payments)
    .set({ status: 'failed', paid_at: null, refund_status: 'needed' })
    .where(eq(payments.id, paid.id));
  return { ...created, id: paid.id, airtelMoneyId: paid.provider_transaction_id! };
}

async function askRefund(account: TestAccount, paymentId: string, partner = partnerId) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v1/partners/${partner}/finance/payments/${paymentId}/provider-refund`,
    headers: account.headers,
  });
  return {
    status: response.statusCode,
    body: response.json() as { data: FinancePayment; error?: { message: string } },
  };
}

async function refundClosed(paymentId: string, within = 8000) {
  const until = Date.now() + within;
  for (;;) {
    const [row] = await database.db.select().from(payments).where(eq(payments.id, paymentId));
    if (row!.refund_status !== 'processing' || Date.now() > until) return row!;
    await pause(50);
  }
}

async function leaseFree(paymentId: string) {
  for (let tries = 0; tries < 100; tries += 1) {
    const [row] = await database.db.select().from(payments).where(eq(payments.id, paymentId));
    if (row!.refund_lease_until === null) return;
    await pause(50);
  }
  throw new Error('the refund stayed leased');
}

const auditOf = (paymentId: string, action: string) =>
  database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.target_id, paymentId), eq(auditLog.action, action)));

describe('refunds through the provider', () => {
  it('staff ask once; the job refunds through Airtel, the applicant is told, the list shows it', async () => {
    const payment = await owedBack();
    const listed = await app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/finance/payments?needs_refund=true`,
      headers: finance.headers,
    });
    const row = (listed.json() as { data: FinancePage }).data.items.find((item) => item.id === payment.id);
    expect(row).toMatchObject({ refund_status: 'needed', provider_refund_available: true });

    const asked = await askRefund(finance, payment.id);
    expect(asked.status).toBe(200);
    expect(asked.body.data).toMatchObject({
      refund_status: 'processing',
      provider_refund_available: false,
      refund_requested_at: expect.any(String),
    });

    const closed = await refundClosed(payment.id);
    expect(closed).toMatchObject({ refund_status: 'refunded', refund_method: 'provider', refund_error: null });
    expect(closed.refunded_at).not.toBeNull();
    expect(simulator.prompts().find((prompt) => prompt.id === payment.reference)?.refunded).toBe(true);
    expect(await auditOf(payment.id, 'payment.refund_requested')).toHaveLength(1);
    expect(await auditOf(payment.id, 'payment.refunded_by_provider')).toHaveLength(1);
    const told = await database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.user_id, payment.userId), eq(notifications.type, 'payment_refunded')));
    expect(told).toHaveLength(1);
    expect(told[0]!.data).toMatchObject({ amount: '1500', currency: 'UGX', reference: payment.reference });

    // Still under "refund owed" until it closed; now it is not.
    const after = await app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/finance/payments?needs_refund=false`,
      headers: finance.headers,
    });
    const done = (after.json() as { data: FinancePage }).data.items.find((item) => item.id === payment.id);
    expect(done).toMatchObject({ refund_status: 'refunded', refund_method: 'provider' });
  });

  it('two clicks at once make one refund: the second is told it is under way', async () => {
    const payment = await owedBack();
    const answers = await Promise.all([askRefund(finance, payment.id), askRefund(finance, payment.id)]);
    expect(answers.map(({ status }) => status).sort()).toEqual([200, 409]);
    expect(answers.find(({ status }) => status === 409)!.body.error!.message).toBe(FINANCE_MESSAGES.refund_in_progress);
    expect(await refundClosed(payment.id)).toMatchObject({ refund_status: 'refunded' });
    expect(await auditOf(payment.id, 'payment.refund_requested')).toHaveLength(1);
    expect(await auditOf(payment.id, 'payment.refunded_by_provider')).toHaveLength(1);
    // Asked again once refunded: nothing is owed.
    const again = await askRefund(finance, payment.id);
    expect(again.status).toBe(409);
    expect(again.body.error!.message).toBe(FINANCE_MESSAGES.refund_not_needed);
  });

  it('a refund Airtel refuses is owed back again, with Airtel’s code, and can be recorded by hand', async () => {
    const payment = await owedBack();
    // Given back already outside Kaminuza: Airtel refuses a second refund of the same transaction.
    await airtel.refunds!.refund({
      refundReference: randomUUID(),
      paymentReference: payment.reference,
      providerReference: null,
      providerTransactionId: payment.airtelMoneyId,
      amount: 1500,
      currency: 'UGX',
      country: 'UG',
      resultUrl: 'http://127.0.0.1:9/unused',
    });
    expect((await askRefund(finance, payment.id)).status).toBe(200);
    const closed = await refundClosed(payment.id);
    expect(closed).toMatchObject({ refund_status: 'needed', refund_error: 'DP00800001008', refunded_at: null });
    expect(await auditOf(payment.id, 'payment.refund_failed')).toHaveLength(1);

    const byHand = await app.inject({
      method: 'POST',
      url: `/api/v1/partners/${partnerId}/finance/payments/${payment.id}/refund`,
      headers: finance.headers,
      payload: { note: 'Refunded from the Airtel portal on 27 November' },
    });
    expect(byHand.statusCode).toBe(200);
    expect((byHand.json() as { data: FinancePayment }).data).toMatchObject({
      refund_status: 'refunded',
      refund_method: 'by_hand',
    });
  });

  it('Airtel unreachable: the refund stays under way, and the sweep closes it once Airtel answers', async () => {
    const payment = await owedBack();
    simulator.setMode('503');
    try {
      expect((await askRefund(finance, payment.id)).status).toBe(200);
      // The job's first try meets the 503 and lets go of the refund (its retry comes 10 s later).
      await pause(300);
      await leaseFree(payment.id);
      await expect(runProviderRefund(database.db, refunding, payment.id, publicUrl(), log)).rejects.toThrow();
      expect(await paymentByReference(database.db, payment.reference)).toMatchObject({
        refund_status: 'processing',
        refund_lease_until: null,
      });
    } finally {
      simulator.setMode('normal');
    }
    // Past the sweep's wait, the sweep asks again and the refund closes once.
    const later = Date.now() + REFUND_SWEEP_AFTER_MS + 1000;
    expect(await resumeProviderRefunds(database.db, refunding, publicUrl(), log, later)).toBe(1);
    expect(await paymentByReference(database.db, payment.reference)).toMatchObject({
      refund_status: 'refunded',
      refund_method: 'provider',
    });
    expect(await auditOf(payment.id, 'payment.refunded_by_provider')).toHaveLength(1);
    expect(await auditOf(payment.id, 'payment.refund_failed')).toHaveLength(0);
  });

  it('a step held by another (the lease) does not ask the provider again', async () => {
    const payment = await owedBack();
    await database.db
      .update(payments)
      .set({
        refund_status: 'processing',
        refund_reference: randomUUID(),
        refund_lease_until: new Date(Date.now() + 60_000).toISOString(),
      })
      .where(eq(payments.id, payment.id));
    expect(await runProviderRefund(database.db, refunding, payment.id, publicUrl(), log)).toBe('pending');
    expect(simulator.prompts().find((prompt) => prompt.id === payment.reference)?.refunded).toBe(false);
  });
});

describe('refusals', () => {
  it('needs manage_finance, the caller’s own institution, and a refund owed through a provider with a refund API', async () => {
    const payment = await owedBack();
    const viewer = await signInAs(app, 'staff', { partnerId, permissions: ['view_payments'] });
    expect((await askRefund(viewer, payment.id)).status).toBe(403);
    const student = await signInAs(app, 'student');
    expect((await askRefund(student, payment.id)).status).toBe(403);
    const anonymous = await app.inject({
      method: 'POST',
      url: `/api/v1/partners/${partnerId}/finance/payments/${payment.id}/provider-refund`,
    });
    expect(anonymous.statusCode).toBe(401);

    const otherId = await createPayingInstitution(database.db, 'refunds-other', 'UG');
    const stranger = await signInAs(app, 'staff', { partnerId: otherId, permissions: ['manage_finance'] });
    expect((await askRefund(stranger, payment.id, otherId)).status).toBe(404);
    expect((await askRefund(finance, randomUUID())).status).toBe(404);

    // MoMo is not configured here, so it has no refund API: refunded by hand.
    const momo = await createPendingPayment(database.db, partnerId, {
      provider: 'mtn_momo',
      amount: 1500,
      currency: 'UGX',
    });
    await database.db
      .update(payments)
      .set({ status: 'failed', refund_status: 'needed', provider_transaction_id: '1234567' })
      .where(eq(payments.reference, momo.reference));
    const momoRow = await paymentByReference(database.db, momo.reference);
    const unavailable = await askRefund(finance, momoRow.id);
    expect(unavailable.status).toBe(409);
    expect(unavailable.body.error!.message).toBe(FINANCE_MESSAGES.refund_not_available);

    // A payment not owed back.
    const paid = await createPendingPayment(database.db, partnerId, {
      provider: 'airtel_money',
      amount: 1,
      currency: 'UGX',
    });
    const paidRow = await paymentByReference(database.db, paid.reference);
    const notOwed = await askRefund(finance, paidRow.id);
    expect(notOwed.status).toBe(409);
    expect(notOwed.body.error!.message).toBe(FINANCE_MESSAGES.refund_not_needed);

    // None of those refusals changed anything.
    expect(await paymentByReference(database.db, payment.reference)).toMatchObject({ refund_status: 'needed' });
    expect(await paymentByReference(database.db, momo.reference)).toMatchObject({ refund_status: 'needed' });
    expect(simulator.prompts().find((prompt) => prompt.id === payment.reference)?.refunded).toBe(false);
  });
});
