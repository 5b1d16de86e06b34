import { inflateSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES, type PaymentEvent } from '@kaminuza/shared';
import { buildApp, type App } from '../../app.ts';
import { emailOutbox, payments, students } from '../../db/schema/index.ts';
import { signInAs } from '../../test/auth.ts';
import { TEST_PUBLIC_URL, testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createPayingInstitution, createPendingPayment, paymentByReference } from '../../test/payments.ts';
import { settlePayment } from './payments.service.ts';
import { renderReceiptPdf } from './receipt-pdf.ts';
import { initialsOf } from './receipts.service.ts';

/*
 * Receipts: issued once when a payment settles (however many deliveries race), downloaded as a PDF by the
 * payer and the institution's reviewers only, and checked by anyone through the verify route.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: App;
let partnerId: string;
const log = { warn: () => undefined };
/** What a settlement driven directly by this file reports to, and links its receipt email from. */
const settling = { log, publicUrl: TEST_PUBLIC_URL };

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({ database, env: testEnv(), logger: false });
  partnerId = await createPayingInstitution(database.db, 'receipts');
});

afterAll(async () => {
  await app.close();
  await database.close();
});

const succeeded = (reference: string, amount = 10000): PaymentEvent => ({
  id: `evt_${reference}`,
  type: 'payment.succeeded',
  data: { reference, amount, currency: 'RWF', method: 'mobile_money', failure_reason: null },
});

const WIN_ANSI = new TextDecoder('windows-1252');

