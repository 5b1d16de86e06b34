import { and, eq } from 'drizzle-orm';
import { FINANCE_MESSAGES, type FinancePayment, type SlipVerification } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { applications, auditLog, partners, payments, programs, students } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { openFile, type StoredFile } from '../documents/index.ts';
import { notify, notifyFeeDecision } from '../notifications/index.ts';
import type { StaffCaller } from '../partners/index.ts';
import { selectRows, toPayment } from './finance.service.ts';
import { settlePayment } from './payments.service.ts';

/*
 * Bank slips (ADR 037): the applicant deposits the fee at the institution's bank and sends the slip's
 * photo or PDF with the bank's reference; the payment waits, pending, for staff holding manage_finance.
 * Approving settles it through settlePayment, the one path every payment settles by (so the receipt is
 * issued exactly once); rejecting fails it with the reason the applicant reads, and they may send another.
 */

/** Where an applicant sees their application and its fee. */
const applicationPathOf = (partnerId: string) => `/partners/${encodeURIComponent(partnerId)}/application/form`;

const silentLog = {
  warn: () => undefined,
};

/**
 * POST /partners/:partnerId/finance/payments/:paymentId/verify. The payment is locked while it is decided:
 * of two decisions at once, the second finds it no longer pending (409). Another institution's payment is 404.
 */
export async function verifyBankSlip(
  db: Db,
  caller: StaffCaller,
  actorUserId: string,
  paymentId: string,
  input: SlipVerification,
  publicUrl: string,
): Promise<FinancePayment> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        payment: payments,
        user_id: students.user_id,
        institution: partners.name,
        program: programs.name,
      })
      .from(payments)
      .innerJoin(partners, eq(partners.id, payments.partner_id))
      .innerJoin(applications, eq(applications.id, payments.application_id))
      .innerJoin(programs, eq(programs.id, applications.program_id))
      .leftJoin(students, eq(students.id, payments.student_id))
      .where(and(eq(payments.id, paymentId), eq(payments.partner_id, caller.partnerId)))
      .for('update', { of: payments });
    if (!row) throw new AppError('NOT_FOUND', FINANCE_MESSAGES.payment_not_found);
    const { payment } = row;
    if (payment.provider !== 'bank_slip' || payment.status !== 'pending') {
      throw new AppError('ABORTED', FINANCE_MESSAGES.slip_not_pending);
    }
    const now = new Date().toISOString();
    const approve = input.decision === 'approve';
    const reason = approve ? null : (input.reason?.trim() ?? null);
    await tx
      .update(payments)
      .set({ reviewed_by: actorUserId, reviewed_at: now, updated_at: now })
      .where(eq(payments.id, payment.id));
    const settled = await settlePayment(
      tx,
      'bank_slip',
      {
        id: `slip_review_${payment.id}`,
        type: approve ? 'payment.succeeded' : 'payment.failed',
        data: {
          reference: payment.reference,
          amount: payment.amount,
          currency: payment.currency,
          method: 'bank_transfer',
          failure_reason: reason,
        },
      },
      { log: silentLog, publicUrl },
    );
    // The row is locked and pending, so the settlement applies; anything else is a bug, not a race. A slip
    // approved after the fee was waived is money received that is not the fee: settled as owed back.
    if (settled !== 'settled' && !(approve && settled === 'refund_needed')) {
      throw new Error(`bank slip ${payment.id} did not settle: ${settled}`);
    }
    await tx.insert(auditLog).values({
      actor_id: actorUserId,
      action: approve ? 'payment.slip_approved' : 'payment.slip_rejected',
      target_type: 'payment',
      target_id: payment.id,
      details: {
        partner_id: caller.partnerId,
        staff_id: caller.staffId,
        amount: String(payment.amount),
        currency: payment.currency,
        bank_reference: payment.bank_reference,
        ...(reason ? { reason } : {}),
      },
    });
    if (row.user_id && approve && settled === 'settled') {
      // The receipt email tells of the payment: the approval itself is told in the app only. A deposit
      // received after the fee was waived is not "accepted" as the fee: the refund staff make tells of it.
      await notify(tx, {
        userId: row.user_id,
        category: 'status_updates',
        type: 'payment_slip_approved',
        data: { institution: row.institution, bank_reference: payment.bank_reference, reason },
        link: applicationPathOf(payment.partner_id),
      });
    } else if (row.user_id && !approve) {
      await notifyFeeDecision(tx, {
        userId: row.user_id,
        type: 'payment_slip_rejected',
        institution: row.institution,
        program: row.program,
        reason,
        data: { bank_reference: payment.bank_reference },
        path: applicationPathOf(payment.partner_id),
        publicUrl,
      });
    }
    const [after] = await selectRows(tx).where(eq(payments.id, payment.id));
    return toPayment(after!);
  });
}

/** The slip's photo or PDF, for the institution's finance staff; 404 for another institution's or none. */
export async function bankSlipFile(
  db: Db,
  storage: Storage,
  caller: StaffCaller,
  paymentId: string,
): Promise<StoredFile> {
  const [row] = await db
    .select({ file_id: payments.slip_file_id })
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.partner_id, caller.partnerId)))
    .limit(1);
  if (!row?.file_id) throw new AppError('NOT_FOUND', FINANCE_MESSAGES.payment_not_found);
  return openFile(db, storage, row.file_id);
}
