import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { DocumentTypeSchema } from './documents.ts';
import { COMPLETION_FIELDS } from './student-profile.ts';

/** Where the student fixes a missing part of their profile: onboarding, a profile tab, or the documents tab. */
export const HOME_FIX_PLACES = ['onboarding', 'personal', 'education', 'documents'] as const;
export type HomeFixPlace = (typeof HOME_FIX_PLACES)[number];

export const HomeMissingItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('field'), field: z.enum(COMPLETION_FIELDS), place: z.enum(HOME_FIX_PLACES) }),
  z.object({ kind: z.literal('document'), type: DocumentTypeSchema, place: z.literal('documents') }),
]);
export type HomeMissingItem = z.infer<typeof HomeMissingItemSchema>;

const institution = {
  application_id: z.uuid(),
  partner_id: z.uuid(),
  partner_name: z.string(),
  program_name: z.string(),
};

/**
 * What the student should do next, in the order the home shows it: finish onboarding, upload the missing
 * documents, continue each draft, pay the fees drafts await, and the drafts' closing dates.
 */
export const HomeNextStepSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('onboarding'), step: z.number().int().min(0) }),
  z.object({ kind: z.literal('documents'), types: z.array(DocumentTypeSchema).min(1) }),
  z.object({ kind: z.literal('draft'), ...institution, progress_percentage: z.number().int().min(0).max(100) }),
  z.object({ kind: z.literal('pay'), ...institution, amount: z.number().nonnegative(), currency: z.string() }),
  /** `closes_at`: the instant the cycle stops taking applications (end of its last day, institution's zone). */
  z.object({ kind: z.literal('deadline'), ...institution, closes_at: z.string() }),
]);
export type HomeNextStep = z.infer<typeof HomeNextStepSchema>;

/** The student's home (GET /students/me/home): computed by the server from the caller's own records. */
export const StudentHomeSchema = z.object({
  first_name: z.string().nullable(),
  preferred_name: z.string().nullable(),
  /** students.timezone and students.language: what the home's dates are shown in. */
  timezone: z.string(),
  language: z.enum(LANGUAGES),
  completion: z.object({
    percent: z.number().int().min(0).max(100),
    missing: z.array(HomeMissingItemSchema),
  }),
  next_steps: z.array(HomeNextStepSchema),
});
export type StudentHome = z.infer<typeof StudentHomeSchema>;
