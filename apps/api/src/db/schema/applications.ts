import { sql } from 'drizzle-orm';
import { index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  APPLICATION_STATUSES,
  DISCREPANCY_KINDS,
  PAYMENT_METHODS,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  REFUND_METHODS,
  REFUND_STATUSES,
  type DiscrepancySide,
  type PaymentEvent,
} from '@kaminuza/shared';
import { campuses, cycles, programs } from './admissions.ts';
import { id, timestamps } from './columns.ts';
import { partners } from './partners.ts';
import { files } from './documents.ts';
import { students, users } from './users.ts';

const moment = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });
/** Money in the currency's major unit with two decimals (fees such as 100 or 12.50). */
const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' });

/**
 * A student's application to one institution in one cycle (spec section 3, "in-progress application"):
 * saved as they type, each save bumping `version` (a stale save is refused). On submit its status
 * becomes submitted and a submission with the same id is written in the same transaction.
 *
 * `form_id` has no foreign key on purpose: a form deleted under a draft makes submission fail with the
 * spec's 'Form {id} not found' rather than lose the draft.
 */
export const applications = pgTable(
  'applications',
  {
    id: id(),
    student_id: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    cycle_id: uuid('cycle_id')
      .notNull()
      .references(() => cycles.id, { onDelete: 'no action' }),
    program_id: uuid('program_id')
      .notNull()
      .references(() => programs.id, { onDelete: 'no action' }),
    campus_id: uuid('campus_id').references(() => campuses.id, { onDelete: 'no action' }),
    form_id: uuid('form_id').notNull(),
    /** Question id → answer as last saved (not yet checked against the form). */
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: APPLICATION_STATUSES }).notNull().default('in_progress'),
    progress_percentage: integer('progress_percentage').notNull().default(0),
    current_step: integer('current_step').notNull().default(0),
    current_section_index: integer('current_section_index').notNull().default(0),
    version: integer('version').notNull().default(1),
    started_at: moment('started_at').notNull().defaultNow(),
    last_saved_at: moment('last_saved_at'),
    submitted_at: moment('submitted_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('applications_student_partner_cycle_unique').on(t.student_id, t.partner_id, t.cycle_id),
    index('applications_partner_idx').on(t.partner_id),
    index('applications_program_idx').on(t.program_id),
    index('applications_campus_idx').on(t.campus_id),
    index('applications_cycle_idx').on(t.cycle_id),
  ],
);

