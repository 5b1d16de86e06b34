import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './columns.ts';
import { documents } from './documents.ts';
import { partners } from './partners.ts';
import { students, users } from './users.ts';

const moment = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/**
 * A student's conversation with the support team (spec section 3, support_tickets). Open until the
 * student resolves it or the team closes it; a closed ticket takes no more messages.
 */
export const supportTickets = pgTable(
  'support_tickets',
  {
    id: id(),
    student_id: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    status: text('status', { enum: ['open', 'closed'] })
      .notNull()
      .default('open'),
    /** Who closed it: the student (resolved) or the team. */
    closed_by: text('closed_by', { enum: ['student', 'team'] }),
    closed_at: moment('closed_at'),
    /** The support agent (an admin) who handles it. */
    assigned_to: uuid('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    last_message_at: moment('last_message_at').notNull().defaultNow(),
    /** Read receipts: the last moment each side read the conversation. */
    student_read_at: moment('student_read_at'),
    team_read_at: moment('team_read_at'),
    /** When each side was last emailed about unread replies, so a reply is emailed once. */
    student_notified_at: moment('student_notified_at'),
    ...timestamps,
  },
  (t) => [
    index('support_tickets_student_idx').on(t.student_id, t.last_message_at),
    index('support_tickets_status_idx').on(t.status, t.last_message_at),
  ],
);

export const supportMessages = pgTable(
  'support_messages',
  {
    id: id(),
    ticket_id: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    sender_id: uuid('sender_id').references(() => users.id, { onDelete: 'set null' }),
    sender_side: text('sender_side', { enum: ['student', 'team'] }).notNull(),
    body: text('body').notNull(),
    /** A document from the student's profile, shared with the team. */
    document_id: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('support_messages_ticket_idx').on(t.ticket_id, t.created_at)],
);

/**
 * A conversation between a student and an institution (spec section 3: the student's chats, and the
 * messages under the partners the student added). One per student and institution.
 */
export const chats = pgTable(
  'chats',
  {
    id: id(),
    student_id: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    last_message_at: moment('last_message_at').notNull().defaultNow(),
    student_read_at: moment('student_read_at'),
    /** The institution reads as one side: any member who opens it marks it read. */
    partner_read_at: moment('partner_read_at'),
    student_notified_at: moment('student_notified_at'),
    partner_notified_at: moment('partner_notified_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('chats_student_partner_unique').on(t.student_id, t.partner_id),
    index('chats_partner_idx').on(t.partner_id, t.last_message_at),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    chat_id: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    sender_id: uuid('sender_id').references(() => users.id, { onDelete: 'set null' }),
    sender_side: text('sender_side', { enum: ['student', 'partner'] }).notNull(),
    body: text('body').notNull(),
    ...timestamps,
  },
  (t) => [index('chat_messages_chat_idx').on(t.chat_id, t.created_at)],
);
