import { z } from 'zod';
import { APPLICATION_MESSAGES as A } from '../messages.ts';
import { FirstNameSchema, LastNameSchema } from './auth.ts';
import { DocumentTypeSchema } from './documents.ts';
import { DraftAnswersSchema } from './form-answers.ts';
import { FormSectionSchema } from './forms.ts';
import { PartnerThemeSchema } from './partner-settings.ts';
import { PaymentSummarySchema } from './payments.ts';

/*
 * Applying (spec sections 2–5): a student's in-progress application to one institution in its current
 * cycle, saved as they type with a version, paid for, then submitted once. The draft's id becomes the
 * submission's id, which is what moves from current_applications to completed_applications.
 */

/** Spec section 3: an application's progress status defaults to in_progress. */
export const APPLICATION_STATUSES = ['in_progress', 'submitted'] as const;
export const ApplicationStatusSchema = z.enum(APPLICATION_STATUSES);
export type ApplicationStatus = z.infer<typeof ApplicationStatusSchema>;

/** The steps of the application screen; current_step is an index into this list. */
export const APPLICATION_STEPS = ['form', 'payment', 'review'] as const;
export type ApplicationStep = (typeof APPLICATION_STEPS)[number];

/** What the student's application card shows (spec section 2: Apply, In Progress or Applied). */
export const APPLICATION_CARD_STATES = ['apply', 'in_progress', 'applied'] as const;
export type ApplicationCardState = (typeof APPLICATION_CARD_STATES)[number];

/** The header a client sends with a submit or a payment so a retry gets the first answer back. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/**
 * Seconds a client waits before retrying a request whose Idempotency-Key is still being processed
 * (the 409's Retry-After): a submit or checkout finishes well within it.
 */
export const IDEMPOTENCY_RETRY_AFTER_SECONDS = 1;
export const IdempotencyKeySchema = z
  .string()
  .trim()
  .min(8)
  .max(200)
  .regex(/^[\w.:-]+$/);

export const ApplicationIdParamsSchema = z.object({ id: z.uuid() });
export const ApplicationPartnerParamsSchema = z.object({ partnerId: z.uuid() });

/** A campus a program is offered at. */
export const ApplyCampusSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  city: z.string(),
  country: z.string(),
});
export type ApplyCampus = z.infer<typeof ApplyCampusSchema>;

/** A program open for applications in the current cycle, with the campuses offering it. */
export const ApplyProgramSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  level: z.string(),
  field: z.string(),
  duration_months: z.int(),
  language: z.string(),
  campuses: z.array(ApplyCampusSchema),
});
export type ApplyProgram = z.infer<typeof ApplyProgramSchema>;

/** The cycle an application is made in, and whether it takes applications today (institution's time zone). */
export const ApplyCycleSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  opens_on: z.iso.date(),
  closes_on: z.iso.date(),
  decision_release_on: z.iso.date().nullable(),
  timezone: z.string(),
  accepting_applications: z.boolean(),
});
export type ApplyCycle = z.infer<typeof ApplyCycleSchema>;

/** The application fee (spec section 9: 100 USD unless the institution sets another; 0 means none). */
export const ApplicationFeeSchema = z.object({ amount: z.number().nonnegative(), currency: z.string() });
export type ApplicationFee = z.infer<typeof ApplicationFeeSchema>;

/** One of the student's applications, as cards and status checks show it. */
export const ApplicationSummarySchema = z.object({
  id: z.uuid(),
  partner_id: z.uuid(),
  partner_name: z.string(),
  partner_logo_url: z.string().nullable(),
  cycle_id: z.uuid(),
  cycle_name: z.string(),
  program_id: z.uuid(),
  program_name: z.string(),
  campus_id: z.uuid().nullable(),
  campus_name: z.string().nullable(),
  status: ApplicationStatusSchema,
  progress_percentage: z.int().min(0).max(100),
  current_step: z.int().min(0),
  current_section_index: z.int().min(0),
  started_at: z.string(),
  last_saved_at: z.string().nullable(),
  submitted_at: z.string().nullable(),
  /** The submission reference once submitted. */
  reference: z.string().nullable(),
  paid: z.boolean(),
  /** The institution has started reviewing the submission and released no decision yet. */
  under_review: z.boolean(),
});
export type ApplicationSummary = z.infer<typeof ApplicationSummarySchema>;