/**
 * One checkout of an application's fee with a payment provider. The partial unique index makes a
 * second live (pending or succeeded) payment for one application impossible; a failed attempt can be
 * followed by a new one.
 */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    application_id: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'no action' }),
    student_id: uuid('student_id').references(() => students.id, { onDelete: 'set null' }),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    /** The provider's reference of the checkout; what its callbacks name. */
    reference: text('reference').notNull(),
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('pending'),
    method: text('method', { enum: PAYMENT_METHODS }),
    /** What the payer was told when the provider refused it. */
    failure_reason: text('failure_reason'),
    /**
     * The client's Idempotency-Key of the request that opened the checkout, unique per student: the
     * same key sent for another application is a different request and is refused.
     */
    idempotency_key: text('idempotency_key'),
    /** What identified that request (lib/idempotency.ts). */
    idempotency_fingerprint: text('idempotency_fingerprint'),
    /** The provider event that settled it (a retried callback carries the same one). */
    provider_event_id: text('provider_event_id'),
    /**
     * The provider's own id of the request when it assigns one (Daraja's CheckoutRequestID, Flutterwave's
     * transaction id): what its status calls and callbacks name.
     */
    provider_reference: text('provider_reference'),
    /** The provider's id of the money movement once it succeeded (MoMo financialTransactionId, M-Pesa receipt). */
    provider_transaction_id: text('provider_transaction_id'),
    /** The mobile money number the prompt went to (MSISDN: country code and number, digits only). */
    payer_phone: text('payer_phone'),
    /**
     * A success that arrived for an application already paid (another method, an expired attempt): the
     * money is owed back. 'needed' until it is refunded (through the provider, or by hand with a note).
     */
    refund_status: text('refund_status', { enum: REFUND_STATUSES }),
    refund_note: text('refund_note'),
    refunded_at: moment('refunded_at'),
    /** How it was refunded: through the provider's refund API, or by hand (the note says how). */
    refund_method: text('refund_method', { enum: REFUND_METHODS }),
    /**
     * A refund through the provider (providers/refunds.ts): our reference of it, chosen when staff asked —
     * the provider's idempotency key and the secret part of the URL its asynchronous result comes to —,
     * the provider's own id of it once it answered, who asked and when, and the provider's code when it
     * failed (the payment is then owed back again, for staff to retry or refund by hand).
     */
    refund_reference: text('refund_reference'),
    provider_refund_id: text('provider_refund_id'),
    refund_requested_by: uuid('refund_requested_by').references(() => users.id, { onDelete: 'set null' }),
    refund_requested_at: moment('refund_requested_at'),
    refund_error: text('refund_error'),
    /**
     * Until when one step of the refund (a call to the provider) holds it: the job's retry and the sweep
     * never ask the provider about the same refund at the same moment, so their answers cannot cross.
     */
    refund_lease_until: moment('refund_lease_until'),
    paid_at: moment('paid_at'),
    /**
     * The receipt of a succeeded payment (e.g. KZ-R-2026-4F7K2Q): issued when it settles, or the first time it
     * is asked for when it settled before receipts existed. Unique and readable; not a gapless sequence.
     */
    receipt_number: text('receipt_number'),
    /** The receipt's verification code (lib/verification-code.ts), printed as text and as a QR code. */
    receipt_code: text('receipt_code'),
    /**
     * When the daily reconciliation compared this settled payment with the provider's record (whatever it
     * found): null until then, so each run takes only the payments it has not compared yet.
     */
    reconciled_at: moment('reconciled_at'),
    /** A bank slip: the photo or PDF of it the applicant uploaded, and the reference the bank printed on it. */
    slip_file_id: uuid('slip_file_id').references(() => files.id, { onDelete: 'set null' }),
    bank_reference: text('bank_reference'),
    /** The staff member's user who approved or rejected the slip, and when (a rejection's reason is failure_reason). */
    reviewed_by: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewed_at: moment('reviewed_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payments_receipt_number_unique').on(t.receipt_number),
    uniqueIndex('payments_receipt_code_unique').on(t.receipt_code),
    uniqueIndex('payments_provider_reference_unique').on(t.provider, t.reference),
    uniqueIndex('payments_provider_own_reference_unique')
      .on(t.provider, t.provider_reference)
      .where(sql`${t.provider_reference} is not null`),
    index('payments_partner_refund_idx')
      .on(t.partner_id)
      .where(sql`${t.refund_status} = 'needed'`),
    uniqueIndex('payments_refund_reference_unique')
      .on(t.refund_reference)
      .where(sql`${t.refund_reference} is not null`),
    index('payments_refund_processing_idx')
      .on(t.updated_at)
      .where(sql`${t.refund_status} = 'processing'`),
    uniqueIndex('payments_live_per_application_unique')
      .on(t.application_id)
      .where(sql`${t.status} in ('pending', 'succeeded')`),
    uniqueIndex('payments_student_idempotency_unique').on(t.student_id, t.idempotency_key),
    index('payments_partner_created_idx').on(t.partner_id, t.created_at),
    index('payments_unreconciled_idx')
      .on(t.updated_at)
      .where(sql`${t.reconciled_at} is null and ${t.status} in ('succeeded', 'failed')`),
  ],
);

/**
 * A difference the daily reconciliation found between a settled payment and the provider's own record of
 * it: one open row per payment and kind (a later run finding the same difference adds nothing), kept once
 * resolved with who resolved it and a note.
 */
export const paymentDiscrepancies = pgTable(
  'payment_discrepancies',
  {
    id: id(),
    payment_id: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: DISCREPANCY_KINDS }).notNull(),
    /** Our record and the provider's answer, as compared (DiscrepancySide). */
    ours: jsonb('ours').$type<DiscrepancySide>().notNull(),
    theirs: jsonb('theirs').$type<DiscrepancySide>().notNull(),
    found_at: moment('found_at').notNull().defaultNow(),
    resolved_at: moment('resolved_at'),
    /** The user who resolved it. */
    resolved_by: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payment_discrepancies_open_unique')
      .on(t.payment_id, t.kind)
      .where(sql`${t.resolved_at} is null`),
    index('payment_discrepancies_partner_open_idx')
      .on(t.partner_id, t.found_at)
      .where(sql`${t.resolved_at} is null`),
  ],
);

/**
 * The sandbox provider's own side: the outcome it decided for each checkout, as a real provider keeps it
 * and answers status queries from (reconciliation, when no callback got through).
 */
export const sandboxCharges = pgTable('sandbox_charges', {
  reference: text('reference').primaryKey(),
  event: jsonb('event').$type<PaymentEvent>().notNull(),
  ...timestamps,
});
