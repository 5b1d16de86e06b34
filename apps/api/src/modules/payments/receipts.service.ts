import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { PAYMENT_MESSAGES, type Language, type ReceiptVerification } from '@kaminuza/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { applications, partners, payments, programs, students, submissions, users } from '../../db/schema/index.ts';
import { uniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { codeCharacters, newVerificationCode } from '../../lib/verification-code.ts';
import { emailLanguage, enqueueEmail } from '../email/index.ts';
import { cycleSettings } from '../partner-settings/index.ts';
import { formatMoney, renderReceiptPdf, verifyUrlOf, type ReceiptFacts } from './receipt-pdf.ts';

/*
 * Receipts of paid application fees. A payment gets its receipt number and verification code when it
 * settles as succeeded, in the same transaction, and the payer is emailed a link to the PDF and to the
 * public verify page. A payment that succeeded before receipts existed gets its receipt the first time it
 * is asked for. The PDF is rendered on each download from the record, never stored.
 */

/** `KZ-R-2026-4F7K2Q`: the year paid and 30 random bits of the verification codes' alphabet. */
export function newReceiptNumber(paidAt: Date): string {
  return `KZ-R-${paidAt.getUTCFullYear()}-${codeCharacters(6)}`;
}

/** Draws again on the (unlikely) clash of a number or code with another receipt's. */
const ISSUE_ATTEMPTS = 5;

const downloadUrlOf = (publicUrl: string, reference: string) =>
  `${publicUrl}/api/v1/payments/${encodeURIComponent(reference)}/receipt`;

interface Issued {
  receipt_number: string;
  receipt_code: string;
}

/** Gives the succeeded payment its number and code unless it has them: null when it had them already. */
async function assignReceipt(tx: DbOrTx, paymentId: string, paidAt: Date): Promise<Issued | null> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      // A savepoint: a clash leaves the caller's transaction usable for the next draw.
      return await tx.transaction(async (savepoint) => {
        const [row] = await savepoint
          .update(payments)
          .set({ receipt_number: newReceiptNumber(paidAt), receipt_code: newVerificationCode() })
          .where(and(eq(payments.id, paymentId), eq(payments.status, 'succeeded'), isNull(payments.receipt_number)))
          .returning({ receipt_number: payments.receipt_number, receipt_code: payments.receipt_code });
        return row ? { receipt_number: row.receipt_number!, receipt_code: row.receipt_code! } : null;
      });
    } catch (error) {
      if (uniqueViolation(error) === null || attempt >= ISSUE_ATTEMPTS) throw error;
    }
  }
}

/** Everything a receipt shows, and whom it goes to. */
async function receiptRow(db: DbOrTx, where: SQL | undefined) {
  const [row] = await db
    .select({
      payment: payments,
      institution: partners.name,
      program: programs.name,
      first_name: students.first_name,
      last_name: students.last_name,
      language: students.language,
      user_id: students.user_id,
      email: users.email,
      submission_reference: submissions.reference,
    })
    .from(payments)
    .innerJoin(applications, eq(applications.id, payments.application_id))
    .innerJoin(partners, eq(partners.id, payments.partner_id))
    .innerJoin(programs, eq(programs.id, applications.program_id))
    .innerJoin(students, eq(students.id, applications.student_id))
    .innerJoin(users, eq(users.id, students.user_id))
    .leftJoin(submissions, eq(submissions.payment_id, payments.id))
    .where(where)
    .limit(1);
  return row ?? null;
}
type ReceiptRow = NonNullable<Awaited<ReturnType<typeof receiptRow>>>;

const payerNameOf = (row: Pick<ReceiptRow, 'first_name' | 'last_name' | 'email'>) =>
  [row.first_name, row.last_name].filter((part) => part?.trim()).join(' ') || row.email;

/**
 * Issues the receipt of a payment that just settled as succeeded, in the settling transaction: its
 * number and code, and the email to the payer (in their language) with the link to the PDF and the
 * verify link, both under `publicUrl` (the configured env's, handed down by whoever settles). Does nothing
 * for a payment that has its receipt already; answers what was issued.
 */
