import { Readable } from 'node:stream';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  FINANCE_MESSAGES,
  type FinanceFilters,
  type FinancePage,
  type FinancePayment,
  type FinanceQuery,
  type FinanceTotal,
  type RefundByHand,
} from '@kaminuza/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { applications, auditLog, cycles, payments, programs, students } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { containsPattern, folded, foldedOnce } from '../../lib/text-search.ts';
import type { StaffCaller } from '../partners/index.ts';
import { csvLine } from '../../lib/csv.ts';
import { providerRefundAvailable, type RefundingProviders } from './refund-providers.ts';

/*
 * The staff finance view: an institution's fee payments, filtered, totalled per currency, exported as
 * CSV, and the refund by hand of a payment that is owed back. Money leaves here as decimal strings with
 * two decimals, read from the numeric column and summed in SQL, so no total passes through a float.
 */

/** The export answers at most this many rows: every payment of a large institution, not an unbounded dump. */
export const FINANCE_CSV_MAX_ROWS = 100_000;
/** Rows read per query while the export streams. */
const CSV_BATCH = 1_000;

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());
const applicantName = sql<string>`trim(coalesce(${students.first_name}, '') || ' ' || coalesce(${students.last_name}, ''))`;

/** Money still owed back: a refund to give, or one the provider is working on. */
const owedBack = inArray(payments.refund_status, ['needed', 'processing']);

/** Every condition of the filters, always within the caller's institution. */
function financeWhere(partnerId: string, filters: FinanceFilters): SQL {
  const where: SQL[] = [eq(payments.partner_id, partnerId)];
  if (filters.cycle_id) where.push(eq(applications.cycle_id, filters.cycle_id));
  if (filters.provider) where.push(eq(payments.provider, filters.provider));
  if (filters.method) where.push(eq(payments.method, filters.method));
  if (filters.status) where.push(eq(payments.status, filters.status));
  if (filters.currency) where.push(eq(payments.currency, filters.currency));
  if (filters.needs_refund !== undefined) {
    where.push(filters.needs_refund ? owedBack : sql`not coalesce(${owedBack}, false)`);
  }
  if (filters.q) {
    const pattern = foldedOnce(containsPattern(filters.q));
    where.push(
      sql`(${folded(applicantName)} like ${pattern} or ${folded(sql`coalesce(${students.email}, '')`)} like ${pattern}
        or lower(${payments.reference}) like ${pattern} or lower(coalesce(${payments.provider_transaction_id}, '')) like ${pattern}
        or lower(coalesce(${payments.bank_reference}, '')) like ${pattern})`,
    );
  }
  return and(...where)!;
}

const rowColumns = {
  id: payments.id,
  reference: payments.reference,
  applicant_name: applicantName,
  applicant_email: students.email,
  program_id: programs.id,
  program_name: programs.name,
  cycle_id: cycles.id,
  cycle_name: cycles.name,
  provider: payments.provider,
  method: payments.method,
  status: payments.status,
  amount: sql<string>`${payments.amount}::text`,
  currency: payments.currency,
  failure_reason: payments.failure_reason,
  refund_status: payments.refund_status,
  refund_note: payments.refund_note,
  refunded_at: payments.refunded_at,
  refund_method: payments.refund_method,
  refund_requested_at: payments.refund_requested_at,
  refund_error: payments.refund_error,
  provider_transaction_id: payments.provider_transaction_id,
  paid_at: payments.paid_at,
  created_at: payments.created_at,
  bank_reference: payments.bank_reference,
  has_slip: sql<boolean>`${payments.slip_file_id} is not null`,
  reviewed_at: payments.reviewed_at,
};

/** The payments joined with what a row names: the application's applicant, program and cycle. */
export function selectRows(db: DbOrTx) {
  return db
    .select(rowColumns)
    .from(payments)
    .innerJoin(applications, eq(applications.id, payments.application_id))
    .leftJoin(students, eq(students.id, payments.student_id))
    .leftJoin(programs, eq(programs.id, applications.program_id))
    .leftJoin(cycles, eq(cycles.id, applications.cycle_id));
}