/**
 * GET /partners/:partnerId/application — everything the start screen needs: the institution, its
 * current cycle (null when it has none), the programs open in it, the fee, and the student's
 * application to it in that cycle if they have one. 404 for an unknown or unpublished institution.
 */
export const ApplyContextSchema = z.object({
  partner: z.object({
    id: z.uuid(),
    name: z.string(),
    logo_url: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    theme: PartnerThemeSchema.nullable(),
  }),
  cycle: ApplyCycleSchema.nullable(),
  programs: z.array(ApplyProgramSchema),
  fee: ApplicationFeeSchema,
  application: ApplicationSummarySchema.nullable(),
});
export type ApplyContext = z.infer<typeof ApplyContextSchema>;

/**
 * POST /partners/:partnerId/application — starts the application (201), or answers the one the student
 * already has in this cycle (200). A program taught at one campus gets that campus; one taught at several
 * needs the applicant's choice (400 'Campus ID is required for submission' without it).
 */
export const StartApplicationSchema = z.object({
  program_id: z.uuid(A.program_not_open),
  campus_id: z.uuid(A.campus_not_offered).nullable().optional(),
});
export type StartApplication = z.infer<typeof StartApplicationSchema>;

/** A profile document a file question can be answered with. */
export const ApplicationDocumentSchema = z.object({
  id: z.uuid(),
  type: DocumentTypeSchema,
  name: z.string(),
});
export type ApplicationDocument = z.infer<typeof ApplicationDocumentSchema>;

/** GET /applications/:id — the draft with its form, answers and version, for the application screen. */
export const ApplicationDraftSchema = ApplicationSummarySchema.extend({
  version: z.int().min(1),
  answers: DraftAnswersSchema,
  form: z.object({ id: z.uuid(), name: z.string(), version: z.int(), sections: z.array(FormSectionSchema) }),
  /** The campuses offering the chosen program, to choose or change the campus. */
  campuses: z.array(ApplyCampusSchema),
  documents: z.array(ApplicationDocumentSchema),
  cycle: ApplyCycleSchema,
  fee: ApplicationFeeSchema,
  /** The fee's payment: the succeeded one, else the latest attempt; null before any. */
  payment: PaymentSummarySchema.nullable(),
  /** The institution waived the fee (an approved fee waiver): it can be submitted without paying. */
  fee_waived: z.boolean().optional(),
  theme: PartnerThemeSchema.nullable(),
});
export type ApplicationDraft = z.infer<typeof ApplicationDraftSchema>;

/**
 * PATCH /applications/:id — an autosave: the whole answers map, where the student is, and the version
 * the client last saw. A stale version answers 409 aborted ('stale_draft') with StaleDraftDetails.
 */
export const SaveDraftSchema = z.object({
  version: z.int().min(1),
  answers: DraftAnswersSchema,
  current_step: z
    .int()
    .min(0)
    .max(APPLICATION_STEPS.length - 1)
    .optional(),
  current_section_index: z.int().min(0).max(100).optional(),
  campus_id: z.uuid(A.campus_not_offered).nullable().optional(),
});
export type SaveDraft = z.infer<typeof SaveDraftSchema>;

export const DraftSavedSchema = z.object({
  version: z.int().min(1),
  last_saved_at: z.string(),
  progress_percentage: z.int().min(0).max(100),
});
export type DraftSaved = z.infer<typeof DraftSavedSchema>;

/** The `details` of a 409 on a stale save: what the server holds now. */
export const StaleDraftDetailsSchema = z.object({
  version: z.int(),
  last_saved_at: z.string().nullable(),
});
export type StaleDraftDetails = z.infer<typeof StaleDraftDetailsSchema>;

