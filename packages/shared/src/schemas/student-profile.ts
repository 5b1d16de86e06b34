import { z } from 'zod';
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { DEFAULTS, LANGUAGES } from '../constants.ts';
import { VALIDATION_MESSAGES as M } from '../messages.ts';
import { ExamSittingSchema } from '../exams/sittings.ts';
import {
  CitySchema,
  DateOfBirthSchema,
  EDUCATION_LEVELS,
  FirstNameSchema,
  GENDERS,
  LastNameSchema,
  MAX_LENGTHS,
  PreferredNameSchema,
  required,
} from './auth.ts';

/*
 * The student profile: one schema per onboarding step (spec section 2) and the profile edits, built from
 * the same field rules so onboarding and the profile screen accept exactly the same values. This module
 * carries libphonenumber's metadata, so only the onboarding and profile screens import it.
 */

/** Maximum lengths the spec leaves open (section 5), for the fields not covered by MAX_LENGTHS. */
export const PROFILE_MAX_LENGTHS = {
  postal_code: 20,
  school_name: 150,
  gpa: 10,
  major: 100,
  degree_type: 100,
} as const;
export const ADDRESS_MIN_LENGTH = 5;
export const GRADUATION_YEAR_MIN = 1950;
/** Expected graduation up to this many years ahead. */
export const GRADUATION_YEARS_AHEAD = 10;

export const ONBOARDING_STEPS = 7;
export const LAST_ONBOARDING_STEP = ONBOARDING_STEPS - 1;

export const SCHOOL_LEVELS = ['primary', 'secondary', 'undergraduate', 'graduate'] as const;
export type SchoolLevel = (typeof SCHOOL_LEVELS)[number];

const isCountryCode = (code: string) => /^[A-Z]{2}$/.test(code) && isSupportedCountry(code);

function country(requiredMessage: string) {
  return required(requiredMessage).refine(isCountryCode, M.country_invalid);
}

export const ResidenceCountrySchema = country(M.country_required);
export const NationalitySchema = country(M.nationality_required);

export const AddressSchema = required(M.address_required)
  .min(ADDRESS_MIN_LENGTH, M.address_too_short)
  .max(MAX_LENGTHS.address, M.address_too_long);

export const PostalCodeSchema = z.string().trim().max(PROFILE_MAX_LENGTHS.postal_code, M.postal_code_too_long);

const optionalText = (max: number, message: string) => z.string().trim().max(max, message);

/** The phone number and the country it is read in (unless it starts with +), stored in E.164 form. */
const PhoneFields = {
  phone_country: ResidenceCountrySchema,
  phone: required(M.phone_required),
};

function checkPhone(value: { phone_country?: string; phone?: string }, ctx: z.RefinementCtx) {
  if (!value.phone || !value.phone_country || !isCountryCode(value.phone_country)) return;
  const parsed = parsePhoneNumberFromString(value.phone, value.phone_country as CountryCode);
  if (!parsed?.isValid()) ctx.addIssue({ code: 'custom', path: ['phone'], message: M.phone_invalid });
}

/** The E.164 form of a number already checked by the schema. */
export function normalizePhone(phone: string, phoneCountry: string): string {
  return parsePhoneNumberFromString(phone, phoneCountry as CountryCode)?.number ?? phone;
}

/** The country a stored E.164 number belongs to, for the phone form's country picker. */
export function phoneCountryOf(phone: string | null): string | null {
  if (!phone) return null;
  return parsePhoneNumberFromString(phone)?.country ?? null;
}

export const GenderSchema = z.enum(GENDERS, M.gender_required);
export const EducationLevelSchema = z.enum(EDUCATION_LEVELS, M.education_level_required);
export const LanguageSchema = z.enum(LANGUAGES, M.language_required);

/** A school picked from the search (`id`) or entered by hand; either way name, city and country. */
export const SchoolChoiceSchema = z.object({
  id: z.uuid().nullable().default(null),
  name: required(M.school_required).max(PROFILE_MAX_LENGTHS.school_name, M.school_name_too_long),
  city: required(M.school_required).max(MAX_LENGTHS.city, M.city_too_long),
  state_province: z.string().trim().max(MAX_LENGTHS.city, M.city_too_long).default(''),
  country: country(M.school_required),
  levels_offered: z.array(z.enum(SCHOOL_LEVELS)).max(SCHOOL_LEVELS.length).default([]),
});
export type SchoolChoice = z.infer<typeof SchoolChoiceSchema>;
export type SchoolChoiceInput = z.input<typeof SchoolChoiceSchema>;

const currentYear = () => new Date().getUTCFullYear();

const yearSchema = (message: string) =>
  z.coerce
    .number({ error: message })
    .int(message)
    .refine((year) => year >= GRADUATION_YEAR_MIN && year <= currentYear() + GRADUATION_YEARS_AHEAD, message);

/* ------------------------------------------------------------------ onboarding steps */

