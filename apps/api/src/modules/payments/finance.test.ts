import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  FINANCE_MESSAGES,
  type FinancePage,
  type FinancePayment,
  type PaymentProvider,
  type StaffPermission,
} from '@kaminuza/shared';
import { auditLog, payments, students } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createPayingInstitution, createPendingPayment, paymentByReference } from '../../test/payments.ts';

/*
 * The staff finance view over HTTP: the institution's payments filtered, totalled per currency and
 * exported, the refund by hand, and every refusal.
 */

const ctx = useTestApp();

type PaymentRow = typeof payments.$inferInsert;

/** A payment of a new applicant, written as the checkout and its settlement would leave it. */
async function payment(
  partnerId: string,
  values: {
    provider?: PaymentProvider;
    amount: number;
    currency: string;
    name?: { first: string; last: string };
  } & Partial<Pick<PaymentRow, 'status' | 'method' | 'refund_status' | 'failure_reason' | 'provider_transaction_id'>>,
) {
  const { provider = 'mtn_momo', amount, currency, name, ...rest } = values;
  const created = await createPendingPayment(ctx.db, partnerId, { provider, amount, currency });
  await ctx.db
    .update(payments)
    .set({
      method: 'mobile_money',
      ...rest,
      ...(rest.status === 'succeeded' ? { paid_at: new Date().toISOString() } : {}),
    })
    .where(eq(payments.reference, created.reference));
  if (name) {
    await ctx.db
      .update(students)
      .set({ first_name: name.first, last_name: name.last })
      .where(eq(students.id, created.studentId));
  }
  return (await paymentByReference(ctx.db, created.reference)).id;
}

async function staffOf(partnerId: string, permissions: StaffPermission[]): Promise<TestAccount> {
  return signInAs(ctx.app, 'staff', { partnerId, permissions });
}

async function list(account: TestAccount, partnerId: string, query = '') {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/partners/${partnerId}/finance/payments${query ? `?${query}` : ''}`,
    headers: account.headers,
  });
  return {
    status: response.statusCode,
    body: response.json() as { data: FinancePage; error?: { message: string; details?: unknown } },
  };
}

async function refund(account: TestAccount, partnerId: string, paymentId: string, payload: object) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${partnerId}/finance/payments/${paymentId}/refund`,
    headers: account.headers,
    payload,
  });
  return {
    status: response.statusCode,
    body: response.json() as { data: FinancePayment; error?: { message: string; status: string; details?: unknown } },
  };
}

