import { z } from 'zod';
import { isCountryCode } from '../country-regions.ts';
import { VALIDATION_MESSAGES } from '../messages.ts';
import { PartnerThemeSchema } from './partner-settings.ts';

/** University listing vocabularies (spec section 3). */
export const INSTITUTION_TYPES = ['public', 'private', 'international', 'community_college', 'online'] as const;
export const STUDY_FIELDS = [
  'technology',
  'business',
  'medicine',
  'engineering',
  'arts_humanities',
  'natural_sciences',
  'social_sciences',
  'law',
  'education',
] as const;
export const REGIONS = ['north_america', 'europe', 'asia', 'africa', 'south_america', 'oceania'] as const;
export const INSTITUTION_SIZES = ['small', 'medium', 'large'] as const;
export const CAMPUS_SETTINGS = ['urban', 'suburban', 'rural'] as const;
export const PROGRAM_LEVELS = ['undergraduate', 'graduate'] as const;
export const PARTNER_STATUSES = ['pending', 'approved', 'rejected', 'suspended'] as const;

export const InstitutionTypeSchema = z.enum(INSTITUTION_TYPES);
export const StudyFieldSchema = z.enum(STUDY_FIELDS);
export const RegionSchema = z.enum(REGIONS);
export const InstitutionSizeSchema = z.enum(INSTITUTION_SIZES);
export const CampusSettingSchema = z.enum(CAMPUS_SETTINGS);
export const ProgramLevelSchema = z.enum(PROGRAM_LEVELS);
export const PartnerStatusSchema = z.enum(PARTNER_STATUSES);

export type InstitutionType = z.infer<typeof InstitutionTypeSchema>;
export type StudyField = z.infer<typeof StudyFieldSchema>;
export type Region = z.infer<typeof RegionSchema>;

/** ISO 3166-1 alpha-2, upper case. */
export const CountryCodeSchema = z.string().regex(/^[A-Z]{2}$/, 'Country: invalid');

export const PartnerContactSchema = z.object({
  email: z.email().nullable(),
  phone: z.string().nullable(),
  website: z.url().nullable(),
});

export const PartnerAddressSchema = z.object({
  street: z.string().nullable(),
  city: z.string(),
  country: CountryCodeSchema,
  postal_code: z.string().nullable(),
});

export const PartnerImagesSchema = z.object({
  logo_url: z.string().nullable(),
  gallery_images: z.array(z.string()),
});

/** Money amounts are whole US dollars per year. Rates are percentages 0–100. */
export const UniversityListingSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  institution_type: InstitutionTypeSchema,
  fields: z.array(StudyFieldSchema),
  region: RegionSchema,
  address: PartnerAddressSchema,
  contact: PartnerContactSchema,
  images: PartnerImagesSchema,
  year_established: z.int(),
  tuition_usd: z.int().nonnegative(),
  tuition_range: z.object({ min_usd: z.int().nonnegative(), max_usd: z.int().nonnegative() }),
  avg_cost_after_aid_usd: z.int().nonnegative(),
  graduation_rate: z.number().min(0).max(100),
  acceptance_rate: z.number().min(0).max(100),
  sat_range: z.object({ min: z.int().min(400).max(1600), max: z.int().min(400).max(1600) }).nullable(),
  student_faculty_ratio: z.number().nonnegative(),
  total_enrollment: z.int().nonnegative(),
  size: InstitutionSizeSchema,
  setting: CampusSettingSchema,
  application_deadline: z.iso.date().nullable(),
  programs: z.array(ProgramLevelSchema),
  program_count: z.int().nonnegative(),
  accreditation_body: z.string().nullable(),
  accreditation_number: z.string().nullable(),
  is_demo: z.boolean(),
});
export type UniversityListing = z.infer<typeof UniversityListingSchema>;

/** What the landing page shows of the catalogue. */
export const CatalogueSummarySchema = z.object({
  universities: z.int().nonnegative(),
  countries: z.int().nonnegative(),
  featured: z.array(
    UniversityListingSchema.pick({
      id: true,
      slug: true,
      name: true,
      institution_type: true,
      address: true,
      images: true,
    }),
  ),
});
export type CatalogueSummary = z.infer<typeof CatalogueSummarySchema>;

/** Largest page the catalogue answers. */
export const CATALOGUE_PAGE_SIZE_MAX = 50;
export const CATALOGUE_PAGE_SIZE_DEFAULT = 20;
export const CATALOGUE_QUERY_MAX_LENGTH = 100;
export const CATALOGUE_SORTS = ['relevance', 'name', 'tuition', 'deadline'] as const;
/**
 * When no word of a search matches, the search shows the names most similar to it (typos, missing
 * accents), at most this many: they are suggestions, closest first, not every name sharing a syllable.
 */
export const SIMILAR_NAMES_MAX = 50;
/** `deadline=open`: the application deadline is today or later. */
export const DEADLINE_OPEN = 'open';

/**
 * A filter that may be given several times (`type=public&type=private`) or comma-separated
 * (`type=public,private`); either way it arrives as a list of distinct values.
 */
function multi<T extends readonly [string, ...string[]]>(values: T, label: string) {
  return z.preprocess(
    (input) => {
      if (input === undefined || input === '') return undefined;
      const list = (Array.isArray(input) ? input : [input]).flatMap((v) =>
        typeof v === 'string' ? v.split(',') : [v],
      );
      return [...new Set(list.map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== ''))];
    },
    z.array(z.enum(values, { error: `${label}: must be one of ${values.join(', ')}` })).optional(),
  );
}

