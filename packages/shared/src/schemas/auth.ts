import { z } from 'zod';
import { isSupportedCountry, isValidPhoneNumber, type CountryCode } from 'libphonenumber-js/min';
import { AGE_MAX, AGE_MIN, LANGUAGES, NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH } from '../constants.ts';
import { VALIDATION_MESSAGES as M } from '../messages.ts';

/** Maximum lengths are not given by the spec; these fit every real name, city and address. */
export const MAX_LENGTHS = { name: 50, city: 85, address: 200, email: 254 } as const;

export const GENDERS = ['male', 'female', 'other', 'prefer_not_to_say'] as const;
export const EDUCATION_LEVELS = ['high_school', 'associate', 'bachelor', 'master', 'phd', 'other'] as const;
export const USER_TYPES = ['student', 'staff', 'admin'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** Letters of any script, spaces, apostrophes, hyphens and dots (e.g. "N'Diaye", "Jean-Luc", "St. John"). */
const NAME_CHARACTERS = /^[\p{L}\p{M}][\p{L}\p{M}' .’-]*$/u;
const CITY_CHARACTERS = /^[\p{L}\p{M}][\p{L}\p{M}\p{N}' .’()-]*$/u;

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

export const EmailSchema = required(M.email_required)
  .max(MAX_LENGTHS.email, M.email_too_long)
  .pipe(z.email(M.email_invalid));

export const PasswordSchema = z
  .string({ error: M.password_required })
  .min(1, M.password_required)
  .min(PASSWORD_MIN_LENGTH, M.password_too_short)
  .regex(/[A-Z]/, M.password_uppercase)
  .regex(/[a-z]/, M.password_lowercase)
  .regex(/[0-9]/, M.password_number)
  .regex(/[^A-Za-z0-9]/, M.password_special);

function personName(field: 'first_name' | 'last_name') {
  return required(M[`${field}_required`])
    .min(NAME_MIN_LENGTH, M[`${field}_too_short`])
    .max(MAX_LENGTHS.name, M[`${field}_too_long`])
    .regex(NAME_CHARACTERS, M[`${field}_invalid`]);
}

export const FirstNameSchema = personName('first_name');
export const LastNameSchema = personName('last_name');
export const PreferredNameSchema = z
  .string()
  .trim()
  .max(MAX_LENGTHS.name, M.preferred_name_too_long)
  .refine((value) => value === '' || NAME_CHARACTERS.test(value), M.preferred_name_invalid);

export const CitySchema = required(M.city_required)
  .min(2, M.city_too_short)
  .max(MAX_LENGTHS.city, M.city_too_long)
  .regex(CITY_CHARACTERS, M.city_invalid);

/** ISO 3166-1 alpha-2 codes of the countries phone numbers exist for (every inhabited country). */
export const CountrySchema = required(M.country_required).refine(
  (code) => /^[A-Z]{2}$/.test(code) && isSupportedCountry(code),
  M.country_invalid,
);

/** Whole years between a date of birth and `today` (both YYYY-MM-DD). */
export function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

export const DateOfBirthSchema = required(M.date_of_birth_required)
  .pipe(z.iso.date(M.date_of_birth_required))
  .refine((value) => {
    const age = ageOn(value, new Date().toISOString().slice(0, 10));
    return age >= AGE_MIN && age <= AGE_MAX;
  }, M.age_range);

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

export const SignInSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, M.password_required),
});
export type SignIn = z.infer<typeof SignInSchema>;

export const ForgotPasswordSchema = z.object({ email: EmailSchema });
export const ResetPasswordSchema = z.object({ token: z.string().min(1), password: PasswordSchema });

export const SessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  type: z.enum(USER_TYPES),
  first_name: z.string().nullable(),
  preferred_name: z.string().nullable(),
  language: z.enum(LANGUAGES),
  contact_verified: z.boolean(),
  partner_id: z.string().nullable(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const ResendVerificationSchema = z.object({ email: EmailSchema });
export type ResendVerification = z.infer<typeof ResendVerificationSchema>;

/** The code of a verification link (`/auth/verify-email?code=…`), the spec's verifyLink payload. */
export const VerifyEmailSchema = z.object({ code: z.string().trim().min(1).max(200) });
export type VerifyEmail = z.infer<typeof VerifyEmailSchema>;

export const SignUpResultSchema = z.object({ email: z.string(), verification_sent: z.literal(true) });
export type SignUpResult = z.infer<typeof SignUpResultSchema>;

/** The answer of requests that must not reveal anything (resend, forgot password) or return nothing. */
export const AcknowledgedSchema = z.object({ ok: z.literal(true) });
export type Acknowledged = z.infer<typeof AcknowledgedSchema>;
