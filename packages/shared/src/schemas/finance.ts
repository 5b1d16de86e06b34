import { z } from 'zod';
import { FINANCE_MESSAGES as F } from '../messages.ts';
import { PAYMENT_METHODS, PAYMENT_PROVIDERS, PAYMENT_STATUSES, REFUND_METHODS, REFUND_STATUSES } from './payments.ts';

/*
 * The staff finance view: an institution's application fee payments, their totals per currency, the
 * CSV export and the refund by hand. Routes live under /partners/:partnerId/finance/... and need
 * view_payments or manage_finance (refunds: manage_finance); 'all' holds both.
 *
 * Money is answered as decimal strings with two decimals ("12500.00"), exactly as stored (numeric(12,2))
 * and summed in SQL: never a binary float, and the same shape for amounts and totals.
 */

export const FINANCE_PAGE_SIZES = [10, 25, 50, 100] as const;
export const FINANCE_DEFAULT_PAGE_SIZE = 25;
export const FINANCE_MAX_PAGE_SIZE = 100;
export const REFUND_NOTE_MAX = 500;

const booleanParam = z.enum(['true', 'false'], F.filter_invalid).transform((value) => value === 'true');

/**
 * GET /partners/:partnerId/finance/payments (and `.csv`, which ignores the page). Every filter is optional.
 * `needs_refund`: true for payments whose refund_status is 'needed', false for the others. `q` matches the
 * applicant's name or email, or the payment's reference or the provider's transaction id.
 */
export const FinanceQuerySchema = z.object({
  q: z.string(F.filter_invalid).trim().max(100, F.filter_invalid).optional(),
  cycle_id: z.uuid(F.filter_invalid).optional(),
  provider: z.enum(PAYMENT_PROVIDERS, F.filter_invalid).optional(),
  method: z.enum(PAYMENT_METHODS, F.filter_invalid).optional(),
  status: z.enum(PAYMENT_STATUSES, F.filter_invalid).optional(),
  currency: z
    .string(F.currency_invalid)
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, F.currency_invalid)
    .optional(),
  needs_refund: booleanParam.optional(),
  page: z.coerce
    .number(F.filter_invalid)
    .int(F.filter_invalid)
    .min(1, F.filter_invalid)
    .max(100_000, F.filter_invalid)
    .default(1),
  limit: z.coerce
    .number(F.limit_invalid)
    .int(F.limit_invalid)
    .min(1, F.limit_invalid)
    .max(FINANCE_MAX_PAGE_SIZE, F.limit_invalid)
    .default(FINANCE_DEFAULT_PAGE_SIZE),
});
export type FinanceQuery = z.infer<typeof FinanceQuerySchema>;
export type FinanceQueryInput = z.input<typeof FinanceQuerySchema>;
/** The filters of the query, without its page: what the totals and the CSV export apply. */
export type FinanceFilters = Omit<FinanceQuery, 'page' | 'limit'>;

/** A decimal amount with two decimals, as stored. */
export const DecimalAmountSchema = z.string().regex(/^-?\d+\.\d{2}$/);

export const FinancePaymentSchema = z.object({
  id: z.uuid(),
  reference: z.string(),
  applicant: z.object({ name: z.string(), email: z.string().nullable() }),
  program: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  cycle: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  provider: z.enum(PAYMENT_PROVIDERS),
  method: z.enum(PAYMENT_METHODS).nullable(),
  status: z.enum(PAYMENT_STATUSES),
  amount: DecimalAmountSchema,
  currency: z.string(),
  failure_reason: z.string().nullable(),
  refund_status: z.enum(REFUND_STATUSES).nullable(),
  refund_note: z.string().nullable(),
  refunded_at: z.string().nullable(),
  /** How it was refunded, once it was. */
  refund_method: z.enum(REFUND_METHODS).nullable().default(null),
  /** When staff last asked the provider to refund it. */
  refund_requested_at: z.string().nullable().default(null),
  /** The provider's code when its refund failed (the payment is owed back again). */
  refund_error: z.string().nullable().default(null),
  /** Whether the provider's refund API can give it back (a refund owed, a provider with one, its transaction known). */
  provider_refund_available: z.boolean().default(false),
  provider_transaction_id: z.string().nullable(),
  paid_at: z.string().nullable(),
  created_at: z.string(),
  /** A bank slip's reference as the bank printed it, and whether its photo or PDF can be downloaded. */
  bank_reference: z.string().nullable().default(null),
  has_slip: z.boolean().default(false),
  /** When staff approved or rejected the bank slip. */
  reviewed_at: z.string().nullable().default(null),
});
export type FinancePayment = z.infer<typeof FinancePaymentSchema>;

