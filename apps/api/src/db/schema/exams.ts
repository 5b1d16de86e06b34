import { doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './columns.ts';
import { DOCUMENT_TYPES } from '@kaminuza/shared';
import { partners } from './partners.ts';
import { students, users } from './users.ts';

/**
 * An applicant's sittings of national examinations (issue 25, ADR 050): each subject with its grade on
 * the examination's scale (`exam` is an examination system's id, or `other` with its name and overall
 * grade as written). Verified by an institution's staff against the attached document, a sitting is
 * locked: the applicant can no longer change or remove it.
 */
export const examSittings = pgTable(
  'exam_sittings',
  {
    id: id(),
    student_id: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    exam: text('exam').notNull(),
    other_name: text('other_name').notNull().default(''),
    year: integer('year').notNull(),
    index_number: text('index_number').notNull().default(''),
    results: jsonb('results').$type<{ subject: string; grade: string }[]>().notNull().default([]),
    declared: doublePrecision('declared'),
    overall: text('overall').notNull().default(''),
    /** The applicant's document the sitting is read against (Documents keeps one of each type). */
    document_type: text('document_type', { enum: DOCUMENT_TYPES }),
    verified_at: timestamp('verified_at', { withTimezone: true, mode: 'string' }),
    verified_by: uuid('verified_by').references(() => users.id, { onDelete: 'set null' }),
    verified_by_partner: uuid('verified_by_partner').references(() => partners.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('exam_sittings_student').on(t.student_id, t.year)],
);
