import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  CYCLE_STATUSES,
  PROGRAM_LEVELS,
  type ApiKeyScope,
  type FormSection,
  type StaffPermission,
  type StudyField,
} from '@kaminuza/shared';
import type { EntryRules } from '@kaminuza/shared/exams';
import { id, timestamps } from './columns.ts';
import { partners } from './partners.ts';
import { staff } from './users.ts';

const moment = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });
const partnerId = () =>
  uuid('partner_id')
    .notNull()
    .references(() => partners.id, { onDelete: 'cascade' });

/** Where an institution teaches (spec section 3, campuses). */
export const campuses = pgTable(
  'campuses',
  {
    id: id(),
    partner_id: partnerId(),
    name: text('name').notNull(),
    address: text('address').notNull().default(''),
    city: text('city').notNull(),
    country: text('country').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('campuses_partner_name_unique').on(t.partner_id, sql`lower(${t.name})`)],
);

/** What an institution teaches (spec section 3, programs). */
export const programs = pgTable(
  'programs',
  {
    id: id(),
    partner_id: partnerId(),
    name: text('name').notNull(),
    level: text('level', { enum: PROGRAM_LEVELS }).notNull(),
    field: text('field').$type<StudyField>().notNull(),
    duration_months: integer('duration_months').notNull(),
    language: text('language').notNull(),
    tuition_amount: integer('tuition_amount').notNull().default(0),
    tuition_currency: text('tuition_currency').notNull().default('USD'),
    requirements: text('requirements').notNull().default(''),
    /** The entry rules per examination (issue 25), checked against the examination data when saved. */
    entry_rules: jsonb('entry_rules').$type<EntryRules>().notNull().default({ exams: [] }),
    seats: integer('seats'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('programs_partner_name_level_unique').on(t.partner_id, sql`lower(${t.name})`, t.level),
    // The programs naming an examination (Explore's "programs I meet the requirements for", issue 25).
    index('programs_entry_exams_idx').using('gin', sql`(${t.entry_rules} -> 'exams') jsonb_path_ops`),
  ],
);

/** A program is offered at one or more campuses. */
export const programCampuses = pgTable(
  'program_campuses',
  {
    program_id: uuid('program_id')
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    campus_id: uuid('campus_id')
      .notNull()
      .references(() => campuses.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.program_id, t.campus_id] }), index('program_campuses_campus_idx').on(t.campus_id)],
);

/**
 * An admission cycle (spec section 3, cycles): open for applications from its opening day to the end
 * of its closing day in the institution's time zone, while its status is open.
 */
export const cycles = pgTable(
  'cycles',
  {
    id: id(),
    partner_id: partnerId(),
    name: text('name').notNull(),
    opens_on: date('opens_on', { mode: 'string' }).notNull(),
    closes_on: date('closes_on', { mode: 'string' }).notNull(),
    decision_release_on: date('decision_release_on', { mode: 'string' }),
    status: text('status', { enum: CYCLE_STATUSES }).notNull().default('draft'),
    ...timestamps,
  },
  (t) => [index('cycles_partner_opens_idx').on(t.partner_id, t.opens_on)],
);

/** The programs open for application in a cycle. */
export const cyclePrograms = pgTable(
  'cycle_programs',
  {
    cycle_id: uuid('cycle_id')
      .notNull()
      .references(() => cycles.id, { onDelete: 'cascade' }),
    program_id: uuid('program_id')
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.cycle_id, t.program_id] }), index('cycle_programs_program_idx').on(t.program_id)],
);

/**
 * The places a program offers in a cycle at a campus (issue 26): offers accepted or still open count
 * against them. No row: no limit set.
 */
export const places = pgTable(
  'places',
  {
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    cycle_id: uuid('cycle_id')
      .notNull()
      .references(() => cycles.id, { onDelete: 'cascade' }),
    program_id: uuid('program_id')
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    campus_id: uuid('campus_id')
      .notNull()
      .references(() => campuses.id, { onDelete: 'cascade' }),
    places: integer('places').notNull(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.cycle_id, t.program_id, t.campus_id] }),
    index('places_partner_idx').on(t.partner_id),
  ],
);

/**
 * An application form: ordered sections of ordered questions, stored as one validated document and
 * saved whole with a version (a stale save is refused). Attached to a cycle, optionally to one program.
 */
export const forms = pgTable(
  'forms',
  {
    id: id(),
    partner_id: partnerId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    cycle_id: uuid('cycle_id').references(() => cycles.id, { onDelete: 'set null' }),
    program_id: uuid('program_id').references(() => programs.id, { onDelete: 'set null' }),
    sections: jsonb('sections').$type<FormSection[]>().notNull(),
    version: integer('version').notNull().default(1),
    ...timestamps,
  },
  (t) => [index('forms_partner_idx').on(t.partner_id), index('forms_cycle_idx').on(t.cycle_id)],
);

/** Named groups of an institution's staff (spec section 3, teams); members list them in staff.team_ids. */
export const teams = pgTable(
  'teams',
  {
    id: id(),
    partner_id: partnerId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('teams_partner_name_unique').on(t.partner_id, sql`lower(${t.name})`)],
);

/**
 * An emailed invitation to join an institution's staff. Only a hash of the token is kept. Accepting
 * creates a verified staff account with the role, permissions and teams chosen here.
 */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: id(),
    partner_id: partnerId(),
    email: text('email').notNull(),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    role: text('role').notNull(),
    permissions: text('permissions')
      .array()
      .$type<StaffPermission[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
    team_ids: uuid('team_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    language: text('language').notNull().default('en'),
    token_hash: text('token_hash').notNull(),
    invited_by: uuid('invited_by').references(() => staff.id, { onDelete: 'set null' }),
    expires_at: moment('expires_at').notNull(),
    accepted_at: moment('accepted_at'),
    revoked_at: moment('revoked_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('staff_invitations_token_unique').on(t.token_hash),
    /** One waiting invitation per address and institution. */
    uniqueIndex('staff_invitations_waiting_unique')
      .on(t.partner_id, sql`lower(${t.email})`)
      .where(sql`${t.accepted_at} is null and ${t.revoked_at} is null`),
  ],
);

/**
 * Keys of the partner REST API (spec section 3, settings.api_keys). The key is shown once; only its
 * SHA-256 is kept (keys are long random strings, so a fast hash is enough and lookups stay cheap).
 */
export const partnerApiKeys = pgTable(
  'partner_api_keys',
  {
    id: id(),
    partner_id: partnerId(),
    name: text('name').notNull(),
    scopes: text('scopes').array().$type<ApiKeyScope[]>().notNull(),
    prefix: text('prefix').notNull(),
    key_hash: text('key_hash').notNull(),
    created_by: uuid('created_by').references(() => staff.id, { onDelete: 'set null' }),
    last_used_at: moment('last_used_at'),
    revoked_at: moment('revoked_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('partner_api_keys_hash_unique').on(t.key_hash),
    index('partner_api_keys_partner_idx').on(t.partner_id),
  ],
);
