import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { id, timestamps } from './columns.ts';

export interface DevMailboxHeader {
  name: string;
  value: string;
}

/**
 * What the in-process development SMTP server received (default mode only): the messages a newcomer
 * reads at /dev/mailbox. Real deployments send through SMTP_URL and never write here.
 */
export const devMailbox = pgTable(
  'dev_mailbox',
  {
    id: id(),
    message_id: text('message_id'),
    /** The envelope (RCPT TO) recipients, as the SMTP server saw them. */
    envelope_to: text('envelope_to').array().notNull(),
    to: text('to').notNull(),
    from: text('from').notNull(),
    subject: text('subject').notNull(),
    html: text('html'),
    text: text('text'),
    headers: jsonb('headers').$type<DevMailboxHeader[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [index('dev_mailbox_created_idx').on(t.created_at)],
);