export const OnboardingStep0Schema = z.object({ language: LanguageSchema });
export const OnboardingStep1Schema = z.object({
  first_name: FirstNameSchema,
  last_name: LastNameSchema,
  preferred_name: PreferredNameSchema.default(''),
});
export const OnboardingStep2Schema = z.object({
  date_of_birth: DateOfBirthSchema,
  gender: GenderSchema,
  nationality: NationalitySchema,
});
export const OnboardingStep3Schema = z.object(PhoneFields).superRefine(checkPhone);
export const OnboardingStep4Schema = z.object({
  country_of_residence: ResidenceCountrySchema,
  address: AddressSchema,
  city: CitySchema,
  postal_code: PostalCodeSchema.default(''),
});
export const OnboardingStep5Schema = z.object({
  education_level: EducationLevelSchema,
  school: SchoolChoiceSchema,
});
/** The picture is uploaded on its own (documents); finishing this step only records the progress. */
export const OnboardingStep6Schema = z.object({});

export const ONBOARDING_STEP_SCHEMAS = [
  OnboardingStep0Schema,
  OnboardingStep1Schema,
  OnboardingStep2Schema,
  OnboardingStep3Schema,
  OnboardingStep4Schema,
  OnboardingStep5Schema,
  OnboardingStep6Schema,
] as const;

export type OnboardingStep0 = z.infer<typeof OnboardingStep0Schema>;
export type OnboardingStep1 = z.infer<typeof OnboardingStep1Schema>;
export type OnboardingStep2 = z.infer<typeof OnboardingStep2Schema>;
export type OnboardingStep3 = z.infer<typeof OnboardingStep3Schema>;
export type OnboardingStep4 = z.infer<typeof OnboardingStep4Schema>;
export type OnboardingStep5 = z.infer<typeof OnboardingStep5Schema>;
export type OnboardingStepValues =
  | OnboardingStep0
  | OnboardingStep1
  | OnboardingStep2
  | OnboardingStep3
  | OnboardingStep4
  | OnboardingStep5
  | Record<string, never>;

export const OnboardingStepParamsSchema = z.object({
  step: z.coerce.number().int().min(0).max(LAST_ONBOARDING_STEP),
});

/* ------------------------------------------------------------------ profile */

export const PersonalProfileSchema = z
  .object({
    first_name: FirstNameSchema,
    last_name: LastNameSchema,
    preferred_name: PreferredNameSchema.default(''),
    ...PhoneFields,
    date_of_birth: DateOfBirthSchema,
    gender: GenderSchema,
    nationality: NationalitySchema,
    address: AddressSchema,
    city: CitySchema,
    country: ResidenceCountrySchema,
    country_of_residence: ResidenceCountrySchema,
    postal_code: PostalCodeSchema.default(''),
  })
  .superRefine(checkPhone);
export type PersonalProfile = z.infer<typeof PersonalProfileSchema>;
export type PersonalProfileInput = z.input<typeof PersonalProfileSchema>;

export const EducationProfileSchema = z.object({
  education_level: EducationLevelSchema,
  school: SchoolChoiceSchema,
  graduation_year: z.union([z.literal('').transform(() => null), z.null(), yearSchema(M.graduation_year_invalid)]),
  gpa: optionalText(PROFILE_MAX_LENGTHS.gpa, M.gpa_too_long).default(''),
  major: optionalText(PROFILE_MAX_LENGTHS.major, M.major_too_long).default(''),
  degree_type: optionalText(PROFILE_MAX_LENGTHS.degree_type, M.degree_type_too_long).default(''),
});
export type EducationProfile = z.infer<typeof EducationProfileSchema>;
export type EducationProfileInput = z.input<typeof EducationProfileSchema>;

/** A profile edit saves one tab: Personal or Education. */
export const ProfileUpdateSchema = z.discriminatedUnion('section', [
  z.object({ section: z.literal('personal'), values: PersonalProfileSchema }),
  z.object({ section: z.literal('education'), values: EducationProfileSchema }),
]);
export type ProfileUpdate = z.infer<typeof ProfileUpdateSchema>;

/* ------------------------------------------------------------------ answers */

export const StudentProfileSchema = z.object({
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  preferred_name: z.string().nullable(),
  phone: z.string().nullable(),
  language: z.enum(LANGUAGES),
  date_of_birth: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  nationality: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  country_of_residence: z.string().nullable(),
  postal_code: z.string().nullable(),
  education_level: z.enum(EDUCATION_LEVELS).nullable(),
  school: z
    .object({
      id: z.string().nullable(),
      name: z.string(),
      city: z.string().nullable(),
      state_province: z.string().nullable(),
      country: z.string().nullable(),
      levels_offered: z.array(z.enum(SCHOOL_LEVELS)),
    })
    .nullable(),
  graduation_year: z.number().int().nullable(),
  gpa: z.string().nullable(),
  major: z.string().nullable(),
  degree_type: z.string().nullable(),
  /** National examination sittings, latest first: saved one at a time, not with the Education tab. */
  exam_sittings: z.array(ExamSittingSchema),
  /** `profilePictureUrl(file id)` when the student has a picture: a new picture gets a new address. */
  profile_picture: z.string().nullable(),
  is_complete: z.boolean(),
  profile_completion: z.number().int().min(0).max(100),
  onboarding_step: z.number().int().min(0).max(LAST_ONBOARDING_STEP),
});
export type StudentProfile = z.infer<typeof StudentProfileSchema>;

