import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { id, timestamps } from './columns.ts';

/**
 * Durable email outbox: a message is committed here in the same transaction as the change that causes
 * it, then delivered (and retried) by a worker — a transport failure never loses an account.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: id(),
    to: text('to').notNull(),
    from: text('from').notNull(),
    /** welcome, email_verification, password_reset … or 'custom' for a free subject. */
    template: text('template').notNull(),
    language: text('language').notNull().default('en'),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true, mode: 'string' })
      .notNull()
      .default(sql`now()`),
    sent_at: timestamp('sent_at', { withTimezone: true, mode: 'string' }),
    ...timestamps,
  },
  (t) => [index('email_outbox_due_idx').on(t.status, t.next_attempt_at), index('email_outbox_to_idx').on(t.to)],
);
