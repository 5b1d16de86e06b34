import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { NOTIFICATION_CATEGORIES, THEMES } from '@kaminuza/shared';
import { applications } from './applications.ts';
import { id, timestamps } from './columns.ts';
import { users } from './users.ts';

/**
 * An account's settings (spec section 2, Settings; section 3, notification preferences). A row is written
 * at the first change: no row means every default (theme system, all notifications on but marketing).
 * The interface language of students and staff lives on their profile (`students.language`,
 * `staff.language`, which emails use); `language` here is only for accounts without one (admins).
 */
export const userPreferences = pgTable('user_preferences', {
  user_id: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  theme: text('theme', { enum: THEMES }).notNull().default('system'),
  language: text('language'),
  email_marketing: boolean('email_marketing').notNull().default(false),
  email_application_updates: boolean('email_application_updates').notNull().default(true),
  email_reminders: boolean('email_reminders').notNull().default(true),
  push_messages: boolean('push_messages').notNull().default(true),
  push_status_updates: boolean('push_status_updates').notNull().default(true),
  push_deadline_reminders: boolean('push_deadline_reminders').notNull().default(true),
  /** The secret of the unsubscribe link in marketing emails, which works without signing in. */
  unsubscribe_token: uuid('unsubscribe_token').notNull().unique().defaultRandom(),
  ...timestamps,
});

/** The in-app notifications list (and what a push message carries): one row per event per user. */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    category: text('category', { enum: NOTIFICATION_CATEGORIES }).notNull(),
    /** decision_released, document_verified, document_rejected, draft_reminder, new_message … */
    type: text('type').notNull(),
    /** What the interface needs to word it in the reader's language (names, dates, a reason…). */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    /** The app path the notification opens. */
    link: text('link'),
    read_at: timestamp('read_at', { withTimezone: true, mode: 'string' }),
    /**
     * When the user wants it pushed: the time its push job was created, null until then (the relay
     * looks for these, like the email outbox's). Null with `push` false: never pushed.
     */
    push: boolean('push').notNull().default(false),
    push_queued_at: timestamp('push_queued_at', { withTimezone: true, mode: 'string' }),
    ...timestamps,
  },
  (t) => [
    index('notifications_user_created_idx').on(t.user_id, t.created_at),
    index('notifications_push_unqueued_idx')
      .on(t.created_at)
      .where(sql`push and push_queued_at is null`),
    index('notifications_user_unread_idx')
      .on(t.user_id)
      .where(sql`read_at is null`),
  ],
);

/** A browser's Web Push subscription (endpoint and keys, RFC 8030/8291) for one user. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    user_agent: text('user_agent'),
    /** Consecutive failed deliveries; a gone (404/410) endpoint is deleted at once. */
    failures: integer('failures').notNull().default(0),
    last_success_at: timestamp('last_success_at', { withTimezone: true, mode: 'string' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_unique').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.user_id),
  ],
);

/** Keys the server makes itself at first start and keeps (the VAPID key pair of Web Push). */
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  public_key: text('public_key').notNull(),
  private_key: text('private_key').notNull(),
  ...timestamps,
});

/** A reminder already sent, so the reminders job tells each applicant once per kind (e.g. 7 days before close). */
export const remindersSent = pgTable(
  'reminders_sent',
  {
    id: id(),
    application_id: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('reminders_sent_unique').on(t.application_id, t.kind)],
);

/**
 * A requested account deletion, run by a job once `scheduled_for` passes (the grace period); cancelled by
 * deleting the row. The row goes with the user it deletes.
 */
export const accountDeletions = pgTable(
  'account_deletions',
  {
    user_id: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    scheduled_for: timestamp('scheduled_for', { withTimezone: true, mode: 'string' }).notNull(),
    ...timestamps,
  },
  (t) => [index('account_deletions_due_idx').on(t.scheduled_for)],
);
