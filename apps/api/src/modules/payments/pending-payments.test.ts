import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PAYMENT_MESSAGES,
  type BankAccount,
  type FeeOption,
  type FeeWaiver,
  type FinancePage,
  type WaiverCode,
} from '@kaminuza/shared';
import { buildApp, type App } from '../../app.ts';
import { applications, emailOutbox, feeWaivers, notifications, payments } from '../../db/schema/index.ts';
import { samplePng } from '../../seed/sample-files.ts';
import { startMomoSimulator, type MomoSimulator } from '../../simulators/mtn-momo.ts';
import { testEnv } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import { freePort } from '../../test/server-process.ts';
import {
  createApplicationOf,
  createPayingInstitution,
  paymentByReference,
  settledPayment,
} from '../../test/payments.ts';
import { getSettings, updateAdmissions } from '../partner-settings/partner-settings.service.ts';
import { uploadFile } from '../uploads/test-helpers.ts';

/*
 * What happens around a payment still waiting for its outcome, driven through the api over HTTP, the MTN
 * MoMo adapter against its simulator, the sandbox card checkout and bank slips verified by staff:
 * - a fee waived meanwhile (ADR 037, "A payment after a waiver"): the waiver stands, and money that arrives
 *   afterwards is recorded as owed back, never kept as the fee;
 * - another way to pay asked for meanwhile: refused with a clear 409 that records nothing, while the same way
 *   to pay resumes the pending payment.
 */

const CREDENTIALS = { apiUser: randomUUID(), apiKey: 'momo-api-key', subscriptionKey: 'momo-subscription-key' };
const FEES: FeeOption[] = [{ currency: 'RWF', amount: 20_000, channels: ['card', 'mtn_momo', 'bank_slip'] }];
const ACCOUNT: BankAccount = {
  currency: 'RWF',
  bank_name: 'Bank of Kigali',
  account_name: 'University Admissions',
  account_number: '000-123-456789',
  branch: null,
  swift: null,
  instructions: null,
};
/** A number none of the simulator's scripts answer: its prompt waits for the payer's phone. */
const WAITING_PHONE = '+250788000000';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: MomoSimulator;
let app: App;
let partnerId: string;
let finance: TestAccount;
/** The app's PUBLIC_URL: receipts settled from its callbacks and jobs link to it. */
let publicUrl: string;

beforeAll(async () => {
  database = await createTestDatabase();
  simulator = await startMomoSimulator({ ...CREDENTIALS, expireAfterMs: 60_000, payerDelayMs: 10 });
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  app = await buildApp({
    database,
    env: testEnv({
      PUBLIC_URL: publicUrl,
      MTN_MOMO_BASE_URL: simulator.url,
      MTN_MOMO_API_USER: CREDENTIALS.apiUser,
      MTN_MOMO_API_KEY: CREDENTIALS.apiKey,
      MTN_MOMO_SUBSCRIPTION_KEY: CREDENTIALS.subscriptionKey,
      MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
    }),
    logger: false,
    work: true,
  });
  await app.listen({ port, host: '127.0.0.1' });
  partnerId = await createPayingInstitution(database.db, 'waived-pending');
  const { admissions } = await getSettings(database.db, partnerId);
  await updateAdmissions(database.db, partnerId, { ...admissions, application_fees: FEES, bank_accounts: [ACCOUNT] });
  finance = await signInAs(app, 'staff', { partnerId, permissions: ['manage_finance'] });
});

afterAll(async () => {
  await app?.close();
  await simulator?.stop();
  await database?.close();
});

function call(account: TestAccount, method: 'GET' | 'POST', url: string, payload?: object) {
  return app.inject({
    method,
    url: `/api/v1${url}`,
    headers: account.headers,
    ...(payload ? { payload } : {}),
  });
}

async function applicant(): Promise<{ student: TestAccount; applicationId: string }> {
  const student = await signInAs(app, 'student');
  const { applicationId } = await createApplicationOf(database.db, partnerId, student.id);
  return { student, applicationId };
}

