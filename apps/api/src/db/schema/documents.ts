import { bigint, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DOCUMENT_STATUSES, DOCUMENT_TYPES } from '@kaminuza/shared';
import { id, timestamps } from './columns.ts';
import { students, users } from './users.ts';

/**
 * A stored file: its bytes live in the storage driver under `storage_key` (a generated name, never
 * the uploaded one); the original name is kept only to offer it back on download.
 */
export const files = pgTable(
  'files',
  {
    id: id(),
    owner_id: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storage_key: text('storage_key').notNull(),
    original_name: text('original_name').notNull(),
    /** Detected from the bytes, not taken from the client. */
    mime_type: text('mime_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    /** document, profile_picture, or payment_slip (a bank slip sent with a fee payment) */
    purpose: text('purpose', { enum: ['document', 'profile_picture', 'payment_slip'] }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('files_storage_key_unique').on(t.storage_key), index('files_owner_idx').on(t.owner_id)],
);

/** A student's document of one type (spec section 3); no row means "not uploaded". */
export const documents = pgTable(
  'documents',
  {
    id: id(),
    student_id: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    type: text('type', { enum: DOCUMENT_TYPES }).notNull(),
    status: text('status', { enum: DOCUMENT_STATUSES }).notNull().default('pending'),
    file_id: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
    /** Set by institution staff when they verify or reject it. */
    reviewed_by: uuid('reviewed_by'),
    review_note: text('review_note'),
    ...timestamps,
  },
  (t) => [uniqueIndex('documents_student_type_unique').on(t.student_id, t.type)],
);
