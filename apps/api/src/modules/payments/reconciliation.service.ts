import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import {
  FINANCE_MESSAGES,
  currencyDigits,
  type DiscrepancyKind,
  type DiscrepancySide,
  type FinanceDiscrepancy,
  type FinanceDiscrepancyList,
  type MobileMoneyProviderName,
  type PaymentProvider as ProviderName,
  type ResolveDiscrepancy,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { auditLog, paymentDiscrepancies, payments, students } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { countryOfMsisdn } from '../../lib/mobile-number.ts';
import { notify } from '../notifications/index.ts';
import { membersHolding, type StaffCaller } from '../partners/index.ts';
import { readPreferencesOf } from '../settings/index.ts';
import type { MobileMoneyProviders } from './mobile-money-providers.ts';
import { settleFromStatus } from './mobile-money.service.ts';
import { settlePayment, type SettleLog, type Settlement } from './payments.service.ts';
import { ProviderError } from './providers/mobile-money.ts';
import type { PaymentProvider } from './providers/payment-provider.ts';

/*
 * The daily reconciliation (ADR 037): every settled payment — succeeded, failed, or failed with a success
 * that arrived too late (refund needed) — is compared once with the provider's own record of it, asked
 * through the provider's status call. What differs becomes an open discrepancy for the institution's finance
 * staff, who are told once per run. A failure the provider says succeeded is money taken whose callback was
 * lost: it is settled as owed back, through the same path a late callback takes, and shown as a difference.
 * A failure the provider says failed, or does not know, agrees: failures make no noise. A provider that
 * cannot be reached, or limits our rate, is asked again at the job's retry; the payments it was not asked
 * about stay unreconciled until then. Providers without a status call (bank slips) are not asked.
 */

/** Payments compared per run at most; the rest wait for the next (a backlog drains over a few nights). */
export const RECONCILIATION_BATCH = 500;

/**
 * How old a failure must be to be compared. The networks report a late outcome within hours of an expired
 * prompt, and a Flutterwave page may be paid again for its hour after a decline: a failure of the evening
 * waits for the next night rather than being found to agree before its payer is done.
 */
export const LATE_SUCCESS_GRACE_MS = 6 * 3600_000;

/**
 * How long after a payment settled a provider still calling it pending is asked again each night. Past it,
 * nothing will change there: a success is a difference, a failure agrees.
 */
export const PENDING_ASKED_FOR_MS = 3 * 24 * 3600_000;

/** The rate limit (HTTP 429): the provider answers again later, as one unreachable does. */
const RATE_LIMITED = 429;

/** What the provider's record says of a payment; `reference` is the payment its answer names. */
export interface ProviderRecord {
  state: 'pending' | 'succeeded' | 'failed';
  /** Minor units; null when the provider's answer states no amount (Daraja's STK query). */
  amount: number | null;
  currency: string | null;
  transactionId: string | null;
  reference: string;
  /**
   * Settles the payment from this answer through the one settlement path (settleFromStatus, settlePayment):
   * used for a success of a payment we recorded as failed, which it records as owed back, once.
   */
  settle?: (db: Db, log: SettleLog) => Promise<Settlement | 'pending'>;
}

/** The payment as a provider's status call names it. */
export interface ReconciledPayment {
  reference: string;
  providerReference: string | null;
  currency: string;
  payerPhone: string | null;
}

/** The provider has no record of the payment; `missing` is the code its answer said so with, if any. */
export interface NoRecord {
  missing: string | null;
}

/**
 * Asks a provider for its record of one payment: NoRecord when it has none (it does not know the payment);
 * a ProviderError 'refused' when it would not say; 'unreachable' when it could not be asked.
 */
export type RecordLookup = (payment: ReconciledPayment) => Promise<ProviderRecord | NoRecord>;

/** Daraja's errorCode for a request with an invalid field ("Bad Request - Invalid CheckoutRequestID" …). */
const DARAJA_INVALID_FIELD = '400.002.02';

/**
 * Whether a network's refusal of a status call is its way of saying it has no such request. MoMo answers
 * 404 (RESOURCE_NOT_FOUND). Daraja's STK query refuses a CheckoutRequestID it never issued with 400 and
 * errorCode 400.002.02 — the code it gives any invalid field; the query's other fields are the shortcode's
 * credentials, the same in every query and the ones the payment was confirmed with when it settled, so on
 * a settled payment the code names the CheckoutRequestID. The code is kept on the difference either way.
 */
function saysNoSuchRequest(provider: MobileMoneyProviderName, error: ProviderError): boolean {
  if (error.kind !== 'refused') return false;
  if (error.status === 404) return true;
  return provider === 'mpesa' && error.status === 400 && error.providerCode === DARAJA_INVALID_FIELD;
}

/** The providers reconciliation asks: the mobile money networks configured and the card provider. */
export function recordLookups({
  mobileMoney,
  card,
  publicUrl,
}: {
  mobileMoney: MobileMoneyProviders;
  card: PaymentProvider | null;
  /** For the settlement of a late success (it issues no receipt, but every settlement names the URL). */
  publicUrl: string;
}): Map<ProviderName, RecordLookup> {
  const lookups = new Map<ProviderName, RecordLookup>();
  for (const [name, provider] of mobileMoney) {
    lookups.set(name, async (payment) => {
      try {
        const status = await provider.status({
          reference: payment.reference,
          providerReference: payment.providerReference,
          currency: payment.currency,
          country: (payment.payerPhone && countryOfMsisdn(payment.payerPhone)) ?? '',
        });
        return {
          state: status.state,
          amount: status.amount,
          currency: status.currency,
          transactionId: status.providerTransactionId,
          reference: status.externalId,
          settle: (db, log) => settleFromStatus(db, provider, payment.reference, status, { log, publicUrl }),
        };
      } catch (error) {
        if (error instanceof ProviderError && saysNoSuchRequest(name, error)) {
          return { missing: error.providerCode ?? (error.status === null ? null : String(error.status)) };
        }
        throw error;
      }
    });
  }
  // `record` tells a checkout still pending from one the provider does not know; `lookup` answers null to both.
  const lookup = card?.record?.bind(card) ?? card?.lookup?.bind(card);
  if (card && lookup) {
    lookups.set(card.name, async (payment) => {
      const found = await lookup(payment.reference);
      if (!found) return { missing: null };
      if (found === 'pending') {
        return { state: 'pending', amount: null, currency: null, transactionId: null, reference: payment.reference };
      }
      const { event, providerTransactionId } = found;
      const { data } = event;
      return {
        state: event.type === 'payment.succeeded' ? 'succeeded' : 'failed',
        amount: Math.round(data.amount * 10 ** currencyDigits(data.currency)),
        currency: data.currency,
        transactionId: providerTransactionId,
        reference: data.reference,
        settle: (db, log) => settlePayment(db, card.name, event, { log, publicUrl }, { providerTransactionId }),
      };
    });
  }
  return lookups;
}

interface OurRecord {
  status: string;
  /** Whether the payment failed with nothing owed back: only a success at the provider differs from it. */
  failedOnly?: boolean;
  amount: number;
  currency: string;
  transactionId: string | null;
  reference: string;
}

export interface Difference {
  kind: DiscrepancyKind;
  ours: DiscrepancySide;
  theirs: DiscrepancySide;
}

const side = (record: {
  status: string | null;
  amount: number | null;
  currency: string | null;
  transactionId: string | null;
  code?: string | null;
}): DiscrepancySide => ({
  status: record.status,
  amount: record.amount,
  currency: record.currency,
  transaction_id: record.transactionId,
  ...(record.code !== undefined ? { code: record.code } : {}),
});

/**
 * What differs between our settled record and the provider's answer. Both a succeeded payment and one
 * owed back (failed, then a success arrived) are money the provider took: its record must say succeeded.
 * A payment that only failed differs only when the provider says it succeeded (its success's callback was
 * lost): money taken, whatever else it says. A transaction id is compared only when both sides have one;
 * an amount only when the provider states one.
 */
export function differences(
  ours: OurRecord,
  theirs: ProviderRecord | NoRecord | { refused: string | null },
): Difference[] {
  const oursSide = side(ours);
  if (ours.failedOnly) {
    // A failure the provider does not know, would not speak of, or also failed: nothing was taken.
    if ('missing' in theirs || 'refused' in theirs) return [];
    if (theirs.state !== 'succeeded' || theirs.reference !== ours.reference) return [];
  }
  if ('missing' in theirs) {
    return [
      {
        kind: 'missing_at_provider',
        ours: oursSide,
        theirs: side({ status: null, amount: null, currency: null, transactionId: null, code: theirs.missing }),
      },
    ];
  }
  if ('refused' in theirs) {
    return [
      {
        kind: 'unknown_at_provider',
        ours: oursSide,
        theirs: side({ status: null, amount: null, currency: null, transactionId: null, code: theirs.refused }),
      },
    ];
  }
  const theirsSide = side({
    status: theirs.state,
    amount: theirs.amount,
    currency: theirs.currency,
    transactionId: theirs.transactionId,
  });
  if (theirs.reference !== ours.reference) {
    return [{ kind: 'unknown_at_provider', ours: oursSide, theirs: theirsSide }];
  }
  const found: Difference[] = [];
  const otherMovement =
    ours.transactionId !== null && theirs.transactionId !== null && ours.transactionId !== theirs.transactionId;
  if (theirs.state !== 'succeeded' || otherMovement || ours.failedOnly) {
    found.push({ kind: 'status_mismatch', ours: oursSide, theirs: theirsSide });
  }
  const otherCurrency = theirs.currency !== null && theirs.currency !== ours.currency;
  const otherAmount = theirs.amount !== null && theirs.amount !== ours.amount;
  if (otherCurrency || otherAmount) found.push({ kind: 'amount_mismatch', ours: oursSide, theirs: theirsSide });
  return found;
}

/** The start of the UTC day of `now`: a run compares what settled before it. */
const dayStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** The finance view's differences list, where the notification leads. */
export const DIFFERENCES_PATH = '/partner/finance#differences';

/** Tells each finance member of the institution, once, how many payments were found to differ. */
async function reportDifferences(db: Db, partnerId: string, count: number): Promise<void> {
  // Who reads the finance view of the institution.
  const members = await membersHolding(db, partnerId, 'view_payments', 'manage_finance');
  if (members.length === 0) return;
  const preferences = await readPreferencesOf(db, members);
  await db.transaction(async (tx) => {
    for (const userId of members) {
      const held = preferences.get(userId)!;
      await notify(tx, {
        userId,
        category: 'status_updates',
        type: 'payment_discrepancies',
        data: { count },
        link: DIFFERENCES_PATH,
        // Staff are not sent push messages (ADR 025): the in-app list only.
        preferences: { ...held, push: { ...held.push, status_updates: false } },
      });
    }
  });
}

export interface ReconciliationResult {
  /** Payments compared and marked reconciled. */
  compared: number;
  /** New open discrepancies recorded. */
  found: number;
  /** Payments whose provider could not be reached, or limited our rate: left for the retry. */
  unreachable: number;
  /** Payments their provider still calls pending: asked again the next night. */
  waiting: number;
  /** Failed payments found to have succeeded at their provider, now recorded as owed back. */
  owed: number;
}

export interface ReconciliationLog {
  warn(object: object, message: string): void;
}

/**
 * One run: the settled payments not yet reconciled (settled before today, UTC; a failure also at least
 * LATE_SUCCESS_GRACE_MS old), oldest first, a batch at most, each compared with its provider's record. A
 * difference is recorded once per payment and kind while open; a failure the provider says succeeded is
 * then settled as owed back; the payment is marked reconciled last, so that a run stopped midway compares
 * it again and neither record is lost (both are recorded once however often). Finance staff of each
 * institution with new differences are told once. Payments whose provider could not be reached, or still
 * calls pending (for PENDING_ASKED_FOR_MS), stay unreconciled.
 */
export async function reconcileSettledPayments(
  db: Db,
  lookups: ReadonlyMap<ProviderName, RecordLookup>,
  log: ReconciliationLog,
  now = new Date(),
  batch = RECONCILIATION_BATCH,
): Promise<ReconciliationResult> {
  const result: ReconciliationResult = { compared: 0, found: 0, unreachable: 0, waiting: 0, owed: 0 };
  if (lookups.size === 0) return result;
  const due = await db
    .select({
      id: payments.id,
      partner_id: payments.partner_id,
      provider: payments.provider,
      reference: payments.reference,
      provider_reference: payments.provider_reference,
      status: payments.status,
      refund_status: payments.refund_status,
      updated_at: payments.updated_at,
      amount: payments.amount,
      currency: payments.currency,
      transaction_id: payments.provider_transaction_id,
      payer_phone: payments.payer_phone,
    })
    .from(payments)
    .where(
      and(
        isNull(payments.reconciled_at),
        inArray(payments.provider, [...lookups.keys()]),
        or(
          eq(payments.status, 'succeeded'),
          and(eq(payments.status, 'failed'), eq(payments.refund_status, 'needed')),
          and(
            eq(payments.status, 'failed'),
            isNull(payments.refund_status),
            lt(payments.updated_at, new Date(now.getTime() - LATE_SUCCESS_GRACE_MS).toISOString()),
          ),
        ),
        lt(payments.updated_at, dayStart(now).toISOString()),
      ),
    )
    .orderBy(asc(payments.updated_at), asc(payments.id))
    .limit(batch);

  const newPerPartner = new Map<string, number>();
  for (const payment of due) {
    const lookup = lookups.get(payment.provider)!;
    let theirs: ProviderRecord | NoRecord | { refused: string | null };
    try {
      theirs = await lookup({
        reference: payment.reference,
        providerReference: payment.provider_reference,
        currency: payment.currency,
        payerPhone: payment.payer_phone,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      // A rate limit is the provider's "ask me later", answered as 4xx: no word on the payment.
      if (error.kind === 'unreachable' || error.status === RATE_LIMITED) {
        result.unreachable += 1;
        log.warn(
          { err: error, reference: payment.reference, provider: payment.provider },
          'reconciliation: provider unreachable',
        );
        continue;
      }
      theirs = { refused: error.providerCode ?? (error.status === null ? null : String(error.status)) };
    }
    const failedOnly = payment.status === 'failed' && payment.refund_status === null;
    if ('state' in theirs && theirs.state === 'pending') {
      // Not decided there yet (a prompt the network still holds, a card awaiting its bank): ask again.
      if (Date.parse(payment.updated_at) > now.getTime() - PENDING_ASKED_FOR_MS) {
        result.waiting += 1;
        continue;
      }
    }
    const found = differences(
      {
        status: payment.status,
        failedOnly,
        amount: Math.round(payment.amount * 10 ** currencyDigits(payment.currency)),
        currency: payment.currency,
        transactionId: payment.transaction_id,
        reference: payment.reference,
      },
      theirs,
    );
    const inserted =
      found.length === 0
        ? []
        : await db
            .insert(paymentDiscrepancies)
            .values(
              found.map((difference) => ({ payment_id: payment.id, partner_id: payment.partner_id, ...difference })),
            )
            // An open discrepancy of the same kind for this payment stays the one shown.
            .onConflictDoNothing()
            .returning({ id: paymentDiscrepancies.id });
    const recorded = inserted.length;
    if (failedOnly && found.length > 0 && 'settle' in theirs && theirs.settle) {
      const settled = await theirs.settle(db, log);
      if (settled === 'refund_needed') result.owed += 1;
      else if (settled === 'refused') {
        // Its amount or currency is not the payment's (the amount difference says so): staff decide.
        log.warn({ reference: payment.reference, provider: payment.provider }, 'reconciliation: success not settled');
      }
    }
    await db
      .update(payments)
      .set({ reconciled_at: sql`now()` })
      .where(eq(payments.id, payment.id));
    result.compared += 1;
    if (recorded > 0) {
      result.found += recorded;
      // The report counts payments, not kinds: one payment may differ in outcome and amount.
      newPerPartner.set(payment.partner_id, (newPerPartner.get(payment.partner_id) ?? 0) + 1);
      log.warn(
        { reference: payment.reference, provider: payment.provider, kinds: found.map((d) => d.kind) },
        'reconciliation: payment differs from the provider',
      );
    }
  }
  for (const [partnerId, count] of newPerPartner) await reportDifferences(db, partnerId, count);
  return result;
}

/* ------------------------------------------------------------------ the finance view's differences */

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());
const applicantName = sql<string>`trim(coalesce(${students.first_name}, '') || ' ' || coalesce(${students.last_name}, ''))`;

function selectDiscrepancies(db: Db | Parameters<Parameters<Db['transaction']>[0]>[0]) {
  return db
    .select({
      id: paymentDiscrepancies.id,
      kind: paymentDiscrepancies.kind,
      ours: paymentDiscrepancies.ours,
      theirs: paymentDiscrepancies.theirs,
      found_at: paymentDiscrepancies.found_at,
      resolved_at: paymentDiscrepancies.resolved_at,
      note: paymentDiscrepancies.note,
      payment_id: payments.id,
      reference: payments.reference,
      provider: payments.provider,
      applicant_name: applicantName,
    })
    .from(paymentDiscrepancies)
    .innerJoin(payments, eq(payments.id, paymentDiscrepancies.payment_id))
    .leftJoin(students, eq(students.id, payments.student_id));
}

type DiscrepancyRow = Awaited<ReturnType<ReturnType<typeof selectDiscrepancies>['execute']>>[number];

function toDiscrepancy(row: DiscrepancyRow): FinanceDiscrepancy {
  return {
    id: row.id,
    kind: row.kind,
    payment: {
      id: row.payment_id,
      reference: row.reference,
      provider: row.provider,
      applicant_name: row.applicant_name,
    },
    ours: row.ours,
    theirs: row.theirs,
    found_at: iso(row.found_at)!,
    resolved_at: iso(row.resolved_at),
    note: row.note,
  };
}

/** The institution's open discrepancies, oldest first (at most 200: more means the provider itself is wrong). */
export async function listOpenDiscrepancies(db: Db, caller: StaffCaller): Promise<FinanceDiscrepancyList> {
  const rows = await selectDiscrepancies(db)
    .where(and(eq(paymentDiscrepancies.partner_id, caller.partnerId), isNull(paymentDiscrepancies.resolved_at)))
    .orderBy(asc(paymentDiscrepancies.found_at), asc(paymentDiscrepancies.id))
    .limit(200);
  return { items: rows.map(toDiscrepancy) };
}

/**
 * Resolves an open discrepancy of the caller's institution with a note saying what was found and done
 * (audited). Another institution's, or none: 404; one already resolved: 409.
 */
export async function resolveDiscrepancy(
  db: Db,
  caller: StaffCaller,
  actorUserId: string,
  discrepancyId: string,
  input: ResolveDiscrepancy,
): Promise<FinanceDiscrepancy> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({
        id: paymentDiscrepancies.id,
        resolved_at: paymentDiscrepancies.resolved_at,
        payment_id: paymentDiscrepancies.payment_id,
        kind: paymentDiscrepancies.kind,
      })
      .from(paymentDiscrepancies)
      .where(and(eq(paymentDiscrepancies.id, discrepancyId), eq(paymentDiscrepancies.partner_id, caller.partnerId)))
      .for('update');
    if (!found) throw new AppError('NOT_FOUND', FINANCE_MESSAGES.discrepancy_not_found);
    if (found.resolved_at !== null) throw new AppError('ABORTED', FINANCE_MESSAGES.discrepancy_resolved);
    await tx
      .update(paymentDiscrepancies)
      .set({ resolved_at: sql`now()`, resolved_by: actorUserId, note: input.note })
      .where(eq(paymentDiscrepancies.id, found.id));
    await tx.insert(auditLog).values({
      actor_id: actorUserId,
      action: 'payment.discrepancy_resolved',
      target_type: 'payment',
      target_id: found.payment_id,
      details: {
        partner_id: caller.partnerId,
        staff_id: caller.staffId,
        discrepancy_id: found.id,
        kind: found.kind,
        note: input.note,
      },
    });
    const [row] = await selectDiscrepancies(tx).where(eq(paymentDiscrepancies.id, found.id));
    return toDiscrepancy(row!);
  });
}
