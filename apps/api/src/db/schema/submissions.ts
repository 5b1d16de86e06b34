import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  CONDITIONS_STATUSES,
  DECISION_RESPONSES,
  DEFERRAL_STATUSES,
  DECISION_STATES,
  ELIGIBILITY_STATUSES,
  SUBMISSION_STATUSES,
  type SubmissionEligibility,
  type AdmissionLetterIssued,
  type FormSnapshot,
  type OfferCondition,
} from '@kaminuza/shared';
import { campuses, cycles, forms, programs } from './admissions.ts';
import { payments } from './applications.ts';
import { id, timestamps } from './columns.ts';
import { partners } from './partners.ts';
import { staff, students } from './users.ts';

/**
 * A submitted application (spec section 3): what the applicant sent, frozen at submit time. A student's
 * submission has the id of the application it was made from (so one application can only be submitted
 * once); a submission on behalf has an id of its own. The setup it names cannot be deleted under it.
 */
export const submissions = pgTable(
  'submissions',
  {
    id: id(),
    /** Short, human-readable and unique: what the applicant copies and quotes. */
    reference: text('reference').notNull(),
    student_id: uuid('student_id').references(() => students.id, { onDelete: 'set null' }),
    staff_id: uuid('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    submitted_by_staff: boolean('submitted_by_staff').notNull().default(false),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    cycle_id: uuid('cycle_id').references(() => cycles.id, { onDelete: 'no action' }),
    program_id: uuid('program_id').references(() => programs.id, { onDelete: 'no action' }),
    campus_id: uuid('campus_id')
      .notNull()
      .references(() => campuses.id, { onDelete: 'no action' }),
    form_id: uuid('form_id').references(() => forms.id, { onDelete: 'no action' }),
    /** The form as it was when submitted: later edits of the form never change what was answered. */
    form_snapshot: jsonb('form_snapshot').$type<FormSnapshot>(),
    /** Snapshot of the applicant's details at submission. */
    profile: jsonb('profile').$type<Record<string, unknown>>().notNull().default({}),
    /** Question id → answer, empty values stripped. */
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: SUBMISSION_STATUSES }).notNull().default('submitted'),
    paid: boolean('paid').notNull().default(false),
    amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    currency: text('currency').notNull().default('USD'),
    payment_id: uuid('payment_id').references(() => payments.id, { onDelete: 'no action' }),
    /** The fee was waived (a waiver code or an approved request): nothing paid, nothing owed. */
    fee_waived: boolean('fee_waived').notNull().default(false),
    /** The client's Idempotency-Key of the submit: a retry with it gets this submission back. */
    idempotency_key: text('idempotency_key'),
    /** What identified the request that key made (lib/idempotency.ts): the same key on another request is refused. */
    idempotency_fingerprint: text('idempotency_fingerprint'),
    /** The applicant's name as submitted, for the queue's search and sort (kept in step by PostgreSQL). */
    applicant_name: text('applicant_name')
      .notNull()
      .generatedAlwaysAs(
        sql`btrim(coalesce(profile->>'first_name', '') || ' ' || coalesce(profile->>'last_name', ''))`,
      ),
    /**
     * The same name folded as searches are (`f_unaccent(lower(…))`, see lib/text-search.ts): the queue's
     * search and name order read it from its indexes without folding each row on every request.
     */
    applicant_name_search: text('applicant_name_search')
      .notNull()
      .generatedAlwaysAs(
        sql`f_unaccent(lower(btrim(coalesce(profile->>'first_name', '') || ' ' || coalesce(profile->>'last_name', ''))))`,
      ),
    /** A custom stage of the institution's settings (review), or none. */
    stage_id: text('stage_id'),
    /** The member asked to review it. */
    assigned_to: uuid('assigned_to').references(() => staff.id, { onDelete: 'set null' }),
    /** The average of the reviewers' scores (0–100), kept with each score so the queue filters and sorts on it. */
    score_average: numeric('score_average', { precision: 5, scale: 2, mode: 'number' }),
    score_count: integer('score_count').notNull().default(0),
    /**
     * The state of its decision, if any, and whether that decision is released: copies of `decisions`,
     * kept in step by a trigger on that table (migration 0012), so the queue filters on them from its
     * covering index instead of probing `decisions` for each submission.
     */
    decision_state: text('decision_state', { enum: DECISION_STATES }),
    decision_released: boolean('decision_released').notNull().default(false),
    /**
     * Eligibility for the program when submitted (issue 25): the applicant's examination results against
     * its entry requirements, with each rule explained; its status, rank and points are kept in step by
     * PostgreSQL for the queue's filter and sorts.
     */
    eligibility: jsonb('eligibility').$type<SubmissionEligibility>(),
    eligibility_status: text('eligibility_status', { enum: ELIGIBILITY_STATUSES }).generatedAlwaysAs(
      sql`eligibility->>'status'`,
    ),
    /** 0 eligible, 1 needs review, 2 not eligible: the queue's eligibility order. */
    eligibility_rank: smallint('eligibility_rank').generatedAlwaysAs(
      sql`case eligibility->>'status' when 'eligible' then 0 when 'needs_review' then 1 when 'not_eligible' then 2 end`,
    ),
    /** The aggregate as points out of 100, higher better, whatever the examination. */
    eligibility_points: numeric('eligibility_points', { precision: 5, scale: 2, mode: 'number' }).generatedAlwaysAs(
      sql`(eligibility->>'points')::numeric(5,2)`,
    ),
    /** The institution decides on entry requirements: a job drafts the automatic decision (relayed once). */
    auto_decide: boolean('auto_decide').notNull().default(false),
    auto_decision_queued_at: timestamp('auto_decision_queued_at', { withTimezone: true, mode: 'string' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('submissions_reference_unique').on(t.reference),
    index('submissions_partner_created_idx').on(t.partner_id, t.created_at),
    index('submissions_student_idx').on(t.student_id),
    index('submissions_created_idx').on(t.created_at),
    index('submissions_staff_idx').on(t.staff_id),
    uniqueIndex('submissions_partner_idempotency_unique').on(t.partner_id, t.idempotency_key),
    index('submissions_partner_status_created_idx').on(t.partner_id, t.status, t.created_at),
    // Score and name orders walk these without reading the table: the ties' keys are in the index too.
    index('submissions_partner_score_idx').on(t.partner_id, t.score_average, t.created_at, t.id),
    index('submissions_partner_name_idx').on(t.partner_id, t.applicant_name_search, t.id),
    /*
     * The review queue's covering index: every column its filters and sorts read, after the institution
     * and the default order, so a page's ids and the total of any filter combination come from the index
     * alone (index-only scans) instead of a heap that holds each submission's snapshot.
     */
    index('submissions_review_queue_idx').on(
      t.partner_id,
      t.created_at,
      t.id,
      t.paid,
      t.submitted_by_staff,
      t.status,
      t.campus_id,
      t.cycle_id,
      t.program_id,
      t.stage_id,
      t.assigned_to,
      t.score_average,
      t.applicant_name_search,
      t.reference,
      t.decision_state,
      t.decision_released,
      t.eligibility_rank,
      t.eligibility_points,
    ),
    index('submissions_auto_decision_unqueued_idx')
      .on(t.created_at)
      .where(sql`auto_decide and auto_decision_queued_at is null`),
  ],
);

/**
 * An admission decision on a submission (spec section 3: programName, universityName, a state and a
 * response date). The names are kept as they were when decided.
 */
export const decisions = pgTable(
  'decisions',
  {
    id: id(),
    submission_id: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    student_id: uuid('student_id').references(() => students.id, { onDelete: 'set null' }),
    state: text('state', { enum: DECISION_STATES }).notNull(),
    program_name: text('program_name').notNull(),
    university_name: text('university_name').notNull(),
    decided_by: uuid('decided_by').references(() => staff.id, { onDelete: 'set null' }),
    /** When the applicant may see it; null while held back. */
    released_at: timestamp('released_at', { withTimezone: true, mode: 'string' }),
    /** The applicant's answer to an offer, and when they gave it. */
    response: text('response', { enum: DECISION_RESPONSES }),
    response_date: timestamp('response_date', { withTimezone: true, mode: 'string' }),
    /** Drafted by the institution's thresholds, not by a person. */
    automatic: boolean('automatic').notNull().default(false),
    /** A drafted decision scheduled for release (the cycle's decision release date); the release job takes it then. */
    release_at: timestamp('release_at', { withTimezone: true, mode: 'string' }),
    /** The admission letter of an accepted decision, issued at release, and the code that verifies it. */
    verification_code: text('verification_code'),
    letter: jsonb('letter').$type<AdmissionLetterIssued>(),
    /** The institution's message to the applicant with the decision (ADR 051); empty when none. */
    message: text('message').notNull().default(''),
    /** An offer's conditions, and whether staff found them met (null when there are none). */
    conditions: jsonb('conditions').$type<OfferCondition[]>().notNull().default([]),
    conditions_status: text('conditions_status', { enum: CONDITIONS_STATUSES }),
    conditions_decided_at: timestamp('conditions_decided_at', { withTimezone: true, mode: 'string' }),
    /** An offer's reply deadline: the day staff chose, and the moment it ends in the institution's time zone. */
    reply_by_on: date('reply_by_on', { mode: 'string' }),
    reply_by: timestamp('reply_by', { withTimezone: true, mode: 'string' }),
    /** The tightest reply reminder sent (days before the deadline, OFFER_REPLY_REMINDER_DAYS). */
    reply_reminded_days: smallint('reply_reminded_days'),
    /** When the offer lapsed, unanswered past its deadline. */
    lapsed_at: timestamp('lapsed_at', { withTimezone: true, mode: 'string' }),
    /** A released waitlisted decision's place on its waiting list (1 first; null: not ranked yet). */
    waitlist_rank: integer('waitlist_rank'),
    /** When a place opened and this waitlisted applicant, next on the list, was proposed to staff. */
    proposed_at: timestamp('proposed_at', { withTimezone: true, mode: 'string' }),
    /**
     * The later cycle an accepted offer was deferred to (ADR 053): the offer holds its place there, not in
     * the submission's cycle; null when not deferred.
     */
    deferred_to_cycle_id: uuid('deferred_to_cycle_id').references(() => cycles.id, { onDelete: 'no action' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('decisions_submission_unique').on(t.submission_id),
    index('decisions_partner_created_idx').on(t.partner_id, t.created_at),
    uniqueIndex('decisions_verification_code_unique').on(t.verification_code),
    index('decisions_student_idx').on(t.student_id),
    index('decisions_due_idx')
      .on(t.release_at)
      .where(sql`released_at is null and release_at is not null`),
    // Open offers with a deadline: what the reminder and lapse passes read.
    index('decisions_reply_due_idx')
      .on(t.reply_by)
      .where(sql`response is null and lapsed_at is null and reply_by is not null and released_at is not null`),
  ],
);

/**
 * An applicant's request to defer an accepted offer to a later cycle (ADR 053), and staff's answer. At most
 * one is pending per decision; approved, declined and withdrawn ones stay as the offer's history.
 */
export const deferralRequests = pgTable(
  'deferral_requests',
  {
    id: id(),
    decision_id: uuid('decision_id')
      .notNull()
      .references(() => decisions.id, { onDelete: 'cascade' }),
    submission_id: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    /** The cycle the offer held its place in when asked, and the one asked for. */
    from_cycle_id: uuid('from_cycle_id')
      .notNull()
      .references(() => cycles.id, { onDelete: 'no action' }),
    to_cycle_id: uuid('to_cycle_id')
      .notNull()
      .references(() => cycles.id, { onDelete: 'no action' }),
    /** The applicant's reason. */
    reason: text('reason').notNull(),
    status: text('status', { enum: DEFERRAL_STATUSES }).notNull().default('pending'),
    /** Staff's note to the applicant with their answer; empty when none. */
    note: text('note').notNull().default(''),
    decided_by: uuid('decided_by').references(() => staff.id, { onDelete: 'set null' }),
    /** When staff approved or declined it, or the applicant withdrew it. */
    closed_at: timestamp('closed_at', { withTimezone: true, mode: 'string' }),
    ...timestamps,
  },
  (t) => [
    index('deferral_requests_decision_idx').on(t.decision_id, t.created_at),
    uniqueIndex('deferral_requests_pending_unique')
      .on(t.decision_id)
      .where(sql`status = 'pending'`),
    index('deferral_requests_partner_pending_idx')
      .on(t.partner_id, t.submission_id)
      .where(sql`status = 'pending'`),
  ],
);
