import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { FEE_WAIVER_KINDS, FEE_WAIVER_STATUSES } from '@kaminuza/shared';
import { cycles } from './admissions.ts';
import { applications } from './applications.ts';
import { id, timestamps } from './columns.ts';
import { documents } from './documents.ts';
import { partners } from './partners.ts';
import { staff } from './users.ts';

const moment = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/**
 * A fee waiver code an institution gives out (issue 22): good for one admission cycle, `max_uses`
 * applications and until `expires_on` (a day in the institution's time zone), unless revoked. Codes read
 * like admission letters' verification codes (`XXXX-XXXX-XXXX`, no look-alike characters) and are stored
 * upper-case; unique per institution whatever the case. A redemption takes a use in one conditional
 * update, so concurrent redemptions never take more uses than the code has.
 */
export const feeWaiverCodes = pgTable(
  'fee_waiver_codes',
  {
    id: id(),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    cycle_id: uuid('cycle_id')
      .notNull()
      .references(() => cycles.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    /** What staff call it ("Scholarship fair", "Partner school X"), never shown to applicants. */
    label: text('label'),
    max_uses: integer('max_uses').notNull(),
    used_count: integer('used_count').notNull().default(0),
    expires_on: date('expires_on', { mode: 'string' }).notNull(),
    created_by: uuid('created_by').references(() => staff.id, { onDelete: 'set null' }),
    revoked_at: moment('revoked_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('fee_waiver_codes_partner_code_unique').on(t.partner_id, sql`upper(${t.code})`),
    index('fee_waiver_codes_partner_created_idx').on(t.partner_id, t.created_at),
    check('fee_waiver_codes_uses_check', sql`${t.used_count} >= 0 and ${t.used_count} <= ${t.max_uses}`),
  ],
);

/**
 * The fee waiver of one application: granted at once by a code (`approved`), or asked for with a reason
 * and an optional document of the applicant's and answered by staff. A declined request may be replaced by
 * a new one (the row is reused: one waiver per application).
 */
export const feeWaivers = pgTable(
  'fee_waivers',
  {
    id: id(),
    application_id: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: FEE_WAIVER_KINDS }).notNull(),
    code_id: uuid('code_id').references(() => feeWaiverCodes.id, { onDelete: 'set null' }),
    status: text('status', { enum: FEE_WAIVER_STATUSES }).notNull(),
    /** The applicant's account of their need (requests only). */
    reason: text('reason'),
    /** One of the applicant's documents supporting the request (documents.id, as form answers name them). */
    document_id: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    decided_by: uuid('decided_by').references(() => staff.id, { onDelete: 'set null' }),
    decided_at: moment('decided_at'),
    /** Why staff declined, shown to the applicant. */
    decline_reason: text('decline_reason'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('fee_waivers_application_unique').on(t.application_id),
    index('fee_waivers_partner_status_idx').on(t.partner_id, t.status, t.created_at),
  ],
);
