import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { FINANCE_MESSAGES, type FinancePayment, type PaymentProvider as ProviderName } from '@kaminuza/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { auditLog, partners, payments, students } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { countryOfMsisdn } from '../../lib/mobile-number.ts';
import { notify } from '../notifications/index.ts';
import type { StaffCaller } from '../partners/index.ts';
import { lockedPaymentOf, selectRows, toPayment } from './finance.service.ts';
import { decimalToMinor, ProviderError } from './providers/mobile-money.ts';
import type { RefundAnswer, RefundRequest, RefundResult } from './providers/refunds.ts';
import { providerRefundAvailable, type RefundingProviders } from './refund-providers.ts';

/*
 * Refunds through the provider's own API (ADR 037, "Refunds through the providers"). A payment owed back is
 * refunded in full:
 * 1. Staff ask (`requestProviderRefund`): one update claims the payment — `needed` → `processing` with a
 *    fresh refund reference — so two clicks, two tabs or two instances make one refund; the caller then
 *    sends the refund job.
 * 2. The job (`runProviderRefund`) calls the provider with that reference. A provider unreachable is asked
 *    again with the same request (the reference is its idempotency key where it takes one).
 * 3. The answer closes it: refunded (the applicant is told), failed (owed back again, with the provider's
 *    code, for staff to retry or refund by hand), or pending — asked again by the job's follow-ups for
 *    about an hour, then by the sweep every few minutes (`resumeProviderRefunds`), or answered by the
 *    provider's asynchronous result (`acceptRefundResult`, Daraja's reversal).
 * Every step is an update guarded by `refund_status = 'processing'` and the reference: a late or repeated
 * answer changes nothing once the refund is closed.
 */

/** Where an applicant sees their application and its fee. */
const applicationPathOf = (partnerId: string) => `/partners/${encodeURIComponent(partnerId)}/application/form`;

/** The sweep asks about a refund left unanswered (pending, or its job lost in a crash) this long after. */
export const REFUND_SWEEP_AFTER_MS = 2 * 60_000;
/** Refunds the sweep takes per pass, oldest first. */
const SWEEP_BATCH = 50;

type Log = { warn(object: object, message: string): void };

/**
 * POST /partners/:partnerId/finance/payments/:paymentId/provider-refund. Claims the refund for the provider
 * (`needed` → `processing`) and answers the row; the caller sends the job (payments.jobs.ts `sendProviderRefund`). A payment of
 * another institution is 404; one not owed back 409; one already with the provider 409 in other words.
 */
export async function requestProviderRefund(
  db: Db,
  refunding: RefundingProviders,
  caller: StaffCaller,
  actorUserId: string,
  paymentId: string,
): Promise<{ payment: FinancePayment; refundReference: string }> {
  return db.transaction(async (tx) => {
    const payment = await lockedPaymentOf(tx, caller, paymentId);
    if (payment.refund_status === 'processing') throw new AppError('ABORTED', FINANCE_MESSAGES.refund_in_progress);
    if (payment.refund_status !== 'needed') throw new AppError('ABORTED', FINANCE_MESSAGES.refund_not_needed);
    if (!providerRefundAvailable(refunding, payment)) {
      throw new AppError('ABORTED', FINANCE_MESSAGES.refund_not_available);
    }
    const now = new Date().toISOString();
    const refundReference = randomUUID();
    await tx
      .update(payments)
      .set({
        refund_status: 'processing',
        refund_reference: refundReference,
        provider_refund_id: null,
        refund_error: null,
        refund_requested_by: actorUserId,
        refund_requested_at: now,
        updated_at: now,
      })
      .where(eq(payments.id, payment.id));
    await tx.insert(auditLog).values({
      actor_id: actorUserId,
      action: 'payment.refund_requested',
      target_type: 'payment',
      target_id: payment.id,
      details: {
        partner_id: caller.partnerId,
        staff_id: caller.staffId,
        provider: payment.provider,
        amount: payment.amount,
        currency: payment.currency,
        refund_reference: refundReference,
      },
    });
    const [row] = await selectRows(tx).where(eq(payments.id, payment.id));
    return { payment: toPayment(row!, refunding), refundReference };
  });
}

/** The payment of a refund under way, with what its provider call needs. */
async function processingRefund(db: DbOrTx, where: { paymentId: string } | { refundReference: string }) {
  const [row] = await db
    .select({ payment: payments, user_id: students.user_id, institution: partners.name })
    .from(payments)
    .innerJoin(partners, eq(partners.id, payments.partner_id))
    .leftJoin(students, eq(students.id, payments.student_id))
    .where(
      and(
        'paymentId' in where ? eq(payments.id, where.paymentId) : eq(payments.refund_reference, where.refundReference),
        eq(payments.refund_status, 'processing'),
      ),
    )
    .limit(1);
  return row ?? null;
}

