import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { id, timestamps } from './columns.ts';

/**
 * Durable email outbox: a message is committed here in the same transaction as the change that causes
 * it; its delivery is then a job of the queue (`email.send`, the row's id as the job's id), retried with
 * backoff — a transport failure never loses an account. A trigger (migration 0015) tells the listening
 * instances at commit to create the jobs of new rows (lib/jobs/relay.ts).
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
    /**
     * The message as rendered in the recipient's language: when it was written, or, for a message written
     * on the hot path of a request (a submission's receipt, ADR 048), at its delivery (null until then).
     */
    subject: text('subject'),
    html: text('html'),
    text: text('text'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    /** When its delivery job was created; null until then (the relay looks for these). */
    queued_at: timestamp('queued_at', { withTimezone: true, mode: 'string' }),
    sent_at: timestamp('sent_at', { withTimezone: true, mode: 'string' }),
    ...timestamps,
  },
  (t) => [
    index('email_outbox_unqueued_idx')
      .on(t.created_at)
      .where(sql`queued_at is null`),
    index('email_outbox_to_idx').on(t.to),
  ],
);
