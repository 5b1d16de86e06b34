import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  FINANCE_MESSAGES,
  PAYMENT_MESSAGES,
  type BankAccount,
  type CheckoutStarted,
  type FeeOption,
  type FinancePage,
  type FinancePayment,
  type PaymentOptions,
  type StaffPermission,
} from '@kaminuza/shared';
import { auditLog, emailOutbox, notifications, payments, students } from '../../db/schema/index.ts';
import { samplePdf, samplePng } from '../../seed/sample-files.ts';
import { useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createApplicationOf, createPayingInstitution } from '../../test/payments.ts';
import { uploadFile } from '../uploads/test-helpers.ts';
import { getSettings, updateAdmissions } from '../partner-settings/partner-settings.service.ts';

/*
 * Bank slips over HTTP: the applicant deposits at the institution's bank and sends the slip; staff with
 * manage_finance approve it (paid by bank transfer, receipt issued once) or reject it with a reason.
 */

const ctx = useTestApp();

const FEES: FeeOption[] = [
  { currency: 'RWF', amount: 20000, channels: ['card', 'bank_slip'] },
  { currency: 'USD', amount: 2500, channels: ['card', 'bank_slip'] },
];
const ACCOUNT: BankAccount = {
  currency: 'RWF',
  bank_name: 'Bank of Kigali',
  account_name: 'University Admissions',
  account_number: '000-123-456789',
  branch: 'Kigali Main',
  swift: 'BKIGRWRW',
  instructions: null,
};

/** An institution charging in RWF and USD, by card or bank slip, with a bank account in RWF only. */
async function institution(label: string) {
  const partnerId = await createPayingInstitution(ctx.db, label);
  const { admissions } = await getSettings(ctx.db, partnerId);
  await updateAdmissions(ctx.db, partnerId, { ...admissions, application_fees: FEES, bank_accounts: [ACCOUNT] });
  return partnerId;
}

async function applicant(partnerId: string) {
  const student = await signInAs(ctx.app, 'student');
  const { applicationId } = await createApplicationOf(ctx.db, partnerId, student.id);
  return { student, applicationId };
}

/** Uploads a slip file as the student; answers its id (the x-file-id of the finished upload). */
async function uploadSlip(student: TestAccount, bytes: Buffer = samplePng(8, [200, 200, 200]), name = 'slip.png') {
  const response = await uploadFile(ctx.app, student.headers, 'payment_slip', name, bytes);
  expect(response.statusCode).toBe(204);
  return String(response.headers['x-file-id']);
}

async function submit(student: TestAccount, applicationId: string, payload: object) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/applications/${applicationId}/payment`,
    headers: student.headers,
    payload,
  });
  return {
    status: response.statusCode,
    body: response.json() as { data: CheckoutStarted; error?: { message: string; details?: unknown } },
  };
}

async function staffOf(partnerId: string, permissions: StaffPermission[] = ['manage_finance']) {
  return signInAs(ctx.app, 'staff', { partnerId, permissions });
}

async function verify(staff: TestAccount, partnerId: string, paymentId: string, payload: object) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${partnerId}/finance/payments/${paymentId}/verify`,
    headers: staff.headers,
    payload,
  });
  return {
    status: response.statusCode,
    body: response.json() as { data: FinancePayment; error?: { message: string; details?: unknown } },
  };
}

/** A student with a slip sent for their application: answers the payment's id too. */
async function sentSlip(partnerId: string, bankReference = 'FT26331ABCD') {
  const { student, applicationId } = await applicant(partnerId);
  const slip = await uploadSlip(student);
  const { status, body } = await submit(student, applicationId, {
    channel: 'bank_slip',
    currency: 'RWF',
    bank_reference: bankReference,
    slip_file_id: slip,
  });
  expect(status).toBe(201);
  return { student, applicationId, paymentId: body.data.payment.id, reference: body.data.payment.reference };
}

/** A 400's message for a field: schema failures list `{ path, message }`, the service's checks name fields. */
function fieldMessage(body: { error?: { details?: unknown } }, field: string): string | undefined {
  const details = body.error?.details;
  if (Array.isArray(details)) {
    return (details as { path: string | string[]; message: string }[]).find((d) =>
      (Array.isArray(d.path) ? d.path.join('.') : d.path).endsWith(field),
    )?.message;
  }
  return (details as Record<string, string> | undefined)?.[field];
}

