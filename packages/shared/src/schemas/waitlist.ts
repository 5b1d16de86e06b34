import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { EmailSchema } from './auth.ts';

export const JoinWaitlistSchema = z.object({
  email: EmailSchema,
  /** The query string the visitor arrived with (e.g. a referral code), kept with the entry. */
  query: z.string().max(2000).default(''),
  language: z.enum(LANGUAGES).default('en'),
});
export type JoinWaitlist = z.infer<typeof JoinWaitlistSchema>;

export const WaitlistEntrySchema = z.object({
  id: z.uuid(),
  email: z.string(),
  already_joined: z.boolean(),
});
export type WaitlistEntry = z.infer<typeof WaitlistEntrySchema>;