export async function issueReceipt(tx: DbOrTx, paymentId: string, publicUrl: string): Promise<Issued | null> {
  const row = await receiptRow(tx, eq(payments.id, paymentId));
  if (!row || row.payment.status !== 'succeeded') return null;
  const issued = await assignReceipt(tx, paymentId, new Date(row.payment.paid_at ?? Date.now()));
  if (!issued) return null;
  const language = emailLanguage(row.language);
  await enqueueEmail(tx, {
    to: row.email,
    template: 'payment_receipt',
    language,
    data: {
      name: row.first_name ?? undefined,
      institution_name: row.institution,
      program_name: row.program,
      amount: formatMoney(row.payment.amount, row.payment.currency, language),
      reference: issued.receipt_number,
      link: downloadUrlOf(publicUrl, row.payment.reference),
      verify_link: verifyUrlOf(publicUrl, issued.receipt_code),
    },
  });
  return issued;
}

export interface ReceiptFile {
  fileName: string;
  pdf: Buffer;
}

/** The PDF of a succeeded payment; one paid before receipts existed gets its number and code now. */
async function receiptFile(db: Db, row: ReceiptRow, publicUrl: string): Promise<ReceiptFile> {
  if (row.payment.status !== 'succeeded' || !row.payment.paid_at) {
    throw new AppError('ABORTED', PAYMENT_MESSAGES.receipt_not_ready, undefined, { reason: 'not_paid' });
  }
  let { receipt_number: number, receipt_code: code } = row.payment;
  if (!number || !code) {
    const paidAt = new Date(row.payment.paid_at);
    // A concurrent first request may win the assignment: then its number is the receipt's.
    const issued = await db.transaction((tx) => assignReceipt(tx, row.payment.id, paidAt));
    const [stored] = issued
      ? [issued]
      : await db
          .select({ receipt_number: payments.receipt_number, receipt_code: payments.receipt_code })
          .from(payments)
          .where(eq(payments.id, row.payment.id));
    number = stored!.receipt_number;
    code = stored!.receipt_code;
    if (!number || !code) throw new Error('receipt not issued for a succeeded payment');
  }
  const { timezone } = await cycleSettings(db, row.payment.partner_id);
  const language: Language = emailLanguage(row.language);
  const facts: ReceiptFacts = {
    institution: row.institution,
    receiptNumber: number,
    code,
    paidAt: new Date(row.payment.paid_at).toISOString(),
    timezone,
    payerName: payerNameOf(row),
    applicationReference: row.submission_reference,
    program: row.program,
    amount: row.payment.amount,
    currency: row.payment.currency,
    method: row.payment.method,
    provider: row.payment.provider,
    providerTransactionId: row.payment.provider_transaction_id,
    paymentReference: row.payment.reference,
  };
  return { fileName: `kaminuza-receipt-${number}.pdf`, pdf: await renderReceiptPdf(facts, language, publicUrl) };
}

/** GET /payments/:reference/receipt — the payer's own receipt: another's payment is 404, an unpaid one 409. */
export async function payerReceipt(db: Db, userId: string, reference: string, publicUrl: string) {
  const row = await receiptRow(db, and(eq(payments.reference, reference), eq(students.user_id, userId)));
  if (!row) throw new AppError('NOT_FOUND');
  return receiptFile(db, row, publicUrl);
}

/** A payment's receipt for the institution it was paid to; another institution's payment is 404. */
export async function institutionReceipt(db: Db, partnerId: string, paymentId: string, publicUrl: string) {
  const row = await receiptRow(db, and(eq(payments.id, paymentId), eq(payments.partner_id, partnerId)));
  if (!row) throw new AppError('NOT_FOUND');
  return receiptFile(db, row, publicUrl);
}

/** "J. K." — as much of the payer as the public check shows. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => `${[...part][0]!.toUpperCase()}.`)
    .join(' ');
}

/** GET /receipts/verify/:code — that a receipt is genuine, with no more of the payer than initials. */
export async function verifyReceipt(db: Db, code: string): Promise<ReceiptVerification> {
  const row = await receiptRow(db, and(eq(payments.receipt_code, code), eq(payments.status, 'succeeded')));
  if (!row?.payment.receipt_number || !row.payment.paid_at) {
    throw new AppError('NOT_FOUND', PAYMENT_MESSAGES.receipt_not_found);
  }
  return {
    valid: true,
    receipt_number: row.payment.receipt_number,
    institution: row.institution,
    payer_initials: initialsOf([row.first_name, row.last_name].filter(Boolean).join(' ')),
    amount: row.payment.amount,
    currency: row.payment.currency,
    paid_at: new Date(row.payment.paid_at).toISOString(),
    method: row.payment.method,
    provider: row.payment.provider,
  };
}
