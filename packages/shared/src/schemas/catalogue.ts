import { z } from 'zod';

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
