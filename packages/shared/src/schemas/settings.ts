import { z } from 'zod/mini';
import { LANGUAGES, THEMES } from '../constants.ts';

/*
 * Written with zod/mini like the session schemas: the signed-in shell reads the account's theme on its
 * first screen, which must not download the whole of zod (ADR 020).
 */

/** Email notification preferences (spec section 3), one switch per EMAIL_PREFERENCES entry. */
export const EmailPreferencesSchema = z.object({
  marketing: z.boolean(),
  application_updates: z.boolean(),
  reminders: z.boolean(),
});

/** Push notification preferences (spec section 3), one switch per PUSH_PREFERENCES entry. */
export const PushPreferencesSchema = z.object({
  messages: z.boolean(),
  status_updates: z.boolean(),
  deadline_reminders: z.boolean(),
});

/** The signed-in user's own settings (spec section 2, Settings), every default filled in. */
export const AccountSettingsSchema = z.object({
  theme: z.enum(THEMES),
  language: z.enum(LANGUAGES),
  notifications: z.object({ email: EmailPreferencesSchema, push: PushPreferencesSchema }),
});
export type AccountSettings = z.infer<typeof AccountSettingsSchema>;

/** Some of a group of switches, and nothing else. */
const someOf = <Shape extends z.core.$ZodLooseShape>(group: z.ZodMiniObject<Shape>) =>
  z.optional(z.strictObject(z.partial(group).shape));

/**
 * A change to some of one's settings: only what is sent changes. Unknown keys are refused at every
 * level, so a typo never passes for a successful save.
 */
export const AccountSettingsUpdateSchema = z.strictObject({
  theme: z.optional(z.enum(THEMES)),
  language: z.optional(z.enum(LANGUAGES)),
  notifications: z.optional(
    z.strictObject({ email: someOf(EmailPreferencesSchema), push: someOf(PushPreferencesSchema) }),
  ),
});
export type AccountSettingsUpdate = z.infer<typeof AccountSettingsUpdateSchema>;
