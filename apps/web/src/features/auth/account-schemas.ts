/*
 * The account forms' rules, downloaded on a form's first check rather than with its page: classic zod
 * weighs a quarter of the entry pages' budget (ADR 044). The answers' schemas too: a form is always
 * checked before it is sent, so they are here by then. Sign-up's, with the phone-number data, apart.
 */
import { z } from 'zod';
import { PasswordSchema, VALIDATION_MESSAGES } from '@kaminuza/shared';

export { AcknowledgedSchema, ForgotPasswordSchema, SessionUserSchema, SignInSchema } from '@kaminuza/shared';

/** A new password typed twice (the reset link's form). */
export const NewPasswordSchema = z
  .object({ password: PasswordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: VALIDATION_MESSAGES.passwords_mismatch });
export type NewPassword = z.infer<typeof NewPasswordSchema>;
