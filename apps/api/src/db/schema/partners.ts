import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, real, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { InstitutionType, StudyField, Region } from '@kaminuza/shared';
import { id, timestamps } from './columns.ts';

/**
 * Partner institutions. The spec's nested shapes (contact, address, images) are flat columns here so
 * the catalogue can filter and index them; the API nests them again.
 */
export const partners = pgTable(
  'partners',
  {
    id: id(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull().default('university'),
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'suspended'] })
      .notNull()
      .default('pending'),
    description: text('description').notNull().default(''),
    contact_email: text('contact_email'),
    contact_phone: text('contact_phone'),
    contact_website: text('contact_website'),
    address_street: text('address_street'),
    address_city: text('address_city').notNull(),
    address_country: text('address_country').notNull(),
    address_postal_code: text('address_postal_code'),
    logo_url: text('logo_url'),
    gallery_images: text('gallery_images')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Free-form counters shown on the profile (applications received, etc.). */
    stats: jsonb('stats').$type<Record<string, number>>().notNull().default({}),
    institution_type: text('institution_type').$type<InstitutionType>().notNull(),
    year_established: integer('year_established').notNull(),
    accreditation_body: text('accreditation_body'),
    accreditation_number: text('accreditation_number'),
    program_count: integer('program_count').notNull().default(0),
    region: text('region').$type<Region>().notNull(),
    fields: text('fields')
      .array()
      .$type<StudyField[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
    program_levels: text('program_levels')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    tuition_usd: integer('tuition_usd').notNull().default(0),
    tuition_min_usd: integer('tuition_min_usd').notNull().default(0),
    tuition_max_usd: integer('tuition_max_usd').notNull().default(0),
    avg_cost_after_aid_usd: integer('avg_cost_after_aid_usd').notNull().default(0),
    graduation_rate: real('graduation_rate').notNull().default(0),
    acceptance_rate: real('acceptance_rate').notNull().default(0),
    sat_min: integer('sat_min'),
    sat_max: integer('sat_max'),
    student_faculty_ratio: real('student_faculty_ratio').notNull().default(0),
    total_enrollment: integer('total_enrollment').notNull().default(0),
    size: text('size', { enum: ['small', 'medium', 'large'] }).notNull(),
    setting: text('setting', { enum: ['urban', 'suburban', 'rural'] }).notNull(),
    application_deadline: date('application_deadline', { mode: 'string' }),
    /** Demo institutions are seeded sample data, shown as such. */
    is_demo: boolean('is_demo').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('partners_slug_unique').on(t.slug),
    index('partners_status_name_idx').on(t.status, t.name),
    index('partners_country_idx').on(t.address_country),
  ],
);

export const schools = pgTable(
  'schools',
  {
    id: id(),
    name: text('name').notNull(),
    city: text('city').notNull(),
    state_province: text('state_province'),
    country: text('country').notNull(),
    levels_offered: text('levels_offered')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    ...timestamps,
  },
  (t) => [index('schools_country_name_idx').on(t.country, t.name)],
);
