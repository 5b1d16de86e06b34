import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { LANGUAGES, REFEREE_KINDS } from '@kaminuza/shared';
import { applications } from './applications.ts';
import { id, timestamps } from './columns.ts';

const moment = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/**
 * A referee an applicant invited for one referees question of an application (ADR 054). The referee has
 * no account: their link carries the row's id and `link_version`, signed with the server's secret; a new
 * version (the applicant corrected the address) makes older links invalid. The letter is typed
 * (`letter_text`) or a PDF in the file store (`letter_storage_key`); the submission id is the application's.
 */
export const referees = pgTable(
  'referees',
  {
    id: id(),
    application_id: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    question_id: text('question_id').notNull(),
    kind: text('kind', { enum: REFEREE_KINDS }).notNull(),
    name: text('name').notNull(),
    title: text('title').notNull(),
    organization: text('organization').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    waived: boolean('waived').notNull(),
    language: text('language', { enum: LANGUAGES }).notNull(),
    link_version: integer('link_version').notNull().default(1),
    /** When the latest link stops working. */
    expires_at: moment('expires_at').notNull(),
    invited_at: moment('invited_at').notNull().defaultNow(),
    /** The latest invitation or reminder sent, and how many reminders went out (REFEREE_REMINDER_DAYS). */
    last_sent_at: moment('last_sent_at').notNull().defaultNow(),
    reminders_sent: smallint('reminders_sent').notNull().default(0),
    opened_at: moment('opened_at'),
    submitted_at: moment('submitted_at'),
    /** The referee's answers to the question's prompts, in order. */
    answers: jsonb('answers').$type<string[]>().notNull().default([]),
    letter_text: text('letter_text'),
    letter_storage_key: text('letter_storage_key'),
    letter_file_name: text('letter_file_name'),
    letter_size: bigint('letter_size', { mode: 'number' }),
    letter_sha256: text('letter_sha256'),
    ...timestamps,
  },
  (t) => [
    index('referees_application_idx').on(t.application_id, t.question_id),
    // One invitation per address and question of an application.
    uniqueIndex('referees_application_question_email_unique').on(
      t.application_id,
      t.question_id,
      sql`lower(${t.email})`,
    ),
    // What the reminder pass reads: letters still awaited.
    index('referees_awaiting_idx')
      .on(t.invited_at)
      .where(sql`submitted_at is null`),
  ],
);