const rowOf = async (paymentId: string) => (await ctx.db.select().from(payments).where(eq(payments.id, paymentId)))[0]!;

describe('the bank slip of an applicant', () => {
  it('is offered with the institution’s bank account only in a currency that has one', async () => {
    const partnerId = await institution('slip-options');
    const { student, applicationId } = await applicant(partnerId);
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/applications/${applicationId}/payment/options`,
      headers: student.headers,
    });
    expect(response.statusCode).toBe(200);
    const options = response.json().data as PaymentOptions;
    expect(options.options.map((o) => [o.currency, o.channels])).toEqual([
      ['RWF', ['card', 'bank_slip']],
      ['USD', ['card']],
    ]);
    expect(options.bank_accounts).toEqual([ACCOUNT]);
  });

  it('records a pending bank transfer with the slip and the bank’s reference', async () => {
    const partnerId = await institution('slip-submit');
    const { paymentId, applicationId, student } = await sentSlip(partnerId, '  FT26331XYZ ');
    const row = await rowOf(paymentId);
    expect(row).toMatchObject({
      provider: 'bank_slip',
      method: 'bank_transfer',
      status: 'pending',
      amount: 20000,
      currency: 'RWF',
      bank_reference: 'FT26331XYZ',
      paid_at: null,
    });
    expect(row.slip_file_id).toBeTruthy();
    // Sent again, the pending slip is answered, not doubled.
    const again = await submit(student, applicationId, {
      channel: 'bank_slip',
      currency: 'RWF',
      bank_reference: 'OTHER',
      slip_file_id: await uploadSlip(student),
    });
    expect(again.status).toBe(200);
    expect(again.body.data.payment.id).toBe(paymentId);
  });

  it('refuses a slip without a reference or file, another’s file, a file of a document, or a currency without an account', async () => {
    const partnerId = await institution('slip-invalid');
    const { student, applicationId } = await applicant(partnerId);
    const other = await applicant(partnerId);
    const slip = await uploadSlip(student, samplePdf('Deposit slip'), 'slip.pdf');
    const othersSlip = await uploadSlip(other.student);
    const document = await uploadFile(ctx.app, student.headers, 'transcript', 't.pdf', samplePdf('Transcript'));
    const documentFile = String(document.headers['x-file-id']);
    const base = { channel: 'bank_slip', currency: 'RWF', bank_reference: 'FT1', slip_file_id: slip };

    const noReference = await submit(student, applicationId, { ...base, bank_reference: undefined });
    expect(noReference.status).toBe(400);
    expect(fieldMessage(noReference.body, 'bank_reference')).toBe(PAYMENT_MESSAGES.bank_reference_invalid);
    expect((await submit(student, applicationId, { ...base, bank_reference: 'x'.repeat(65) })).status).toBe(400);
    const noFile = await submit(student, applicationId, { ...base, slip_file_id: undefined });
    expect(noFile.status).toBe(400);
    expect(fieldMessage(noFile.body, 'slip_file_id')).toBe(PAYMENT_MESSAGES.slip_file_required);
    for (const fileId of [othersSlip, documentFile, '00000000-0000-4000-8000-000000000000']) {
      const refused = await submit(student, applicationId, { ...base, slip_file_id: fileId });
      expect(refused.status).toBe(400);
      expect(fieldMessage(refused.body, 'slip_file_id')).toBe(PAYMENT_MESSAGES.slip_file_invalid);
    }
    const usd = await submit(student, applicationId, { ...base, currency: 'USD' });
    expect(usd.status).toBe(400);
    expect(fieldMessage(usd.body, 'channel')).toBe(PAYMENT_MESSAGES.channel_not_accepted);
    expect(await ctx.db.select().from(payments).where(eq(payments.application_id, applicationId))).toEqual([]);
  });
});

describe('staff verifying a bank slip', () => {
  it('lists pending slips and serves the slip file to manage_finance', async () => {
    const partnerId = await institution('slip-list');
    const { paymentId } = await sentSlip(partnerId, 'FT-LIST-1');
    const staff = await staffOf(partnerId);
    const list = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/finance/payments?provider=bank_slip&status=pending`,
      headers: staff.headers,
    });
    const page = list.json().data as FinancePage;
    expect(page.items.map((item) => [item.id, item.bank_reference, item.has_slip])).toEqual([
      [paymentId, 'FT-LIST-1', true],
    ]);
    const file = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/finance/payments/${paymentId}/slip`,
      headers: staff.headers,
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-disposition']).toMatch(/^attachment/);
    const viewer = await staffOf(partnerId, ['view_payments']);
    const denied = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/finance/payments/${paymentId}/slip`,
      headers: viewer.headers,
    });
    expect(denied.statusCode).toBe(403);
  });

  it('approves: paid by bank transfer, receipt issued, applicant told, audited', async () => {
    const partnerId = await institution('slip-approve');
    const { paymentId, student } = await sentSlip(partnerId);
    const staff = await staffOf(partnerId);
    const { status, body } = await verify(staff, partnerId, paymentId, { decision: 'approve' });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ status: 'succeeded', method: 'bank_transfer', failure_reason: null });
    expect(body.data.reviewed_at).toMatch(/Z$/);
    const row = await rowOf(paymentId);
    expect(row.paid_at).not.toBeNull();
    expect(row.reviewed_by).toBe(staff.id);
    expect(row.receipt_number).toMatch(/^KZ-R-/);
    const receipts = await ctx.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, student.email), eq(emailOutbox.template, 'payment_receipt')));
    expect(receipts).toHaveLength(1);
    const [told] = await ctx.db.select().from(notifications).where(eq(notifications.user_id, student.id));
    expect(told).toMatchObject({ type: 'payment_slip_approved' });
    const audits = await ctx.db.select().from(auditLog).where(eq(auditLog.target_id, paymentId));
    expect(audits.map((a) => [a.action, a.actor_id])).toEqual([['payment.slip_approved', staff.id]]);
  });

  it('approves exactly once when two approvals race', async () => {
    const partnerId = await institution('slip-race');
    const { paymentId, student } = await sentSlip(partnerId);
    const [first, second] = [await staffOf(partnerId), await staffOf(partnerId)];
    const results = await Promise.all([
      verify(first!, partnerId, paymentId, { decision: 'approve' }),
      verify(second!, partnerId, paymentId, { decision: 'approve' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const receipts = await ctx.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, student.email), eq(emailOutbox.template, 'payment_receipt')));
    expect(receipts).toHaveLength(1);
    const audits = await ctx.db.select().from(auditLog).where(eq(auditLog.target_id, paymentId));
    expect(audits).toHaveLength(1);
  });

  it('rejects with the reason the applicant reads, who may then send a new slip', async () => {
    const partnerId = await institution('slip-reject');
    const { paymentId, student, applicationId } = await sentSlip(partnerId);
    const staff = await staffOf(partnerId);
    const reason = 'The slip is unreadable: send a clearer photo.';
    const { status, body } = await verify(staff, partnerId, paymentId, { decision: 'reject', reason });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ status: 'failed', failure_reason: reason });
    const row = await rowOf(paymentId);
    expect(row).toMatchObject({ status: 'failed', paid_at: null, receipt_number: null, reviewed_by: staff.id });
    const [told] = await ctx.db.select().from(notifications).where(eq(notifications.user_id, student.id));
    expect(told).toMatchObject({ type: 'payment_slip_rejected' });
    expect(told!.data).toMatchObject({ reason });

    const retry = await submit(student, applicationId, {
      channel: 'bank_slip',
      currency: 'RWF',
      bank_reference: 'FT-SECOND',
      slip_file_id: await uploadSlip(student),
    });
    expect(retry.status).toBe(201);
    expect(retry.body.data.payment.id).not.toBe(paymentId);
    const approved = await verify(staff, partnerId, retry.body.data.payment.id, { decision: 'approve' });
    expect(approved.body.data.status).toBe('succeeded');
  });

  it('emails a rejection to the applicant in their language with the reason, and to no one else', async () => {
    const partnerId = await institution('slip-reject-email');
    const { paymentId, student } = await sentSlip(partnerId, 'FT-EMAIL-1');
    const bystander = await sentSlip(partnerId, 'FT-EMAIL-2');
    await ctx.db.update(students).set({ language: 'rw' }).where(eq(students.user_id, student.id));
    const staff = await staffOf(partnerId);
    const reason = 'The amount on the slip is not the fee.';
    expect((await verify(staff, partnerId, paymentId, { decision: 'reject', reason })).status).toBe(200);
    const slipEmails = (to: string) =>
      ctx.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.to, to), eq(emailOutbox.template, 'payment_slip_rejected')));
    const [email] = await slipEmails(student.email);
    expect(email).toMatchObject({ template: 'payment_slip_rejected', language: 'rw', from: 'info' });
    expect(email!.subject).toContain('ntiyashoboye kwemera inyemezabwishyu yawe ya banki');
    expect(email!.text).toContain(`Impamvu yatanzwe: ${reason}`);
    expect(email!.text).toContain(`/partners/${partnerId}/application/form`);
    expect(await slipEmails(bystander.student.email)).toEqual([]);

    // Approving the other slip sends its receipt, not a rejection.
    expect((await verify(staff, partnerId, bystander.paymentId, { decision: 'approve' })).status).toBe(200);
    expect(await slipEmails(bystander.student.email)).toEqual([]);
    const receipts = await ctx.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, bystander.student.email), eq(emailOutbox.template, 'payment_receipt')));
    expect(receipts).toHaveLength(1);
  });

  it('denies another institution (404), no permission (403), a decided or non-slip payment (409), bad input (400)', async () => {
    const partnerId = await institution('slip-denied');
    const otherId = await institution('slip-denied-other');
    const { paymentId } = await sentSlip(partnerId);
    const staff = await staffOf(partnerId);

    const outsider = await staffOf(otherId);
    expect((await verify(outsider, otherId, paymentId, { decision: 'approve' })).status).toBe(404);
    // Another institution's id is 404 at the staff guard too: nothing says it exists.
    expect((await verify(outsider, partnerId, paymentId, { decision: 'approve' })).status).toBe(404);
    const viewer = await staffOf(partnerId, ['view_payments']);
    expect((await verify(viewer, partnerId, paymentId, { decision: 'approve' })).status).toBe(403);

    const noReason = await verify(staff, partnerId, paymentId, { decision: 'reject' });
    expect(noReason.status).toBe(400);
    expect(fieldMessage(noReason.body, 'reason')).toBe(FINANCE_MESSAGES.slip_reason_required);
    expect((await verify(staff, partnerId, paymentId, { decision: 'reject', reason: 'x'.repeat(501) })).status).toBe(
      400,
    );
    expect((await verify(staff, partnerId, paymentId, { decision: 'maybe' })).status).toBe(400);
    expect((await verify(staff, partnerId, 'not-a-uuid', { decision: 'approve' })).status).toBe(400);
    expect((await rowOf(paymentId)).status).toBe('pending');

    expect((await verify(staff, partnerId, paymentId, { decision: 'approve' })).status).toBe(200);
    const again = await verify(staff, partnerId, paymentId, { decision: 'reject', reason: 'Too late' });
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe(FINANCE_MESSAGES.slip_not_pending);

    const card = await applicant(partnerId);
    const opened = await submit(card.student, card.applicationId, { channel: 'card', currency: 'RWF' });
    expect((await verify(staff, partnerId, opened.body.data.payment.id, { decision: 'approve' })).status).toBe(409);
  });
});

