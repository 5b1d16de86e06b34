import { z } from 'zod';
import { ProgramSchema } from './admissions.ts';
import { DecisionResponseSchema, DecisionStateSchema, SubmissionStatusSchema } from './submissions.ts';

/*
 * The partner REST API (`/api/v1/partner-api/...`): what an institution's own systems read with an API
 * key. Lists are newest first and paged by an opaque cursor: pass `next_cursor` back as `cursor` until it
 * is null. Times are ISO 8601 in UTC.
 */

export const PARTNER_API_PAGE_SIZE = 25;
export const PARTNER_API_MAX_PAGE_SIZE = 100;

const ListQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(PARTNER_API_MAX_PAGE_SIZE)
    .default(PARTNER_API_PAGE_SIZE)
    .describe(`Items per page, 1 to ${PARTNER_API_MAX_PAGE_SIZE}.`),
  cursor: z.string().max(200).optional().describe('The `next_cursor` of the previous page.'),
  updated_since: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('Only records changed at or after this time (ISO 8601).'),
});

export const PartnerApiSubmissionQuerySchema = ListQuerySchema.extend({
  status: SubmissionStatusSchema.optional().describe('Only submissions in this status.'),
  cycle_id: z.uuid().optional().describe('Only submissions to this admission cycle.'),
});
export type PartnerApiSubmissionQuery = z.infer<typeof PartnerApiSubmissionQuerySchema>;

export const PartnerApiDecisionQuerySchema = ListQuerySchema;
export type PartnerApiDecisionQuery = z.infer<typeof PartnerApiDecisionQuerySchema>;

/** A submitted application as the institution's systems see it. */
export const PartnerApiSubmissionSchema = z.object({
  id: z.uuid(),
  reference: z.string().describe('The reference the applicant quotes.'),
  status: SubmissionStatusSchema,
  cycle_id: z.uuid().nullable(),
  program_id: z.uuid().nullable(),
  campus_id: z.uuid(),
  form_id: z.uuid().nullable(),
  profile: z
    .record(z.string(), z.unknown())
    .describe(
      "The applicant's details as they were when submitted. Its `documents` are the documents submitted as they " +
        'stand now, as staff see them: document_id, type, file_name, status (verified, pending, rejected or ' +
        'not_uploaded), review_note (the reason given with a rejection) and available (false once the applicant ' +
        'has replaced the file submitted).',
    ),
  answers: z.record(z.string(), z.unknown()).describe('Question id → answer.'),
  paid: z.boolean(),
  amount: z.number(),
  currency: z.string(),
  submitted_at: z.string(),
  updated_at: z.string(),
});
export type PartnerApiSubmission = z.infer<typeof PartnerApiSubmissionSchema>;

export const PartnerApiSubmissionPageSchema = z.object({
  items: z.array(PartnerApiSubmissionSchema),
  next_cursor: z.string().nullable(),
});
export type PartnerApiSubmissionPage = z.infer<typeof PartnerApiSubmissionPageSchema>;

export const PartnerApiDecisionSchema = z.object({
  id: z.uuid(),
  submission_id: z.uuid(),
  state: DecisionStateSchema,
  program_name: z.string(),
  university_name: z.string(),
  released_at: z.string().nullable(),
  response: DecisionResponseSchema.nullable(),
  response_date: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PartnerApiDecision = z.infer<typeof PartnerApiDecisionSchema>;

export const PartnerApiDecisionPageSchema = z.object({
  items: z.array(PartnerApiDecisionSchema),
  next_cursor: z.string().nullable(),
});
export type PartnerApiDecisionPage = z.infer<typeof PartnerApiDecisionPageSchema>;

export const PartnerApiProgramListSchema = z.array(ProgramSchema);

export const PartnerApiSubmissionParamsSchema = z.object({ submissionId: z.uuid() });
