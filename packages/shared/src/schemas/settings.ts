import { z } from 'zod';
import { LANGUAGES, THEMES } from '../constants.ts';

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

/**
 * A change to some of one's settings: only what is sent changes. Unknown keys are refused at every
 * level, so a typo never passes for a successful save.
 */
export const AccountSettingsUpdateSchema = z.strictObject({
  theme: z.enum(THEMES).optional(),
  language: z.enum(LANGUAGES).optional(),
  notifications: z
    .strictObject({
      email: EmailPreferencesSchema.partial().strict().optional(),
      push: PushPreferencesSchema.partial().strict().optional(),
    })
    .optional(),
});
export type AccountSettingsUpdate = z.infer<typeof AccountSettingsUpdateSchema>;
