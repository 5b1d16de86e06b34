/**
 * The sign-up form's choices, which the schemas in schemas/auth.ts check: a module of their own so the
 * sign-up page lists them without downloading the schemas, and no other screen carries them.
 */
export const GENDERS = ['male', 'female', 'other', 'prefer_not_to_say'] as const;
export const EDUCATION_LEVELS = ['high_school', 'associate', 'bachelor', 'master', 'phd', 'other'] as const;