export const OnboardingStateSchema = z.object({
  step: z.number().int().min(0).max(LAST_ONBOARDING_STEP),
  is_complete: z.boolean(),
  profile: StudentProfileSchema,
});
export type OnboardingState = z.infer<typeof OnboardingStateSchema>;

/* ------------------------------------------------------------------ completion */

/** The fields that count toward profile completion, beyond the 25 every new profile starts with. */
export const COMPLETION_FIELDS = [
  'first_name',
  'last_name',
  'phone',
  'date_of_birth',
  'gender',
  'nationality',
  'address',
  'city',
  'country_of_residence',
  'education_level',
  'school',
  'graduation_year',
  'exam_sittings',
  'profile_picture',
] as const satisfies readonly (keyof StudentProfile)[];
/** Points the filled fields can add, and the documents (five types, spec section 3). */
const FIELDS_SHARE = 50;
const DOCUMENTS_SHARE = 25;
const DOCUMENT_TYPE_COUNT = 5;

export type CompletionField = (typeof COMPLETION_FIELDS)[number];
/** Completion counts whether there are sittings, not what they say. */
type CompletionInput = Omit<Pick<StudentProfile, CompletionField>, 'exam_sittings'> & {
  exam_sittings: readonly unknown[];
};

function filled(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** The fields that still keep the profile from its full share, in COMPLETION_FIELDS order. */
export function missingCompletionFields(profile: CompletionInput): CompletionField[] {
  return COMPLETION_FIELDS.filter((field) => !filled(profile[field]));
}

/**
 * Profile completion in percent: 25 to start with (spec section 9), up to 50 more for the filled
 * fields and 25 more for the documents uploaded (one per type).
 */
export function profileCompletion(profile: CompletionInput, documentCount: number): number {
  const done = COMPLETION_FIELDS.length - missingCompletionFields(profile).length;
  const documents = Math.min(Math.max(documentCount, 0), DOCUMENT_TYPE_COUNT);
  const score =
    DEFAULTS.profileCompletion +
    (FIELDS_SHARE * done) / COMPLETION_FIELDS.length +
    (DOCUMENTS_SHARE * documents) / DOCUMENT_TYPE_COUNT;
  return Math.min(100, Math.round(score));
}

/* ------------------------------------------------------------------ schools and cities */

export const SchoolSearchQuerySchema = z.object({
  q: z.string().trim().max(100).default(''),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .refine((code) => code === '' || isCountryCode(code), M.country_invalid)
    .default(''),
  page: z.coerce.number().int().min(1).max(1000).default(1),
  limit: z.coerce.number().int().min(1).max(20).default(20),
});

export const SchoolSchema = z.object({
  id: z.string(),
  name: z.string(),
  city: z.string(),
  state_province: z.string().nullable(),
  country: z.string(),
  levels_offered: z.array(z.enum(SCHOOL_LEVELS)),
});
export type School = z.infer<typeof SchoolSchema>;

export const SchoolPageSchema = z.object({
  items: z.array(SchoolSchema),
  page: z.number().int(),
  has_more: z.boolean(),
});
export type SchoolPage = z.infer<typeof SchoolPageSchema>;

export const NewSchoolSchema = SchoolChoiceSchema.omit({ id: true });
export type NewSchool = z.infer<typeof NewSchoolSchema>;

export const CitySearchQuerySchema = z.object({
  q: z.string().trim().max(100).default(''),
  country: z.string().trim().toUpperCase().max(2).default(''),
  limit: z.coerce.number().int().min(1).max(20).default(10),
});

/** What a suggested place is: a town (GeoNames), or one of Rwanda's districts or sectors. */
export const PLACE_KINDS = ['town', 'district', 'sector'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

export const CitySuggestionSchema = z.object({
  name: z.string(),
  country: z.string(),
  /** GeoNames' first-level administrative code of the country (e.g. "15"). */
  admin_region: z.string(),
  /** Null for districts and sectors, which the data gives no point for. */
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  kind: z.enum(PLACE_KINDS),
  /** A sector's district; null otherwise. */
  district: z.string().nullable(),
  /** The ISO 3166-2 code of the province, where the data knows it (Rwanda); null otherwise. */
  province: z.string().nullable(),
});
export type CitySuggestion = z.infer<typeof CitySuggestionSchema>;
