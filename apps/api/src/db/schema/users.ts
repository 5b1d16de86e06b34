import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex, uuid, date, timestamp } from 'drizzle-orm/pg-core';
import { id, timestamps } from './columns.ts';
import { partners, schools } from './partners.ts';

/**
 * Every account (spec section 3). Also better-auth's user model: `name` and `image` are its fields,
 * `contact_verified` its emailVerified. Emails are stored lower-case.
 */
export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    image: text('image'),
    /** student, staff or admin */
    type: text('type', { enum: ['student', 'staff', 'admin'] }).notNull(),
    partner_id: uuid('partner_id').references(() => partners.id, { onDelete: 'set null' }),
    contact_verified: boolean('contact_verified').notNull().default(false),
    terms_accepted: boolean('terms_accepted').notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_unique').on(sql`lower(${t.email})`), index('users_partner_idx').on(t.partner_id)],
);

export const students = pgTable(
  'students',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    first_name: text('first_name'),
    last_name: text('last_name'),
    preferred_name: text('preferred_name'),
    phone: text('phone'),
    language: text('language').notNull().default('en'),
    currency: text('currency').notNull().default('USD'),
    timezone: text('timezone').notNull().default('UTC'),
    profile_completion: integer('profile_completion').notNull().default(25),
    last_activity: timestamp('last_activity', { withTimezone: true, mode: 'string' }),
    date_of_birth: date('date_of_birth', { mode: 'string' }),
    gender: text('gender'),
    city: text('city'),
    country: text('country'),
    education_level: text('education_level'),
    is_complete: boolean('is_complete').notNull().default(false),
    profile_picture: text('profile_picture'),
    nationality: text('nationality'),
    country_of_residence: text('country_of_residence'),
    last_school: text('last_school'),
    /** The school picked from `schools` (search or manual entry); last_school keeps its name. */
    last_school_id: uuid('last_school_id').references(() => schools.id, { onDelete: 'set null' }),
    school_city: text('school_city'),
    school_country: text('school_country'),
    address: text('address'),
    postal_code: text('postal_code'),
    graduation_year: integer('graduation_year'),
    gpa: text('gpa'),
    major: text('major'),
    degree_type: text('degree_type'),
    /** The onboarding step (0–6) to resume at; saved after each step. */
    onboarding_step: integer('onboarding_step').notNull().default(0),
    current_applications: uuid('current_applications')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    completed_applications: uuid('completed_applications')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    ...timestamps,
  },
  (t) => [uniqueIndex('students_user_unique').on(t.user_id)],
);

/** The staff record of spec section 3: a `staff` user's profile at their institution. */
export const staff = pgTable(
  'staff',
  {
    id: id(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    phone: text('phone'),
    /** The position and work address given at institution sign-up (role below is the spec's Admin or Staff). */
    job_title: text('job_title'),
    work_email: text('work_email'),
    language: text('language').notNull().default('en'),
    currency: text('currency').notNull().default('USD'),
    timezone: text('timezone').notNull().default('UTC'),
    /** The job title: Admin for the first account of a new institution, Staff for later ones. */
    role: text('role').notNull().default('Staff'),
    permissions: text('permissions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    active: boolean('active').notNull().default(true),
    team_ids: uuid('team_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    primary_contact: boolean('primary_contact').notNull().default(false),
    /**
     * A person joining an existing institution waits for that institution to approve them; the first
     * account of a new institution is approved with it.
     */
    approval_status: text('approval_status', { enum: ['pending', 'approved', 'declined'] })
      .notNull()
      .default('approved'),
    profile_picture: text('profile_picture'),
    ...timestamps,
  },
  (t) => [uniqueIndex('staff_user_unique').on(t.user_id), index('staff_partner_idx').on(t.partner_id)],
);