type Processing = NonNullable<Awaited<ReturnType<typeof processingRefund>>>;

/** The call to the provider for a refund under way (the payer's country is that of their number's market). */
function refundRequestOf({ payment }: Processing, publicUrl: string): RefundRequest {
  const amount = decimalToMinor(String(payment.amount), payment.currency);
  if (amount === null) throw new Error(`payment ${payment.id} has an amount not of its currency`);
  return {
    refundReference: payment.refund_reference!,
    paymentReference: payment.reference,
    providerReference: payment.provider_reference,
    providerTransactionId: payment.provider_transaction_id!,
    amount,
    currency: payment.currency,
    country: payment.payer_phone ? countryOfMsisdn(payment.payer_phone) : null,
    resultUrl: `${publicUrl}/api/v1${refundResultPathOf(payment.provider, payment.refund_reference!)}`,
  };
}

/** A provider's name as a URL path segment: mtn_momo → mtn-momo. */
export const pathSegmentOf = (provider: ProviderName) => provider.replaceAll('_', '-');

/** Where a provider that answers later sends the result of one refund: the reference is its secret. */
export function refundResultPathOf(provider: ProviderName, refundReference: string): string {
  return `/payments/refund-results/${pathSegmentOf(provider)}/${refundReference}`;
}

/**
 * Records the provider's answer about a refund under way, once: the update holds only while it is still
 * `processing` under the same reference. Answers whether it changed the payment.
 */
async function recordAnswer(db: Db, processing: Processing, answer: RefundAnswer, log: Log): Promise<boolean> {
  const { payment } = processing;
  if (answer.state === 'pending') {
    // Still with the provider: the step lets go of the refund, so the next one may ask at once.
    const updated = await db
      .update(payments)
      .set({
        provider_refund_id: answer.providerRefundId ?? payment.provider_refund_id,
        refund_lease_until: null,
        updated_at: new Date().toISOString(),
      })
      .where(stillProcessing(payment))
      .returning({ id: payments.id });
    return updated.length > 0;
  }
  return db.transaction(async (tx) => {
    const now = new Date().toISOString();
    const refunded = answer.state === 'refunded';
    const updated = await tx
      .update(payments)
      .set(
        refunded
          ? {
              refund_status: 'refunded',
              refund_method: 'provider',
              refunded_at: now,
              refund_error: null,
              refund_lease_until: null,
              ...(answer.providerRefundId ? { provider_refund_id: answer.providerRefundId } : {}),
              updated_at: now,
            }
          : {
              refund_status: 'needed',
              refund_error: answer.providerCode ?? 'failed',
              refund_lease_until: null,
              updated_at: now,
            },
      )
      .where(stillProcessing(payment))
      .returning({ id: payments.id });
    if (updated.length === 0) return false;
    await tx.insert(auditLog).values({
      actor_id: null,
      action: refunded ? 'payment.refunded_by_provider' : 'payment.refund_failed',
      target_type: 'payment',
      target_id: payment.id,
      details: {
        partner_id: payment.partner_id,
        provider: payment.provider,
        amount: String(payment.amount),
        currency: payment.currency,
        refund_reference: payment.refund_reference,
        provider_refund_id: answer.providerRefundId,
        provider_code: answer.providerCode,
      },
    });
    if (refunded && processing.user_id) {
      await notify(tx, {
        userId: processing.user_id,
        category: 'status_updates',
        type: 'payment_refunded',
        data: {
          institution: processing.institution,
          amount: String(payment.amount),
          currency: payment.currency,
          reference: payment.reference,
        },
        link: applicationPathOf(payment.partner_id),
      });
    }
    if (!refunded) log.warn({ payment: payment.id, code: answer.providerCode }, 'the provider refused a refund');
    return true;
  });
}

const stillProcessing = (payment: { id: string; refund_reference: string | null }) =>
  and(
    eq(payments.id, payment.id),
    eq(payments.refund_status, 'processing'),
    eq(payments.refund_reference, payment.refund_reference!),
  );

/**
 * One step of a refund under way: the refund call when the provider has not named it yet, else its status
 * call where the provider has one (a provider answering only by asynchronous result is waited for).
 * A provider unreachable throws (the job retries; the sweep asks again later); one refusing the request
 * fails the refund with its code. Answers the refund's state after the step, or null when none is under way.
 */