/**
 * POST /applications/:id/submit (header Idempotency-Key) — the final answers and the version they were
 * made on. Answers are checked with answersSchema; refusals come back as 400 with one issue per question.
 */
export const SubmitApplicationSchema = z.object({
  version: z.int().min(1),
  answers: DraftAnswersSchema,
});
export type SubmitApplication = z.infer<typeof SubmitApplicationSchema>;

/**
 * What a submission records of its payment (spec section 3: payment{paid, amount, payment_id}); `waived`
 * when the institution waived the fee (a waiver code or an approved request): not paid, and nothing owed.
 */
export const SubmissionPaymentSchema = z.object({
  paid: z.boolean(),
  amount: z.number().nonnegative(),
  currency: z.string(),
  payment_id: z.uuid().nullable(),
  waived: z.boolean().optional(),
});

/** The answer to a submit, and what the submitted view shows: the reference to copy. */
export const SubmissionReceiptSchema = z.object({
  id: z.uuid(),
  reference: z.string(),
  partner_id: z.uuid(),
  partner_name: z.string(),
  cycle_name: z.string(),
  program_name: z.string(),
  campus_name: z.string(),
  submitted_at: z.string(),
  submitted_by_staff: z.boolean(),
  applicant_name: z.string(),
  payment: SubmissionPaymentSchema,
});
export type SubmissionReceipt = z.infer<typeof SubmissionReceiptSchema>;

/** GET /applications — the student's applications area: one card per institution they added or applied to. */
export const ApplicationCardSchema = z.object({
  partner_id: z.uuid(),
  partner_name: z.string(),
  partner_logo_url: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  state: z.enum(APPLICATION_CARD_STATES),
  application: ApplicationSummarySchema.nullable(),
});
export type ApplicationCard = z.infer<typeof ApplicationCardSchema>;

/* ---------------------------------------------------------------- on behalf (spec section 6) */

/** The applicant a staff member submits for: named, reachable, not necessarily a Kaminuza user. */
export const OnBehalfApplicantSchema = z.object({
  first_name: FirstNameSchema,
  last_name: LastNameSchema,
  email: z.email('Invalid email address').max(254, 'Email is too long'),
  phone: z.string().trim().max(30).optional(),
  date_of_birth: z.iso.date().optional(),
  nationality: z.string().length(2).optional(),
});
export type OnBehalfApplicant = z.infer<typeof OnBehalfApplicantSchema>;

/**
 * POST /partners/:partnerId/submissions (header Idempotency-Key) — a staff member with
 * submit_applications submits for a named applicant: submitted_by_staff, staff_id set, unpaid.
 * A missing campus answers 'Campus ID is required for submission'.
 */
export const OnBehalfSubmissionSchema = z.object({
  applicant: OnBehalfApplicantSchema,
  program_id: z.uuid(A.program_not_open),
  campus_id: z.uuid(A.campus_required).nullable().optional(),
  answers: DraftAnswersSchema,
});
export type OnBehalfSubmission = z.infer<typeof OnBehalfSubmissionSchema>;

/** GET /partners/:partnerId/submissions/form?program_id= — the form a staff member fills for that program. */
export const OnBehalfFormQuerySchema = z.object({ program_id: z.uuid() });
export const OnBehalfFormSchema = z.object({
  cycle: ApplyCycleSchema,
  program: ApplyProgramSchema,
  form: z.object({ id: z.uuid(), name: z.string(), version: z.int(), sections: z.array(FormSectionSchema) }),
});
export type OnBehalfForm = z.infer<typeof OnBehalfFormSchema>;

/** GET /partners/:partnerId/submissions/programs — the current cycle and the programs open in it. */
export const OnBehalfSetupSchema = z.object({
  cycle: ApplyCycleSchema.nullable(),
  programs: z.array(ApplyProgramSchema),
});
export type OnBehalfSetup = z.infer<typeof OnBehalfSetupSchema>;