/** The totals of one currency over every payment matching the filters (not just the page). */
export const FinanceTotalSchema = z.object({
  currency: z.string(),
  /** Sum of the succeeded payments, including those waiting for or given a refund. */
  collected: DecimalAmountSchema,
  count_succeeded: z.number().int(),
  pending_count: z.number().int(),
  refunds_needed: z.object({ amount: DecimalAmountSchema, count: z.number().int() }),
});
export type FinanceTotal = z.infer<typeof FinanceTotalSchema>;

export const FinancePageSchema = z.object({
  items: z.array(FinancePaymentSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  /** One entry per currency, sorted by currency code. */
  totals: z.array(FinanceTotalSchema),
});
export type FinancePage = z.infer<typeof FinancePageSchema>;

/** POST /partners/:partnerId/finance/payments/:paymentId/refund: the money was given back by hand. */
export const RefundByHandSchema = z.object({
  note: z.string(F.note_required).trim().min(1, F.note_required).max(REFUND_NOTE_MAX, F.note_too_long),
});
export type RefundByHand = z.infer<typeof RefundByHandSchema>;

/*
 * The daily reconciliation's findings: a settled payment whose record differs from the provider's own
 * (its state, amount or currency, or transaction id), or that the provider does not know. Each stays open
 * until a finance member resolves it with a note.
 */
export const DISCREPANCY_KINDS = [
  /** The provider states another outcome (or another transaction id) than ours. */
  'status_mismatch',
  /** The provider states another amount or currency than ours. */
  'amount_mismatch',
  /** The provider has no record of the payment at all. */
  'missing_at_provider',
  /** The provider refused to say, or its answer names another payment: nothing could be compared. */
  'unknown_at_provider',
] as const;
export type DiscrepancyKind = (typeof DISCREPANCY_KINDS)[number];

/** One side of a difference: what our record or the provider's answer states (null where it states nothing). */
export const DiscrepancySideSchema = z.object({
  status: z.string().nullable(),
  /** In minor units of the currency, as the provider's protocol counts. */
  amount: z.number().int().nullable(),
  currency: z.string().nullable(),
  transaction_id: z.string().nullable(),
  /** The provider's code when it refused or did not know the payment. */
  code: z.string().nullable().optional(),
});
export type DiscrepancySide = z.infer<typeof DiscrepancySideSchema>;

export const FinanceDiscrepancySchema = z.object({
  id: z.uuid(),
  kind: z.enum(DISCREPANCY_KINDS),
  payment: z.object({
    id: z.uuid(),
    reference: z.string(),
    provider: z.enum(PAYMENT_PROVIDERS),
    applicant_name: z.string(),
  }),
  ours: DiscrepancySideSchema,
  theirs: DiscrepancySideSchema,
  found_at: z.string(),
  resolved_at: z.string().nullable(),
  note: z.string().nullable(),
});
export type FinanceDiscrepancy = z.infer<typeof FinanceDiscrepancySchema>;

export const FinanceDiscrepancyListSchema = z.object({ items: z.array(FinanceDiscrepancySchema) });
export type FinanceDiscrepancyList = z.infer<typeof FinanceDiscrepancyListSchema>;

/** POST /partners/:partnerId/finance/discrepancies/:discrepancyId/resolve: what was found and done. */
export const ResolveDiscrepancySchema = z.object({
  note: z
    .string(F.discrepancy_note_required)
    .trim()
    .min(1, F.discrepancy_note_required)
    .max(REFUND_NOTE_MAX, F.note_too_long),
});
export type ResolveDiscrepancy = z.infer<typeof ResolveDiscrepancySchema>;
