import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './columns.ts';
import { users } from './users.ts';

/** Every admin action: who did what to which record, and with what details (a rejection's reason…). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    actor_id: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    target_type: text('target_type').notNull(),
    target_id: uuid('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    index('audit_log_created_idx').on(t.created_at),
    index('audit_log_target_idx').on(t.target_type, t.target_id),
  ],
);
