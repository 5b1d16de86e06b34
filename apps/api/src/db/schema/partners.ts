import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { InstitutionType, StudyField, Region } from '@kaminuza/shared';
import { id, timestamps } from './columns.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * `f_unaccent` (migration 0004) is an immutable unaccent, so "Universite" finds "Université" and the
 * search column and indexes can use it.
 */
const searchDocument = sql`setweight(to_tsvector('simple'::regconfig, f_unaccent(coalesce("name", ''))), 'A') || setweight(to_tsvector('simple'::regconfig, f_unaccent(coalesce("address_city", ''))), 'B') || setweight(to_tsvector('simple'::regconfig, f_unaccent(coalesce("description", ''))), 'C')`;

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
    /** Staff choose when their profile is ready; students see only approved and published institutions. */
    published: boolean('published').notNull().default(false),
    /** The admin's last review: when, by whom, and the reason given with a rejection. */
    reviewed_at: timestamp('reviewed_at', { withTimezone: true, mode: 'string' }),
    reviewed_by: uuid('reviewed_by'),
    review_reason: text('review_reason'),
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
    /** Full-text document of name, city and description, kept by PostgreSQL. */
    search_vector: tsvector('search_vector').generatedAlwaysAs(searchDocument),
    /**
     * The name lower-cased and accent-folded, kept by PostgreSQL for the typo-tolerant trigram
     * search: matching rows are re-checked against this column instead of folding every name again.
     */
    search_name: text('search_name').generatedAlwaysAs(sql`f_unaccent(lower("name"))`),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('partners_slug_unique').on(t.slug),
    index('partners_status_name_idx').on(t.status, t.name),
    index('partners_country_idx').on(t.address_country),
    index('partners_search_idx').using('gin', t.search_vector),
    /** GiST, not GIN: it hands out names closest first (`<->>`), so a similar-names search stops early. */
    index('partners_search_name_trgm_idx').using('gist', sql`${t.search_name} gist_trgm_ops`),
    /** The city folded as the name is, closest first too: a misspelt city ("adis abeba") still finds it. */
    index('partners_search_city_trgm_idx').using('gist', sql`f_unaccent(lower(${t.address_city})) gist_trgm_ops`),
    /** What students browse: listed institutions in name order. */
    index('partners_listed_name_idx')
      .on(t.name)
      .where(sql`${t.status} = 'approved' and ${t.published}`),
    /**
     * Counting a filtered catalogue reads only this narrow index (an index-only scan) instead of the
     * wide rows with their descriptions and search documents; the id last, for the deadline filter's
     * "has a current cycle" membership test (ADR 024), and the country.
     */
    index('partners_listed_filters_idx')
      .on(
        t.institution_type,
        t.region,
        t.size,
        t.setting,
        t.tuition_usd,
        t.application_deadline,
        t.fields,
        t.address_country,
        t.id,
      )
      .where(sql`${t.status} = 'approved' and ${t.published}`),
  ],
);

/**
 * An institution's settings (spec section 3), one row per partner (its API keys have a table), created with the partner and its
 * defaults. The nested shapes are validated by the shared schemas before they are written.
 */
export const partnerSettings = pgTable('partner_settings', {
  partner_id: uuid('partner_id')
    .primaryKey()
    .references(() => partners.id, { onDelete: 'cascade' }),
  general: jsonb('general').$type<Record<string, unknown>>().notNull(),
  theme: jsonb('theme').$type<Record<string, unknown>>().notNull(),
  admissions: jsonb('admissions').$type<Record<string, unknown>>().notNull(),
  ...timestamps,
});

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
    /** The student who entered the school by hand (onboarding's manual entry); null for listed schools. */
    created_by: uuid('created_by'),
    ...timestamps,
  },
  (t) => [
    index('schools_country_name_idx').on(t.country, t.name),
    index('schools_name_trgm_idx').using('gin', sql`f_unaccent(lower(${t.name})) gin_trgm_ops`),
  ],
);
