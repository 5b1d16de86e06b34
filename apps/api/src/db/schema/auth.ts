import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './columns.ts';
import { users } from './users.ts';

const moment = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/**
 * better-auth's session model. `token` is the random session token; the cookie carries it signed with
 * AUTH_SECRET. Deleting a row revokes that session.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    expires_at: moment('expires_at').notNull(),
    ip_address: text('ip_address'),
    user_agent: text('user_agent'),
    ...timestamps,
  },
  (t) => [uniqueIndex('sessions_token_unique').on(t.token), index('sessions_user_idx').on(t.user_id)],
);

/** better-auth's account model: one `credential` row per user holds the argon2id password hash. */
export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    account_id: text('account_id').notNull(),
    provider_id: text('provider_id').notNull(),
    password: text('password'),
    access_token: text('access_token'),
    refresh_token: text('refresh_token'),
    id_token: text('id_token'),
    access_token_expires_at: moment('access_token_expires_at'),
    refresh_token_expires_at: moment('refresh_token_expires_at'),
    scope: text('scope'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('accounts_provider_account_unique').on(t.provider_id, t.account_id),
    index('accounts_user_idx').on(t.user_id),
  ],
);

/**
 * better-auth's verification model, also holding our single-use links: `identifier` is
 * `<purpose>:<sha256 of the code>` (the code itself is only ever in the email), `value` the user id.
 */
export const verifications = pgTable(
  'verifications',
  {
    id: id(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expires_at: moment('expires_at').notNull(),
    ...timestamps,
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier), index('verifications_value_idx').on(t.value)],
);

/**
 * Fixed-window counters for rate limits (per IP and per account), shared by every api instance.
 * `key` names the limit and the subject, e.g. `sign-in:ip:203.0.113.7`.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    reset_at: moment('reset_at').notNull(),
    ...timestamps,
  },
  (t) => [index('rate_limits_reset_idx').on(t.reset_at)],
);