/** A MoMo prompt for the fee, pushed to a phone that has not answered yet: answers the payment's reference. */
async function pendingPrompt(student: TestAccount, applicationId: string): Promise<string> {
  const response = await call(student, 'POST', `/applications/${applicationId}/payment`, {
    channel: 'mtn_momo',
    currency: 'RWF',
    phone: WAITING_PHONE,
  });
  expect(response.statusCode).toBe(201);
  const reference = response.json().data.payment.reference as string;
  expect(simulator.prompts().some((prompt) => prompt.referenceId === reference)).toBe(true);
  return reference;
}

async function redeemNewCode(student: TestAccount, applicationId: string) {
  const issued = await call(finance, 'POST', `/partners/${partnerId}/waiver-codes`, {
    cycle_id: await cycleOf(applicationId),
    max_uses: 1,
    expires_on: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
  });
  expect(issued.statusCode).toBe(201);
  const code = (issued.json().data as WaiverCode).code;
  const redeemed = await call(student, 'POST', `/applications/${applicationId}/waiver/code`, { code });
  expect(redeemed.statusCode).toBe(201);
  return redeemed.json().data as FeeWaiver;
}

async function cycleOf(applicationId: string): Promise<string> {
  const [row] = await database.db
    .select({ cycle_id: applications.cycle_id })
    .from(applications)
    .where(eq(applications.id, applicationId));
  return row!.cycle_id;
}

const receiptEmailsTo = (email: string) =>
  database.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), eq(emailOutbox.template, 'payment_receipt')));

async function uploadSlip(student: TestAccount) {
  const response = await uploadFile(app, student.headers, 'payment_slip', 'slip.png', samplePng(8, [200, 200, 200]));
  expect(response.statusCode).toBe(204);
  return String(response.headers['x-file-id']);
}