export async function runProviderRefund(
  db: Db,
  refunding: RefundingProviders,
  paymentId: string,
  publicUrl: string,
  log: Log,
): Promise<'refunded' | 'pending' | 'failed' | null> {
  const processing = await processingRefund(db, { paymentId });
  if (!processing) return null;
  const { payment } = processing;
  const provider = refunding.get(payment.provider);
  if (!provider) throw new Error(`the refund API of ${payment.provider} is not configured`);
  // Answered only by an asynchronous result (Daraja): nothing to ask once the provider took the refund.
  if (payment.provider_refund_id !== null && !provider.refundStatus) return 'pending';
  if (!(await leased(db, payment))) return 'pending';
  const request = refundRequestOf(processing, publicUrl);
  let answer: RefundAnswer;
  try {
    answer =
      payment.provider_refund_id === null || !provider.refundStatus
        ? await provider.refund(request)
        : await provider.refundStatus(request, payment.provider_refund_id);
  } catch (error) {
    if (!(error instanceof ProviderError && error.kind === 'refused')) {
      // No answer: the next step (the job's retry, the sweep) may ask at once.
      await db.update(payments).set({ refund_lease_until: null }).where(stillProcessing(payment));
      throw error;
    }
    answer = { state: 'failed', providerRefundId: null, providerCode: error.providerCode ?? `http_${error.status}` };
  }
  await recordAnswer(db, processing, answer, log);
  return answer.state;
}

/** How long one step holds a refund: far longer than a provider call may take (its timeout). */
const REFUND_LEASE_SECONDS = 60;

/**
 * Takes the refund for one step, unless another step (the job's retry, the sweep on another instance)
 * holds it: answers whether this step may ask the provider. The lease is the database's clock.
 */
async function leased(db: Db, payment: { id: string; refund_reference: string | null }): Promise<boolean> {
  const taken = await db
    .update(payments)
    .set({ refund_lease_until: sql`now() + make_interval(secs => ${REFUND_LEASE_SECONDS})` })
    .where(
      and(
        stillProcessing(payment),
        or(isNull(payments.refund_lease_until), lt(payments.refund_lease_until, sql`now()`)),
      ),
    )
    .returning({ id: payments.id });
  return taken.length > 0;
}

/**
 * The sweep: every refund under way left unanswered for REFUND_SWEEP_AFTER_MS is stepped again (its job
 * lost to a crash, a pending answer to ask about). A provider still unreachable is left for the next pass.
 */
export async function resumeProviderRefunds(
  db: Db,
  refunding: RefundingProviders,
  publicUrl: string,
  log: Log,
  now = Date.now(),
): Promise<number> {
  const due = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.refund_status, 'processing'),
        isNotNull(payments.refund_reference),
        lt(payments.updated_at, new Date(now - REFUND_SWEEP_AFTER_MS).toISOString()),
      ),
    )
    .orderBy(asc(payments.updated_at))
    .limit(SWEEP_BATCH);
  let closed = 0;
  for (const { id } of due) {
    try {
      const state = await runProviderRefund(db, refunding, id, publicUrl, log);
      if (state === 'refunded' || state === 'failed') closed += 1;
    } catch (error) {
      log.warn({ payment: id, err: error }, 'a refund could not be asked about; the next pass tries again');
    }
  }
  return closed;
}

/**
 * An asynchronous refund result (POST /payments/refund-results/:provider/:refundReference). The
 * reference in the path — ours, random, sent only to the provider — names the refund; the body must be the
 * provider's result for the refund it answered before. Answers 'recorded', or 'unknown' (no refund under
 * way by that reference: already closed, or not ours) — the caller answers the provider 200 either way
 * once the body was read, so it stops sending it.
 */
export async function acceptRefundResult(
  db: Db,
  refunding: RefundingProviders,
  provider: ProviderName,
  refundReference: string,
  body: unknown,
  log: Log,
): Promise<'recorded' | 'unknown' | 'unreadable'> {
  const reader = refunding.get(provider);
  const result: RefundResult | null = reader?.refundResult?.(body) ?? null;
  if (!result) return 'unreadable';
  const processing = await processingRefund(db, { refundReference });
  if (!processing || processing.payment.provider !== provider) return 'unknown';
  if (
    processing.payment.provider_refund_id !== null &&
    processing.payment.provider_refund_id !== result.providerRefundId
  ) {
    log.warn({ payment: processing.payment.id }, 'a refund result named another refund: ignored');
    return 'unknown';
  }
  await recordAnswer(db, processing, result, log);
  return 'recorded';
}
