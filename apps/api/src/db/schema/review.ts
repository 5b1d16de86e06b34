import { index, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { REVIEW_EVENT_ACTIONS } from '@kaminuza/shared';
import { id, timestamps } from './columns.ts';
import { partners } from './partners.ts';
import { submissions } from './submissions.ts';
import { staff } from './users.ts';

/**
 * The staff review of a submission (spec section 3: the admissions subcollection with its notes).
 * Nothing here is ever shown to the applicant.
 */

/** An internal note on a submission. */
export const reviewNotes = pgTable(
  'review_notes',
  {
    id: id(),
    submission_id: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    author_id: uuid('author_id').references(() => staff.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    ...timestamps,
  },
  (t) => [index('review_notes_submission_idx').on(t.submission_id, t.created_at)],
);

/** One reviewer's score of a submission against the rubric: one row per reviewer, replaced when rescored. */
export const reviewScores = pgTable(
  'review_scores',
  {
    id: id(),
    submission_id: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    reviewer_id: uuid('reviewer_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    /** Criterion id → 0..100, as scored against the rubric of the time. */
    criteria: jsonb('criteria').$type<Record<string, number>>().notNull(),
    /** The weighted total, 0..100. */
    total: numeric('total', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    comment: text('comment'),
    ...timestamps,
  },
  (t) => [uniqueIndex('review_scores_submission_reviewer_unique').on(t.submission_id, t.reviewer_id)],
);

/** The history of a submission: every change, by whom (a member, the applicant, or the platform). */
export const reviewEvents = pgTable(
  'review_events',
  {
    id: id(),
    submission_id: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    actor_kind: text('actor_kind', { enum: ['staff', 'applicant', 'system'] }).notNull(),
    actor_staff_id: uuid('actor_staff_id').references(() => staff.id, { onDelete: 'set null' }),
    action: text('action', { enum: REVIEW_EVENT_ACTIONS }).notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [index('review_events_submission_idx').on(t.submission_id, t.created_at)],
);