describe('a payment that succeeds after the fee was waived', () => {
  it('a MoMo prompt approved after a code waived the fee is owed back, and the waiver stands', async () => {
    const { student, applicationId } = await applicant();
    const reference = await pendingPrompt(student, applicationId);
    // The waiver is granted while the prompt waits: the applicant is not held up by a payment they may abandon.
    const waiver = await redeemNewCode(student, applicationId);
    expect(waiver.status).toBe('approved');

    expect(simulator.approve(reference)).toBe(true);
    const settled = await settledPayment(database.db, reference);
    expect(settled).toMatchObject({
      status: 'failed',
      refund_status: 'needed',
      failure_reason: PAYMENT_MESSAGES.fee_waived_refund,
      method: 'mobile_money',
      paid_at: null,
      receipt_number: null,
    });
    expect(await receiptEmailsTo(student.email)).toEqual([]);
    const [stands] = await database.db.select().from(feeWaivers).where(eq(feeWaivers.application_id, applicationId));
    expect(stands!.status).toBe('approved');

    // The institution sees it under "needs refund"; the payer reads why on the payment page.
    const owed = await call(finance, 'GET', `/partners/${partnerId}/finance/payments?needs_refund=true`);
    expect((owed.json().data as FinancePage).items.map((item) => item.reference)).toContain(reference);
    const page = await call(student, 'GET', `/payments/${reference}`);
    expect(page.json().data).toMatchObject({ status: 'failed', failure_reason: PAYMENT_MESSAGES.fee_waived_refund });

    // The poll that follows the prompt later finds it settled and changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await paymentByReference(database.db, reference)).toMatchObject({
      status: 'failed',
      refund_status: 'needed',
    });
  });

  it('a prompt declined after the waiver simply fails: nothing is owed', async () => {
    const { student, applicationId } = await applicant();
    const reference = await pendingPrompt(student, applicationId);
    await redeemNewCode(student, applicationId);
    expect(simulator.decline(reference)).toBe(true);
    const settled = await settledPayment(database.db, reference);
    expect(settled).toMatchObject({
      status: 'failed',
      refund_status: null,
      failure_reason: PAYMENT_MESSAGES.mobile_money_declined,
    });
  });

  it('without a waiver, the same approval is the fee: paid, with its receipt', async () => {
    const { student, applicationId } = await applicant();
    const reference = await pendingPrompt(student, applicationId);
    expect(simulator.approve(reference)).toBe(true);
    const settled = await settledPayment(database.db, reference);
    expect(settled).toMatchObject({ status: 'succeeded', refund_status: null });
    expect(settled.receipt_number).toMatch(/^KZ-R-/);
    // Settled from the network's callback: the receipt email links to the configured public URL.
    const [receipt] = await receiptEmailsTo(student.email);
    expect(receipt!.text).toContain(`${publicUrl}/verify/receipt/${settled.receipt_code}`);
  });

  it('a bank slip approved after staff approved a waiver request is owed back', async () => {
    const { student, applicationId } = await applicant();
    const sent = await call(student, 'POST', `/applications/${applicationId}/payment`, {
      channel: 'bank_slip',
      currency: 'RWF',
      bank_reference: 'FT-WAIVED-1',
      slip_file_id: await uploadSlip(student),
    });
    expect(sent.statusCode).toBe(201);
    const paymentId = sent.json().data.payment.id as string;
    const asked = await call(student, 'POST', `/applications/${applicationId}/waiver/request`, {
      reason: 'My family lost its income this year and cannot pay the fee.',
    });
    expect(asked.statusCode).toBe(201);
    const waiverId = (asked.json().data as FeeWaiver).id;
    const approved = await call(finance, 'POST', `/partners/${partnerId}/fee-waivers/${waiverId}/approve`);
    expect(approved.statusCode).toBe(200);

    const verified = await call(finance, 'POST', `/partners/${partnerId}/finance/payments/${paymentId}/verify`, {
      decision: 'approve',
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data).toMatchObject({
      status: 'failed',
      refund_status: 'needed',
      failure_reason: PAYMENT_MESSAGES.fee_waived_refund,
    });
    const [row] = await database.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(row).toMatchObject({ reviewed_by: finance.id, receipt_number: null, paid_at: null });
    expect(await receiptEmailsTo(student.email)).toEqual([]);
    // Nor is it "accepted" as the fee in the applicant's notifications.
    const told = await database.db
      .select({ type: notifications.type })
      .from(notifications)
      .where(eq(notifications.user_id, student.id));
    expect(told.map(({ type }) => type)).not.toContain('payment_slip_approved');
  });
});