/** The text a PDF shows: every string its (deflated) content streams write with TJ or Tj, WinAnsi decoded. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const parts: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1]!, 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const op of content.matchAll(/\[((?:<[0-9a-fA-F]*>|\s|-?[\d.]+)*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      const hexes = op[1] !== undefined ? [...op[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]!) : [op[2]!];
      parts.push(hexes.map((hex) => WIN_ANSI.decode(Buffer.from(hex, 'hex'))).join(''));
    }
  }
  return parts.join('\n');
}

async function paidByStudent(amount = 10000) {
  const payer = await signInAs(app, 'student');
  const payment = await createPendingPayment(database.db, partnerId, {
    provider: 'sandbox',
    amount,
    currency: 'RWF',
    userId: payer.id,
  });
  return { payer, ...payment };
}

describe('issuing at settlement', () => {
  it('links the email to the public URL the settlement is handed, whatever the process environment says', async () => {
    const { reference, payer } = await paidByStudent();
    const publicUrl = 'https://admissions.example.org';
    const before = process.env.PUBLIC_URL;
    process.env.PUBLIC_URL = 'https://not-this-one.example.com';
    try {
      expect(await settlePayment(database.db, 'sandbox', succeeded(reference), { log, publicUrl })).toBe('settled');
    } finally {
      if (before === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = before;
    }
    const row = await paymentByReference(database.db, reference);
    const [email] = await database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, payer.email), eq(emailOutbox.template, 'payment_receipt')));
    expect(email!.text).toContain(`${publicUrl}/api/v1/payments/${reference}/receipt`);
    expect(email!.text).toContain(`${publicUrl}/verify/receipt/${row.receipt_code}`);
    expect(email!.html).not.toContain('not-this-one');
  });

  it('issues one receipt and one email even when the success is delivered 10 times at once', async () => {
    const { reference, payer } = await paidByStudent();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => settlePayment(database.db, 'sandbox', succeeded(reference), settling)),
    );
    expect(outcomes.filter((outcome) => outcome === 'settled')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'unchanged')).toHaveLength(9);

    const row = await paymentByReference(database.db, reference);
    expect(row.receipt_number).toMatch(/^KZ-R-\d{4}-[A-HJ-NP-Z2-9]{6}$/);
    expect(row.receipt_code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);

    const emails = await database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, payer.email), eq(emailOutbox.template, 'payment_receipt')));
    expect(emails).toHaveLength(1);
    const [email] = emails;
    expect(email!.text).toContain(row.receipt_number!);
    expect(email!.text).toContain(`${TEST_PUBLIC_URL}/api/v1/payments/${reference}/receipt`);
    expect(email!.text).toContain(`${TEST_PUBLIC_URL}/verify/receipt/${row.receipt_code}`);

    // A replay long after changes nothing either.
    expect(await settlePayment(database.db, 'sandbox', succeeded(reference), settling)).toBe('unchanged');
    expect((await paymentByReference(database.db, reference)).receipt_number).toBe(row.receipt_number);
  });

  it('issues no receipt for a failed payment', async () => {
    const { reference } = await paidByStudent();
    const failed: PaymentEvent = {
      id: `evt_failed_${reference}`,
      type: 'payment.failed',
      data: { reference, amount: 10000, currency: 'RWF', method: 'card', failure_reason: null },
    };
    expect(await settlePayment(database.db, 'sandbox', failed, settling)).toBe('settled');
    const row = await paymentByReference(database.db, reference);
    expect([row.receipt_number, row.receipt_code]).toEqual([null, null]);
  });

  it('writes the email in the payer’s language', async () => {
    const { reference, payer } = await paidByStudent();
    await database.db.update(students).set({ language: 'fr' }).where(eq(students.user_id, payer.id));
    await settlePayment(database.db, 'sandbox', succeeded(reference), settling);
    const [email] = await database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, payer.email), eq(emailOutbox.template, 'payment_receipt')));
    expect(email!.language).toBe('fr');
    expect(email!.subject).toContain('Reçu');
  });
});

describe('GET /payments/:reference/receipt', () => {
  it('answers the payer the PDF, with the number and a QR code', async () => {
    const { reference, payer } = await paidByStudent(25000);
    await settlePayment(database.db, 'sandbox', succeeded(reference, 25000), settling);
    const row = await paymentByReference(database.db, reference);
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/payments/${reference}/receipt`,
      headers: payer.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain(`kaminuza-receipt-${row.receipt_number}.pdf`);
    expect(response.headers['content-disposition']).toMatch(/^attachment;/);
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('/Subtype /Image');
    const text = pdfText(pdf);
    expect(text).toContain(row.receipt_number);
    expect(text).toContain(row.receipt_code);
    expect(text).toContain('Receipt');
    expect(text).toContain('Mobile money — Sandbox (test payment)');
    expect(text).toContain('RWF');
    expect(text).toContain('25,000');
    // The link may wrap across lines of the PDF.
    expect(text.replaceAll('\n', '')).toContain(`${TEST_PUBLIC_URL}/verify/receipt/${row.receipt_code}`);
  });

  it('writes a French payer’s receipt in French, accents included', async () => {
    const { reference, payer } = await paidByStudent();
    await database.db.update(students).set({ language: 'fr' }).where(eq(students.user_id, payer.id));
    await settlePayment(database.db, 'sandbox', succeeded(reference), settling);
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/payments/${reference}/receipt`,
      headers: payer.headers,
    });
    const text = pdfText(response.rawPayload);
    expect(text).toContain('Reçu');
    expect(text).toContain('Numéro de reçu');
  });

  it('writes a Kinyarwanda payer’s receipt in Kinyarwanda', async () => {
    const { reference, payer } = await paidByStudent();
    await database.db.update(students).set({ language: 'rw' }).where(eq(students.user_id, payer.id));
    await settlePayment(database.db, 'sandbox', succeeded(reference), settling);
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/payments/${reference}/receipt`,
      headers: payer.headers,
    });
    expect(pdfText(response.rawPayload)).toContain('Inyemezabwishyu');
  });

  it('is 409 while the payment is not paid, 404 to another student, 401 to nobody', async () => {
    const { reference, payer } = await paidByStudent();
    const url = `/api/v1/payments/${reference}/receipt`;
    const pending = await app.inject({ method: 'GET', url, headers: payer.headers });
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error.message).toBe(PAYMENT_MESSAGES.receipt_not_ready);

    await settlePayment(database.db, 'sandbox', succeeded(reference), settling);
    const other = await signInAs(app, 'student');
    expect((await app.inject({ method: 'GET', url, headers: other.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const staff = await signInAs(app, 'staff', { partnerId });
    expect((await app.inject({ method: 'GET', url, headers: staff.headers })).statusCode).toBe(403);
  });

  it('issues the receipt of a payment paid before receipts existed on its first download, once', async () => {
    const { reference, payer } = await paidByStudent();
    await database.db
      .update(payments)
      .set({ status: 'succeeded', method: 'card', paid_at: new Date().toISOString() })
      .where(eq(payments.reference, reference));
    const url = `/api/v1/payments/${reference}/receipt`;
    const [first, second] = await Promise.all([
      app.inject({ method: 'GET', url, headers: payer.headers }),
      app.inject({ method: 'GET', url, headers: payer.headers }),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const row = await paymentByReference(database.db, reference);
    expect(row.receipt_number).toMatch(/^KZ-R-/);
    expect(pdfText(first.rawPayload)).toContain(row.receipt_number);
    expect(pdfText(second.rawPayload)).toContain(row.receipt_number);
  });
});

describe('GET /partners/:partnerId/review/payments/:paymentId/receipt', () => {
  it('answers the institution’s reviewers, and no one else', async () => {
    const { reference } = await paidByStudent();
    await settlePayment(database.db, 'sandbox', succeeded(reference), settling);
    const row = await paymentByReference(database.db, reference);
    const url = `/api/v1/partners/${partnerId}/review/payments/${row.id}/receipt`;

    const reviewer = await signInAs(app, 'staff', { partnerId, permissions: ['review_applications'] });
    const ok = await app.inject({ method: 'GET', url, headers: reviewer.headers });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/pdf');
    expect(pdfText(ok.rawPayload)).toContain(row.receipt_number);

    const programs = await signInAs(app, 'staff', { partnerId, permissions: ['manage_programs'] });
    expect((await app.inject({ method: 'GET', url, headers: programs.headers })).statusCode).toBe(403);

    // Another institution's reviewer, asking through their own institution or through this one.
    const elsewhere = await signInAs(app, 'staff', { permissions: ['review_applications'] });
    const ownUrl = `/api/v1/partners/${elsewhere.partnerId}/review/payments/${row.id}/receipt`;
    expect((await app.inject({ method: 'GET', url: ownUrl, headers: elsewhere.headers })).statusCode).toBe(404);
    expect([403, 404]).toContain((await app.inject({ method: 'GET', url, headers: elsewhere.headers })).statusCode);

    const student = await signInAs(app, 'student');
    expect([403, 404]).toContain((await app.inject({ method: 'GET', url, headers: student.headers })).statusCode);
  });

  it('is 409 for a payment not paid and 400 for a malformed id', async () => {
    const { reference } = await paidByStudent();
    const row = await paymentByReference(database.db, reference);
    const reviewer = await signInAs(app, 'staff', { partnerId, permissions: ['review_applications'] });
    const base = `/api/v1/partners/${partnerId}/review/payments`;
    expect(
      (await app.inject({ method: 'GET', url: `${base}/${row.id}/receipt`, headers: reviewer.headers })).statusCode,
    ).toBe(409);
    expect(
      (await app.inject({ method: 'GET', url: `${base}/not-a-uuid/receipt`, headers: reviewer.headers })).statusCode,
    ).toBe(400);
  });
});

describe('GET /receipts/verify/:code', () => {
  it('confirms a receipt with the payer by initials only', async () => {
    const { reference } = await paidByStudent(15000);
    await settlePayment(database.db, 'sandbox', succeeded(reference, 15000), settling);
    const row = await paymentByReference(database.db, reference);
    // Any case works: a code is typed back from paper.
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/receipts/verify/${row.receipt_code!.toLowerCase()}`,
    });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data).toEqual({
      valid: true,
      receipt_number: row.receipt_number,
      institution: expect.stringContaining('Institution receipts-'),
      payer_initials: 'T. S.',
      amount: 15000,
      currency: 'RWF',
      paid_at: new Date(row.paid_at!).toISOString(),
      method: 'mobile_money',
      provider: 'sandbox',
    });
    expect(JSON.stringify(data)).not.toContain('Student');
  });

  it('is 404 for an unknown code and 400 for something that is no code', async () => {
    const unknown = await app.inject({ method: 'GET', url: '/api/v1/receipts/verify/ABCD-EFGH-JKLM' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(PAYMENT_MESSAGES.receipt_not_found);
    const malformed = await app.inject({ method: 'GET', url: '/api/v1/receipts/verify/%3Cscript%3E' });
    expect(malformed.statusCode).toBe(400);
  });

  it('limits how often one address may ask', async () => {
    const remoteAddress = '10.200.200.200';
    let last = 0;
    for (let i = 0; i < 61; i += 1) {
      last = (await app.inject({ method: 'GET', url: '/api/v1/receipts/verify/ABCD-EFGH-JKLM', remoteAddress }))
        .statusCode;
    }
    expect(last).toBe(429);
  });
});

describe('renderReceiptPdf', () => {
  it('renders a name outside WinAnsi without failing, and French numbers with WinAnsi spaces', async () => {
    const pdf = await renderReceiptPdf(
      {
        institution: 'Université Łódź 大学',
        receiptNumber: 'KZ-R-2026-ABCDEF',
        code: 'ABCD-EFGH-JKLM',
        paidAt: '2026-07-15T09:30:00.000Z',
        timezone: 'Africa/Kigali',
        payerName: 'Zoë Đặng',
        applicationReference: null,
        program: 'Génie civil',
        amount: 1234567.5,
        currency: 'XOF',
        method: null,
        provider: 'bank_slip',
        providerTransactionId: null,
        paymentReference: 'pay_0123456789',
      },
      'fr',
      TEST_PUBLIC_URL,
    );
    const text = pdfText(pdf);
    expect(text).toContain('KZ-R-2026-ABCDEF');
    expect(text).toContain('15 juillet 2026 à 11:30');
    expect(text).toContain('Bordereau bancaire');
    // Intl's narrow no-break spaces (not in WinAnsi) are written as no-break spaces.
    expect(text).toContain('1\u00a0234\u00a0568');
    expect(text).not.toContain('\u202f');
  });
});

describe('initialsOf', () => {
  it('keeps the first letter of each name', () => {
    expect(initialsOf('Aline Uwase')).toBe('A. U.');
    expect(initialsOf('  émile  ')).toBe('É.');
    expect(initialsOf('')).toBe('');
  });
});
