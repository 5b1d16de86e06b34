import { index, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { partners } from './partners.ts';
import { students } from './users.ts';

/** The universities a student added to their list (the spec's `added` subcollection). */
export const savedPartners = pgTable(
  'saved_partners',
  {
    student_id: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.student_id, t.partner_id] }), index('saved_partners_partner_idx').on(t.partner_id)],
);