describe('another way to pay while a payment is pending', () => {
  const paymentsOf = (applicationId: string) =>
    database.db.select().from(payments).where(eq(payments.application_id, applicationId));

  const expectPendingRefusal = (response: { statusCode: number; json(): unknown }) => {
    expect(response.statusCode).toBe(409);
    expect((response.json() as { error: unknown }).error).toMatchObject({
      status: 'ABORTED',
      message: PAYMENT_MESSAGES.other_payment_pending,
      reason: 'payment_pending',
    });
  };

  it('a bank slip sent while a MoMo prompt waits is refused and recorded nowhere; it goes through once the prompt ends', async () => {
    const { student, applicationId } = await applicant();
    const reference = await pendingPrompt(student, applicationId);
    const slip = await uploadSlip(student);
    const body = { channel: 'bank_slip', currency: 'RWF', bank_reference: 'FT-WHILE-MOMO', slip_file_id: slip };
    expectPendingRefusal(await call(student, 'POST', `/applications/${applicationId}/payment`, body));
    const rows = await paymentsOf(applicationId);
    expect(rows.map((row) => [row.reference, row.status])).toEqual([[reference, 'pending']]);

    expect(simulator.decline(reference)).toBe(true);
    expect((await settledPayment(database.db, reference)).status).toBe('failed');
    // The slip file was not taken by the refused request: the same one is accepted now.
    const sent = await call(student, 'POST', `/applications/${applicationId}/payment`, body);
    expect(sent.statusCode).toBe(201);
    expect(sent.json().data.payment).toMatchObject({ provider: 'bank_slip', status: 'pending' });
  });

  it('a MoMo prompt or a card checkout asked for while a slip waits for staff is refused', async () => {
    const { student, applicationId } = await applicant();
    const sent = await call(student, 'POST', `/applications/${applicationId}/payment`, {
      channel: 'bank_slip',
      currency: 'RWF',
      bank_reference: 'FT-FIRST',
      slip_file_id: await uploadSlip(student),
    });
    expect(sent.statusCode).toBe(201);
    const prompts = simulator.prompts().length;
    expectPendingRefusal(
      await call(student, 'POST', `/applications/${applicationId}/payment`, {
        channel: 'mtn_momo',
        currency: 'RWF',
        phone: WAITING_PHONE,
      }),
    );
    expect(simulator.prompts()).toHaveLength(prompts);
    expectPendingRefusal(
      await call(student, 'POST', `/applications/${applicationId}/payment`, { channel: 'card', currency: 'RWF' }),
    );
    expect(await paymentsOf(applicationId)).toHaveLength(1);
  });

  it('the same way to pay resumes the pending payment: a card checkout, a MoMo prompt', async () => {
    const card = await applicant();
    const opened = await call(card.student, 'POST', `/applications/${card.applicationId}/payment`, {
      channel: 'card',
      currency: 'RWF',
    });
    expect(opened.statusCode).toBe(201);
    const again = await call(card.student, 'POST', `/applications/${card.applicationId}/payment`, {
      channel: 'card',
      currency: 'RWF',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.payment.id).toBe(opened.json().data.payment.id);

    const momo = await applicant();
    const reference = await pendingPrompt(momo.student, momo.applicationId);
    const resumed = await call(momo.student, 'POST', `/applications/${momo.applicationId}/payment`, {
      channel: 'mtn_momo',
      currency: 'RWF',
      phone: '+250788000999',
    });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().data.payment.reference).toBe(reference);
    expect(simulator.prompts().filter((prompt) => prompt.payer.partyId === '250788000999')).toEqual([]);
  });

  it('a card checkout left open is given up for another way to pay, and its page takes no card any more', async () => {
    const { student, applicationId } = await applicant();
    const opened = await call(student, 'POST', `/applications/${applicationId}/payment`, {
      channel: 'card',
      currency: 'RWF',
    });
    expect(opened.statusCode).toBe(201);
    const card = opened.json().data.payment as { id: string; reference: string };
    const prompted = await call(student, 'POST', `/applications/${applicationId}/payment`, {
      channel: 'mtn_momo',
      currency: 'RWF',
      phone: WAITING_PHONE,
    });
    expect(prompted.statusCode).toBe(201);
    expect(prompted.json().data.payment).toMatchObject({ provider: 'mtn_momo', status: 'pending' });
    const [given] = await database.db.select().from(payments).where(eq(payments.id, card.id));
    expect(given).toMatchObject({ status: 'failed', failure_reason: PAYMENT_MESSAGES.checkout_abandoned });

    // Its page no longer takes the card (Flutterwave's would: that success is then owed back, as any late one).
    const late = await app.inject({
      method: 'POST',
      url: `/api/v1/payments/sandbox/${card.reference}/complete`,
      headers: student.headers,
      payload: { method: 'card', card_number: '4242424242424242', expiry: '12/30', cvc: '123' },
    });
    expect(late.statusCode).toBe(409);
    const [after] = await database.db.select().from(payments).where(eq(payments.id, card.id));
    expect(after).toMatchObject({ status: 'failed', refund_status: null, paid_at: null });
  });

  it('another student cannot learn of the pending payment: 404', async () => {
    const { student, applicationId } = await applicant();
    await pendingPrompt(student, applicationId);
    const intruder = await signInAs(app, 'student');
    const response = await call(intruder, 'POST', `/applications/${applicationId}/payment`, {
      channel: 'card',
      currency: 'RWF',
    });
    expect(response.statusCode).toBe(404);
  });
});