type Row = Awaited<ReturnType<typeof selectRows>>[number];

/** A row as the finance view shows it; `refunding` says which providers can refund through their API. */
export function toPayment(row: Row, refunding: RefundingProviders = new Map()): FinancePayment {
  return {
    id: row.id,
    reference: row.reference,
    applicant: { name: row.applicant_name, email: row.applicant_email },
    program: row.program_id && row.program_name !== null ? { id: row.program_id, name: row.program_name } : null,
    cycle: row.cycle_id && row.cycle_name !== null ? { id: row.cycle_id, name: row.cycle_name } : null,
    provider: row.provider,
    method: row.method,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    failure_reason: row.failure_reason,
    refund_status: row.refund_status,
    refund_note: row.refund_note,
    refunded_at: iso(row.refunded_at),
    refund_method: row.refund_method,
    refund_requested_at: iso(row.refund_requested_at),
    refund_error: row.refund_error,
    provider_refund_available: providerRefundAvailable(refunding, row),
    provider_transaction_id: row.provider_transaction_id,
    paid_at: iso(row.paid_at),
    created_at: iso(row.created_at)!,
    bank_reference: row.bank_reference,
    has_slip: Boolean(row.has_slip),
    reviewed_at: iso(row.reviewed_at),
  };
}

/** The matching rows in their order (newest first, the id breaking ties so pages never overlap). */
function rows(db: Db, where: SQL, limit: number, offset: number): Promise<Row[]> {
  return selectRows(db).where(where).orderBy(desc(payments.created_at), desc(payments.id)).limit(limit).offset(offset);
}

/** The totals per currency of every payment matching the filters, summed as numeric in SQL. */
export async function financeTotals(db: Db, partnerId: string, filters: FinanceFilters): Promise<FinanceTotal[]> {
  const found = await db
    .select({
      currency: payments.currency,
      collected: sql<string>`(coalesce(sum(${payments.amount}) filter (where ${payments.status} = 'succeeded'), 0))::numeric(16, 2)::text`,
      count_succeeded: sql<number>`(count(*) filter (where ${payments.status} = 'succeeded'))::int`,
      pending_count: sql<number>`(count(*) filter (where ${payments.status} = 'pending'))::int`,
      refunds_amount: sql<string>`(coalesce(sum(${payments.amount}) filter (where ${owedBack}), 0))::numeric(16, 2)::text`,
      refunds_count: sql<number>`(count(*) filter (where ${owedBack}))::int`,
    })
    .from(payments)
    .innerJoin(applications, eq(applications.id, payments.application_id))
    .leftJoin(students, eq(students.id, payments.student_id))
    .where(financeWhere(partnerId, filters))
    .groupBy(payments.currency)
    .orderBy(payments.currency);
  return found.map((row) => ({
    currency: row.currency,
    collected: row.collected,
    count_succeeded: Number(row.count_succeeded),
    pending_count: Number(row.pending_count),
    refunds_needed: { amount: row.refunds_amount, count: Number(row.refunds_count) },
  }));
}

