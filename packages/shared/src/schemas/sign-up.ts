import { z } from 'zod';
import { isSupportedCountry, isValidPhoneNumber, type CountryCode } from 'libphonenumber-js/min';
import { LANGUAGES } from '../constants.ts';
import { VALIDATION_MESSAGES as M } from '../messages.ts';
import {
  CitySchema,
  DateOfBirthSchema,
  EDUCATION_LEVELS,
  EmailSchema,
  FirstNameSchema,
  GENDERS,
  LastNameSchema,
  PasswordSchema,
  PreferredNameSchema,
  required,
} from './auth.ts';

/*
 * Rules that need country and phone-number data (libphonenumber's metadata, ~20 KB compressed): kept
 * in their own module so only the screens that collect a phone number or a country download it.
 */

/** ISO 3166-1 alpha-2 codes of the countries phone numbers exist for (every inhabited country). */
export const CountrySchema = required(M.country_required).refine(
  (code) => /^[A-Z]{2}$/.test(code) && isSupportedCountry(code),
  M.country_invalid,
);

export const StudentSignUpSchema = z
  .object({
    email: EmailSchema,
    password: PasswordSchema,
    education_level: z.enum(EDUCATION_LEVELS, M.education_level_required),
    gender: z.enum(GENDERS, M.gender_required),
    first_name: FirstNameSchema,
    preferred_name: PreferredNameSchema.default(''),
    last_name: LastNameSchema,
    date_of_birth: DateOfBirthSchema,
    phone: required(M.phone_required),
    city: CitySchema,
    country: CountrySchema,
    accept_terms: z.literal(true, M.terms_required),
    language: z.enum(LANGUAGES).default('en'),
  })
  .superRefine((value, ctx) => {
    // The phone number is read in the country the applicant lives in unless it starts with +.
    if (value.phone && !isValidPhoneNumber(value.phone, value.country as CountryCode)) {
      ctx.addIssue({ code: 'custom', path: ['phone'], message: M.phone_invalid });
    }
  });
export type StudentSignUp = z.infer<typeof StudentSignUpSchema>;
export type StudentSignUpInput = z.input<typeof StudentSignUpSchema>;