/** Countries by ISO 3166-1 alpha-2 code, as `multi` reads them; lower case is read as upper case. */
function countries() {
  return z.preprocess(
    (input) => {
      if (input === undefined || input === '') return undefined;
      const list = (Array.isArray(input) ? input : [input]).flatMap((v) =>
        typeof v === 'string' ? v.split(',') : [v],
      );
      return [
        ...new Set(list.map((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v)).filter((v) => v !== '')),
      ];
    },
    z
      .array(z.string(VALIDATION_MESSAGES.country_invalid).refine(isCountryCode, VALIDATION_MESSAGES.country_invalid))
      .optional(),
  );
}

function wholeNumber(label: string, { min, max }: { min: number; max?: number }) {
  const base = z.coerce
    .number({ error: `${label}: must be a whole number` })
    .int(`${label}: must be a whole number`)
    .min(min, `${label}: must be at least ${min}`);
  return max === undefined ? base : base.max(max, `${label}: must be at most ${max}`);
}

/**
 * The Explore Universities query (GET /catalogue/universities). Multi-valued filters match any of
 * their values; different filters all apply. Tuition bounds are US dollars per year on `tuition_usd`.
 * `deadline` is `open` (the deadline is today or later) or a date YYYY-MM-DD (the deadline falls
 * between today and that date, both included); institutions without a deadline match neither.
 * `saved=true` keeps the caller's own list only. Sort defaults to relevance with a search, name without.
 * A search matches words (prefixes, accents ignored) of the name, city and description, and a word naming
 * a country (in English, French or Kinyarwanda, or its code alone) matches that country's institutions;
 * when nothing matches, the closest names and cities by trigram similarity answer instead, at most
 * SIMILAR_NAMES_MAX.
 */
export const CatalogueQuerySchema = z
  .object({
    q: z
      .string()
      .trim()
      .max(CATALOGUE_QUERY_MAX_LENGTH, `Search: at most ${CATALOGUE_QUERY_MAX_LENGTH} characters`)
      .optional()
      .transform((v) => (v ? v : undefined)),
    type: multi(INSTITUTION_TYPES, 'Type'),
    field: multi(STUDY_FIELDS, 'Field'),
    region: multi(REGIONS, 'Region'),
    country: countries(),
    size: multi(INSTITUTION_SIZES, 'Size'),
    setting: multi(CAMPUS_SETTINGS, 'Setting'),
    tuition_min: wholeNumber('Minimum tuition', { min: 0 }).optional(),
    tuition_max: wholeNumber('Maximum tuition', { min: 0 }).optional(),
    deadline: z
      .string()
      .refine((v) => v === DEADLINE_OPEN || z.iso.date().safeParse(v).success, {
        error: `Deadline: must be "${DEADLINE_OPEN}" or a date YYYY-MM-DD`,
      })
      .optional(),
    saved: z
      .enum(['true', 'false'], { error: 'Saved: must be true or false' })
      .optional()
      .transform((v) => v === 'true'),
    /** Only universities with a program whose entry requirements the student's examination results meet. */
    eligible: z
      .enum(['true', 'false'], { error: 'Eligible: must be true or false' })
      .optional()
      .transform((v) => v === 'true'),
    sort: z.enum(CATALOGUE_SORTS, { error: `Sort: must be one of ${CATALOGUE_SORTS.join(', ')}` }).optional(),
    page: wholeNumber('Page', { min: 1, max: 10_000 }).default(1),
    page_size: wholeNumber('Page size', { min: 1, max: CATALOGUE_PAGE_SIZE_MAX }).default(CATALOGUE_PAGE_SIZE_DEFAULT),
  })
  .refine((v) => v.tuition_min === undefined || v.tuition_max === undefined || v.tuition_min <= v.tuition_max, {
    message: 'Tuition: the minimum must not exceed the maximum',
    path: ['tuition_min'],
  });
export type CatalogueQuery = z.infer<typeof CatalogueQuerySchema>;
export type CatalogueQueryInput = z.input<typeof CatalogueQuerySchema>;

/** What a result card shows, with whether the caller has the university on their list. */
export const UniversityCardSchema = UniversityListingSchema.pick({
  id: true,
  slug: true,
  name: true,
  institution_type: true,
  region: true,
  address: true,
  images: true,
  tuition_usd: true,
  acceptance_rate: true,
  application_deadline: true,
  size: true,
  setting: true,
  fields: true,
}).extend({
  saved: z.boolean(),
  /** The institution takes applications on the platform today: its current cycle is open and has a form. */
  accepting_applications: z.boolean(),
});
export type UniversityCard = z.infer<typeof UniversityCardSchema>;

export const UniversityPageSchema = z.object({
  items: z.array(UniversityCardSchema),
  total: z.int().nonnegative(),
  page: z.int().positive(),
  page_size: z.int().positive(),
});
export type UniversityPage = z.infer<typeof UniversityPageSchema>;

/**
 * A university's details page: the listing, the caller's saved flag, the application fee when set, and
 * the institution's theme (null when it has none that reads as one).
 */
export const UniversityDetailSchema = UniversityListingSchema.extend({
  saved: z.boolean(),
  accepting_applications: z.boolean(),
  application_fee: z.object({ amount: z.number().nonnegative(), currency: z.string() }).nullable(),
  theme: PartnerThemeSchema.nullable(),
});
export type UniversityDetail = z.infer<typeof UniversityDetailSchema>;

/** Any text: an id that is not a listed university's (malformed ones included) answers 404. */
export const PartnerIdParamsSchema = z.object({ partnerId: z.string() });

export const SavedUniversitySchema = z.object({ partner_id: z.uuid(), saved: z.boolean() });
export type SavedUniversity = z.infer<typeof SavedUniversitySchema>;