/** One page of the institution's payments, newest first, with the totals of all that match. */
export async function listFinancePayments(
  db: Db,
  caller: StaffCaller,
  query: FinanceQuery,
  refunding: RefundingProviders = new Map(),
): Promise<FinancePage> {
  const { page, limit, ...filters } = query;
  const where = financeWhere(caller.partnerId, filters);
  const [found, [count], totals] = await Promise.all([
    rows(db, where, limit, (page - 1) * limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(payments)
      .innerJoin(applications, eq(applications.id, payments.application_id))
      .leftJoin(students, eq(students.id, payments.student_id))
      .where(where),
    financeTotals(db, caller.partnerId, filters),
  ]);
  return {
    items: found.map((row) => toPayment(row, refunding)),
    total: Number(count?.total ?? 0),
    page,
    limit,
    totals,
  };
}

export const FINANCE_CSV_HEADER = [
  'Reference',
  'Applicant',
  'Email',
  'Program',
  'Cycle',
  'Provider',
  'Method',
  'Status',
  'Amount',
  'Currency',
  'Failure reason',
  'Refund status',
  'Refund note',
  'Refunded at',
  'Provider transaction id',
  'Paid at',
  'Created at',
] as const;

/**
 * The payments matching the filters as CSV, newest first, read and written a batch at a time so the
 * export never holds every row at once. Amounts are the stored decimals, unformatted.
 */
export function exportFinanceCsv(db: Db, caller: StaffCaller, filters: FinanceFilters): Readable {
  const where = financeWhere(caller.partnerId, filters);
  async function* lines() {
    yield `\uFEFF${csvLine([...FINANCE_CSV_HEADER])}`;
    for (let offset = 0; offset < FINANCE_CSV_MAX_ROWS; offset += CSV_BATCH) {
      const batch = await rows(db, where, Math.min(CSV_BATCH, FINANCE_CSV_MAX_ROWS - offset), offset);
      if (batch.length === 0) return;
      let chunk = '';
      for (const found of batch) {
        const row = toPayment(found);
        chunk += csvLine([
          row.reference,
          row.applicant.name,
          row.applicant.email,
          row.program?.name,
          row.cycle?.name,
          row.provider,
          row.method,
          row.status,
          row.amount,
          row.currency,
          row.failure_reason,
          row.refund_status,
          row.refund_note,
          row.refunded_at,
          row.provider_transaction_id,
          row.paid_at,
          row.created_at,
        ]);
      }
      yield chunk;
      if (batch.length < CSV_BATCH) return;
    }
  }
  return Readable.from(lines());
}

/**
 * One of the caller's institution's payments, locked until the transaction ends (of two decisions about
 * it at once, the second reads what the first did); another institution's is 404, as one that does not exist.
 */
export async function lockedPaymentOf(tx: DbOrTx, caller: StaffCaller, paymentId: string) {
  const [payment] = await tx
    .select({
      id: payments.id,
      provider: payments.provider,
      refund_status: payments.refund_status,
      provider_transaction_id: payments.provider_transaction_id,
      amount: sql<string>`${payments.amount}::text`,
      currency: payments.currency,
    })
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.partner_id, caller.partnerId)))
    .for('update');
  if (!payment) throw new AppError('NOT_FOUND', FINANCE_MESSAGES.payment_not_found);
  return payment;
}

/**
 * Records that a payment owed back was refunded outside Kaminuza (by the provider's portal, in cash, by
 * bank transfer); the note says how. Also a refund left with the provider (`processing`) whose answer
 * never came, once staff have checked it in the provider's portal: a late answer then changes nothing.
 */
export async function refundByHand(
  db: Db,
  caller: StaffCaller,
  actorUserId: string,
  paymentId: string,
  input: RefundByHand,
): Promise<FinancePayment> {
  return db.transaction(async (tx) => {
    const payment = await lockedPaymentOf(tx, caller, paymentId);
    if (payment.refund_status !== 'needed' && payment.refund_status !== 'processing') {
      throw new AppError('ABORTED', FINANCE_MESSAGES.refund_not_needed);
    }
    const now = new Date().toISOString();
    await tx
      .update(payments)
      .set({
        refund_status: 'refunded',
        refund_method: 'by_hand',
        refund_note: input.note,
        refunded_at: now,
        updated_at: now,
      })
      .where(eq(payments.id, payment.id));
    await tx.insert(auditLog).values({
      actor_id: actorUserId,
      action: 'payment.refunded_by_hand',
      target_type: 'payment',
      target_id: payment.id,
      details: {
        partner_id: caller.partnerId,
        staff_id: caller.staffId,
        amount: payment.amount,
        currency: payment.currency,
        note: input.note,
      },
    });
    const [row] = await selectRows(tx).where(eq(payments.id, payment.id));
    return toPayment(row!);
  });
}
