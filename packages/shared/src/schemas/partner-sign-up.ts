import { z } from 'zod';
import { isSupportedCountry, isValidPhoneNumber, type CountryCode } from 'libphonenumber-js/min';
import { LANGUAGES } from '../constants.ts';
import { PARTNER_MESSAGES as P, VALIDATION_MESSAGES as M } from '../messages.ts';
import { CitySchema, EmailSchema, FirstNameSchema, LastNameSchema, PasswordSchema, required } from './auth.ts';
import { INSTITUTION_TYPES } from './catalogue.ts';
import { isWebAddress } from './partner-profile.ts';
import { CountrySchema } from './sign-up.ts';

/** Form fields left empty arrive as '' (or NaN from a number input): they mean "not given". */
const blankToUndefined = (value: unknown) =>
  value === '' || value === null || (typeof value === 'number' && Number.isNaN(value)) ? undefined : value;

export const INSTITUTION_NAME_MAX_LENGTH = 200;
export const YEAR_ESTABLISHED_MIN = 1000;

export const InstitutionNameSchema = required(P.institution_name_required).max(
  INSTITUTION_NAME_MAX_LENGTH,
  P.institution_name_too_long,
);

/** A founding year: not before 1000 and not in the future. */
export const YearEstablishedSchema = z.coerce
  .number({ error: P.year_established_invalid })
  .int(P.year_established_invalid)
  .min(YEAR_ESTABLISHED_MIN, P.year_established_invalid)
  .refine((year) => year <= new Date().getUTCFullYear(), P.year_established_invalid);

/** An optional http(s) address; '' means none. */
export const OptionalWebsiteSchema = z
  .string()
  .trim()
  .max(500, P.text_too_long)
  .refine((value) => value === '' || isWebAddress(value), P.website_invalid)
  .default('');

const optionalText = (max: number) => z.string().trim().max(max, P.text_too_long).default('');

/**
 * Institution sign-up (spec section 5). With `existing_institution_id` the person asks to join that
 * approved institution, and the institution's own fields (name, type, year, city, country) are not asked.
 */
export const PartnerSignUpSchema = z
  .object({
    email: EmailSchema,
    password: PasswordSchema,
    existing_institution_id: z.preprocess(blankToUndefined, z.uuid(P.institution_id_invalid).optional()),
    institution_name: z.string().trim().max(INSTITUTION_NAME_MAX_LENGTH, P.institution_name_too_long).default(''),
    institution_type: z.preprocess(blankToUndefined, z.enum(INSTITUTION_TYPES, P.institution_type_required).optional()),
    year_established: z.preprocess(blankToUndefined, YearEstablishedSchema.optional()),
    contact_first_name: FirstNameSchema,
    contact_last_name: LastNameSchema,
    job_title: required(P.job_title_required).max(100, P.job_title_too_long),
    work_email: EmailSchema,
    phone_country: CountrySchema,
    phone: required(M.phone_required),
    city: z.string().trim().default(''),
    country: z.string().trim().default(''),
    accept_terms: z.literal(true, M.terms_required),
    website: OptionalWebsiteSchema,
    accreditation_body: optionalText(200),
    accreditation_number: optionalText(100),
    program_count: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: P.number_invalid })
        .int(P.number_invalid)
        .min(0, P.number_invalid)
        .max(100_000, P.number_invalid)
        .optional(),
    ),
    language: z.enum(LANGUAGES).default('en'),
  })
  .superRefine(
    (value, ctx) => {
      // The number is read in the chosen phone country unless it starts with +.
      const country = value.phone_country;
      if (value.phone && typeof country === 'string' && isSupportedCountry(country)) {
        if (!isValidPhoneNumber(value.phone, country as CountryCode)) {
          ctx.addIssue({ code: 'custom', path: ['phone'], message: M.phone_invalid });
        }
      }
      if (value.existing_institution_id) return;
      const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (!value.institution_name) issue('institution_name', P.institution_name_required);
      if (!value.institution_type) issue('institution_type', P.institution_type_required);
      if (value.year_established === undefined) issue('year_established', P.year_established_invalid);
      const city = CitySchema.safeParse(value.city);
      if (!city.success) issue('city', city.error.issues[0]?.message ?? M.city_required);
      const countryOfInstitution = CountrySchema.safeParse(value.country);
      if (!countryOfInstitution.success) {
        issue('country', countryOfInstitution.error.issues[0]?.message ?? M.country_required);
      }
    },
    // Runs even when other fields failed, so a form shows every missing field at once. The value may
    // then hold unparsed parts, which every test above tolerates; but it must be an object at all (a
    // body of `null` or `[]` has no fields to read).
    { when: ({ value }) => typeof value === 'object' && value !== null && !Array.isArray(value) },
  );
export type PartnerSignUp = z.infer<typeof PartnerSignUpSchema>;
export type PartnerSignUpInput = z.input<typeof PartnerSignUpSchema>;
