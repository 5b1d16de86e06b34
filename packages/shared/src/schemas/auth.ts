import { z } from 'zod';
import { AGE_MAX, AGE_MIN, NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH } from '../constants.ts';
import { VALIDATION_MESSAGES as M } from '../messages.ts';

/** Maximum lengths are not given by the spec; these fit every real name, city and address. */
export const MAX_LENGTHS = { name: 50, city: 85, address: 200, email: 254 } as const;

export { EDUCATION_LEVELS, GENDERS } from '../sign-up-choices.ts';

/** Letters of any script, spaces, apostrophes, hyphens and dots (e.g. "N'Diaye", "Jean-Luc", "St. John"). */
// \u2019 is the typographic apostrophe (’), written as an escape so the built code stays ASCII.
const NAME_CHARACTERS = /^[\p{L}\p{M}][\p{L}\p{M}' .\u2019-]*$/u;
const CITY_CHARACTERS = /^[\p{L}\p{M}][\p{L}\p{M}\p{N}' .\u2019()-]*$/u;

export const required = (message: string) => z.string({ error: message }).trim().min(1, message);

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

export const SignInSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, M.password_required),
});
export type SignIn = z.infer<typeof SignInSchema>;

export const ForgotPasswordSchema = z.object({ email: EmailSchema });
export const ResetPasswordSchema = z.object({ token: z.string().min(1), password: PasswordSchema });

/** A password change from settings: the current password, and a new one that follows the spec's rule. */
export const ChangePasswordSchema = z.strictObject({
  currentPassword: z.string({ error: M.password_required }).min(1, M.password_required),
  newPassword: PasswordSchema,
});
export type ChangePassword = z.infer<typeof ChangePasswordSchema>;

export const ResendVerificationSchema = z.object({ email: EmailSchema });
export type ResendVerification = z.infer<typeof ResendVerificationSchema>;

/** The code of a verification link (`/auth/verify-email?code=…`), the spec's verifyLink payload. */
export const VerifyEmailSchema = z.object({ code: z.string().trim().min(1).max(200) });
export type VerifyEmail = z.infer<typeof VerifyEmailSchema>;