describe('the finance list', () => {
  it('answers only the institution’s payments, newest first, with applicant, program and cycle', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'fin-list');
    const otherId = await createPayingInstitution(ctx.db, 'fin-other');
    await payment(otherId, { amount: 5000, currency: 'RWF', status: 'succeeded' });
    const first = await payment(partnerId, { amount: 5000, currency: 'RWF', name: { first: 'Aline', last: 'Uwase' } });
    const second = await payment(partnerId, { amount: 12.5, currency: 'USD', status: 'succeeded', method: 'card' });
    const staff = await staffOf(partnerId, ['view_payments']);

    const { status, body } = await list(staff, partnerId);
    expect(status).toBe(200);
    expect(body.data.total).toBe(2);
    expect(body.data.items.map((row) => row.id)).toEqual([second, first]);
    const aline = body.data.items[1]!;
    expect(aline.applicant.name).toBe('Aline Uwase');
    expect(aline.applicant.email).toMatch(/@test\.kaminuza\.example$/);
    expect(aline.program?.name).toBeTruthy();
    expect(aline.cycle?.name).toBeTruthy();
    expect(aline).toMatchObject({ status: 'pending', amount: '5000.00', currency: 'RWF', provider: 'mtn_momo' });
    expect(body.data.items[0]).toMatchObject({ amount: '12.50', method: 'card', status: 'succeeded' });
    expect(body.data.items[0]!.paid_at).toMatch(/Z$/);
  });

  it('filters by provider, method, status, currency, cycle, refund and search, and pages', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'fin-filters');
    const momoOk = await payment(partnerId, {
      amount: 5000,
      currency: 'RWF',
      status: 'succeeded',
      provider_transaction_id: 'MOMO-TX-778899',
      name: { first: 'Jean', last: 'Habimana' },
    });
    const mpesaFailed = await payment(partnerId, {
      provider: 'mpesa',
      amount: 1000,
      currency: 'KES',
      status: 'failed',
      failure_reason: 'Declined',
    });
    const owed = await payment(partnerId, {
      amount: 5000,
      currency: 'RWF',
      status: 'succeeded',
      refund_status: 'needed',
    });
    const card = await payment(partnerId, {
      provider: 'flutterwave',
      amount: 20,
      currency: 'USD',
      status: 'pending',
      method: 'card',
      name: { first: 'Grâce', last: '100%_Sure' },
    });
    const staff = await staffOf(partnerId, ['manage_finance']);
    const ids = async (query: string) => (await list(staff, partnerId, query)).body.data.items.map((row) => row.id);

    expect(await ids('provider=mpesa')).toEqual([mpesaFailed]);
    expect(await ids('method=card')).toEqual([card]);
    expect(await ids('status=succeeded')).toEqual([owed, momoOk]);
    expect(await ids('currency=rwf')).toEqual([owed, momoOk]);
    expect(await ids('needs_refund=true')).toEqual([owed]);
    expect(await ids('needs_refund=false')).toEqual([card, mpesaFailed, momoOk]);
    expect(await ids('q=habimana')).toEqual([momoOk]);
    expect(await ids('q=MOMO-TX-7788')).toEqual([momoOk]);
    // Accents fold, and % and _ are the characters themselves, not wildcards.
    expect(await ids('q=grace')).toEqual([card]);
    expect(await ids(`q=${encodeURIComponent('100%_')}`)).toEqual([card]);
    expect(await ids(`q=${encodeURIComponent('1%0')}`)).toEqual([]);
    const { reference } = await paymentByIdOf(owed);
    expect(await ids(`q=${reference.slice(0, 13)}`)).toEqual([owed]);
    const applicantEmail = (await list(staff, partnerId, 'provider=mpesa')).body.data.items[0]!.applicant.email!;
    expect(await ids(`q=${encodeURIComponent(applicantEmail)}`)).toEqual([mpesaFailed]);
    expect(await ids(`cycle_id=${randomUUID()}`)).toEqual([]);
    const cycleId = (await list(staff, partnerId)).body.data.items[0]!.cycle!.id;
    expect(await ids(`cycle_id=${cycleId}`)).toHaveLength(4);

    const page1 = await list(staff, partnerId, 'limit=3&page=1');
    const page2 = await list(staff, partnerId, 'limit=3&page=2');
    expect(page1.body.data.total).toBe(4);
    expect(page1.body.data.items.map((row) => row.id)).toEqual([card, owed, mpesaFailed]);
    expect(page2.body.data.items.map((row) => row.id)).toEqual([momoOk]);
  });

  it('totals every matching payment per currency, exactly', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'fin-totals');
    await payment(partnerId, { amount: 0.1, currency: 'USD', status: 'succeeded', method: 'card' });
    await payment(partnerId, { amount: 0.2, currency: 'USD', status: 'succeeded', method: 'card' });
    await payment(partnerId, { amount: 9_999_999_999.99, currency: 'USD', status: 'succeeded', method: 'card' });
    await payment(partnerId, { amount: 25, currency: 'USD', status: 'pending', method: 'card' });
    await payment(partnerId, { amount: 5000, currency: 'RWF', status: 'succeeded' });
    await payment(partnerId, { amount: 5000, currency: 'RWF', status: 'succeeded', refund_status: 'needed' });
    await payment(partnerId, { amount: 5000, currency: 'RWF', status: 'succeeded', refund_status: 'refunded' });
    await payment(partnerId, { amount: 5000, currency: 'RWF', status: 'failed' });
    const staff = await staffOf(partnerId, ['all']);

    const { body } = await list(staff, partnerId, 'limit=1');
    expect(body.data.items).toHaveLength(1);
    expect(body.data.totals).toEqual([
      {
        currency: 'RWF',
        collected: '15000.00',
        count_succeeded: 3,
        pending_count: 0,
        refunds_needed: { amount: '5000.00', count: 1 },
      },
      {
        currency: 'USD',
        collected: '10000000000.29',
        count_succeeded: 3,
        pending_count: 1,
        refunds_needed: { amount: '0.00', count: 0 },
      },
    ]);
    // The totals follow the filters.
    const rwf = await list(staff, partnerId, 'currency=RWF&needs_refund=true');
    expect(rwf.body.data.totals).toEqual([
      {
        currency: 'RWF',
        collected: '5000.00',
        count_succeeded: 1,
        pending_count: 0,
        refunds_needed: { amount: '5000.00', count: 1 },
      },
    ]);
    expect((await list(staff, partnerId, 'currency=EUR')).body.data.totals).toEqual([]);
  });

  it('refuses bad filters with 400 and the message', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'fin-bad');
    const staff = await staffOf(partnerId, ['view_payments']);
    for (const query of [
      'provider=paypal',
      'method=cash',
      'status=refunded',
      'needs_refund=yes',
      'cycle_id=nope',
      'page=0',
      `q=${'x'.repeat(101)}`,
    ]) {
      const { status, body } = await list(staff, partnerId, query);
      expect(status, query).toBe(400);
      expect(JSON.stringify(body.error?.details), query).toContain(FINANCE_MESSAGES.filter_invalid);
    }
    for (const query of ['limit=101', 'limit=0', 'limit=ten']) {
      const { status, body } = await list(staff, partnerId, query);
      expect(status, query).toBe(400);
      expect(JSON.stringify(body.error?.details), query).toContain(FINANCE_MESSAGES.limit_invalid);
    }
    const currency = await list(staff, partnerId, 'currency=RWFX');
    expect(currency.status).toBe(400);
    expect(JSON.stringify(currency.body.error?.details)).toContain(FINANCE_MESSAGES.currency_invalid);
  });

  it('is refused without a finance permission (403), to another institution (404) and to students (403)', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'fin-deny');
    const otherId = await createPayingInstitution(ctx.db, 'fin-deny-other');
    const reviewer = await staffOf(partnerId, ['review_applications', 'make_decisions']);
    expect((await list(reviewer, partnerId)).status).toBe(403);
    const outsider = await staffOf(otherId, ['all']);
    expect((await list(outsider, partnerId)).status).toBe(404);
    const student = await signInAs(ctx.app, 'student');
    expect((await list(student, partnerId)).status).toBe(403);
    const anonymous = await ctx.app.inject({ method: 'GET', url: `/api/v1/partners/${partnerId}/finance/payments` });
    expect(anonymous.statusCode).toBe(401);
    const csv = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/finance/payments.csv`,
      headers: reviewer.headers,
    });
    expect(csv.statusCode).toBe(403);
  });
});

describe('the CSV export', () => {
  it('writes the filtered payments with a header, RFC 4180 quoting and formula-safe cells', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'fin-csv');
    await payment(partnerId, {
      amount: 5000,
      currency: 'RWF',
      status: 'succeeded',
      name: { first: '=HYPERLINK("http://evil")', last: 'Smith, "Jr"' },
    });
    await payment(partnerId, { amount: 7.5, currency: 'USD', status: 'failed', failure_reason: '+1 declined\nretry' });
    await payment(partnerId, { amount: 99, currency: 'KES', status: 'pending', name: { first: '@Mwangi', last: '-' } });
    const staff = await staffOf(partnerId, ['view_payments']);

    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/finance/payments.csv?status=succeeded&page=2&limit=1`,
      headers: staff.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="payments-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = response.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'Reference,Applicant,Email,Program,Cycle,Provider,Method,Status,Amount,Currency,Failure reason,Refund status,Refund note,Refunded at,Provider transaction id,Paid at,Created at',
    );
    // The filters apply, the page does not.
    expect(lines.filter((line) => line !== '')).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"") Smith, ""Jr"""`);
    expect(lines[1]).toContain(',mtn_momo,mobile_money,succeeded,5000.00,RWF,');

    const all = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${partnerId}/finance/payments.csv`,
      headers: staff.headers,
    });
    expect(all.body).toContain(`"'+1 declined\nretry"`);
    expect(all.body).toContain(",'@Mwangi -,");
    expect(
      all.body
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .filter((line) => line !== ''),
    ).toHaveLength(4);
  });
});

describe('the refund by hand', () => {
  it('marks a payment owed back as refunded with the note, and writes an audit row', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'fin-refund');
    const owed = await payment(partnerId, {
      amount: 5000,
      currency: 'RWF',
      status: 'succeeded',
      refund_status: 'needed',
    });
    const manager = await staffOf(partnerId, ['manage_finance']);

    const { status, body } = await refund(manager, partnerId, owed, { note: '  Sent back on MoMo, tx 12345  ' });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      id: owed,
      refund_status: 'refunded',
      refund_note: 'Sent back on MoMo, tx 12345',
    });
    expect(body.data.refunded_at).toMatch(/Z$/);
    const [row] = await ctx.db.select().from(payments).where(eq(payments.id, owed));
    expect(row).toMatchObject({
      refund_status: 'refunded',
      refund_note: 'Sent back on MoMo, tx 12345',
      status: 'succeeded',
    });
    const audit = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.target_type, 'payment'), eq(auditLog.target_id, owed)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: manager.id, action: 'payment.refunded_by_hand' });
    expect(audit[0]!.details).toMatchObject({
      amount: '5000.00',
      currency: 'RWF',
      note: 'Sent back on MoMo, tx 12345',
    });

    // Once refunded, it no longer waits: a second time is a conflict.
    const again = await refund(manager, partnerId, owed, { note: 'twice' });
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe(FINANCE_MESSAGES.refund_not_needed);
    expect((await list(manager, partnerId, 'needs_refund=true')).body.data.items).toEqual([]);
  });

  it('refuses the wrong state (409), a bad note (400), no manage_finance (403), another institution (404)', async () => {
    const partnerId = await createPayingInstitution(ctx.db, 'fin-refund-deny');
    const otherId = await createPayingInstitution(ctx.db, 'fin-refund-other');
    const owed = await payment(partnerId, {
      amount: 5000,
      currency: 'RWF',
      status: 'succeeded',
      refund_status: 'needed',
    });
    const paid = await payment(partnerId, { amount: 5000, currency: 'RWF', status: 'succeeded' });
    const theirs = await payment(otherId, {
      amount: 5000,
      currency: 'RWF',
      status: 'succeeded',
      refund_status: 'needed',
    });
    const manager = await staffOf(partnerId, ['manage_finance']);
    const viewer = await staffOf(partnerId, ['view_payments']);
    const note = { note: 'Paid back in cash' };

    const wrongState = await refund(manager, partnerId, paid, note);
    expect(wrongState.status).toBe(409);
    expect(wrongState.body.error?.message).toBe(FINANCE_MESSAGES.refund_not_needed);

    const empty = await refund(manager, partnerId, owed, { note: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error?.details).toEqual([{ path: 'note', message: FINANCE_MESSAGES.note_required }]);
    const missing = await refund(manager, partnerId, owed, {});
    expect(missing.status).toBe(400);
    const long = await refund(manager, partnerId, owed, { note: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.error?.details).toEqual([{ path: 'note', message: FINANCE_MESSAGES.note_too_long }]);

    expect((await refund(viewer, partnerId, owed, note)).status).toBe(403);
    // Another institution's payment through our own institution's path, and our payment through theirs.
    const notOurs = await refund(manager, partnerId, theirs, note);
    expect(notOurs.status).toBe(404);
    expect(notOurs.body.error?.message).toBe(FINANCE_MESSAGES.payment_not_found);
    expect((await refund(manager, otherId, owed, note)).status).toBe(404);
    expect((await refund(manager, partnerId, randomUUID(), note)).status).toBe(404);

    // Nothing was changed by the refusals.
    expect((await paymentByIdOf(owed)).refund_status).toBe('needed');
    expect((await paymentByIdOf(theirs)).refund_status).toBe('needed');
  });
});

async function paymentByIdOf(id: string) {
  const [row] = await ctx.db.select().from(payments).where(eq(payments.id, id));
  return row!;
}