describe('bank accounts in the admissions settings', () => {
  it('refuses the bank_slip channel in a currency without an account, and saves one with it', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'slip-settings');
    const admin = await signInAs(ctx.app, 'staff', { partnerId, permissions: ['all'] });
    const { admissions } = await getSettings(ctx.db, partnerId);
    const {
      bank_accounts: _accounts,
      application_fee: _fee,
      application_fee_currency: _currency,
      ...rest
    } = admissions;
    const put = (body: object) =>
      ctx.app.inject({
        method: 'PUT',
        url: `/api/v1/partners/${partnerId}/settings/admissions`,
        headers: admin.headers,
        payload: { ...rest, ...body },
      });
    const missing = await put({ application_fees: FEES, bank_accounts: [] });
    expect(missing.statusCode).toBe(400);
    expect(JSON.stringify(missing.json())).toContain(PAYMENT_MESSAGES.bank_details_missing);
    const tooLong = await put({
      application_fees: FEES.slice(0, 1),
      bank_accounts: [{ ...ACCOUNT, bank_name: 'B'.repeat(121) }],
    });
    expect(tooLong.statusCode).toBe(400);
    const saved = await put({
      application_fees: FEES.slice(0, 1),
      bank_accounts: [{ ...ACCOUNT, branch: '  ', swift: 'bkigrwrw', instructions: undefined }],
    });
    expect(saved.statusCode).toBe(200);
    expect((await getSettings(ctx.db, partnerId)).admissions.bank_accounts).toEqual([
      { ...ACCOUNT, branch: null, swift: 'BKIGRWRW' },
    ]);
  });
});
