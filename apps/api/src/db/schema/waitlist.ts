import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, timestamps } from './columns.ts';

export const waitlist = pgTable(
  'waitlist',
  {
    id: id(),
    email: text('email').notNull(),
    /** The query string the visitor arrived with, e.g. `ref=abc`. */
    query: text('query').notNull().default(''),
    language: text('language').notNull().default('en'),
    ...timestamps,
  },
  (t) => [uniqueIndex('waitlist_email_unique').on(sql`lower(${t.email})`)],
);
