import { z } from 'zod';
import { REVIEW_MESSAGES as R } from '../messages.ts';
import { DocumentTypeSchema, DOCUMENT_STATUSES } from './documents.ts';
import { FormSnapshotSchema } from './forms.ts';
import { PaymentSummarySchema } from './payments.ts';
import { DecisionStateSchema, SubmissionStatusSchema } from './submissions.ts';
import { RubricCriterionSchema, SCORE_MAX } from './rubric.ts';
import { ReviewDeferralSchema } from './deferrals.ts';
import { ConditionViewSchema, ELIGIBILITY_STATUSES, SubmissionEligibilitySchema } from '../exams/eligibility-view.ts';
import { ExamSittingSchema } from '../exams/sittings.ts';
import { ConditionsStatusSchema, OfferConditionSchema } from './offers.ts';
import { PlacesStandingSchema } from './places.ts';
import { StaffRefereeSchema } from './referees.ts';

/*
 * The staff review of submitted applications (issue 8): the queue, one application with its notes,
 * scores, documents and history, and the bulk actions. Routes live under
 * /partners/:partnerId/review/... and need review_applications or make_decisions.
 */

/* ------------------------------------------------------------------ the queue */

/** Built-in stages of the queue's stage filter; a custom stage is named by its id from the settings. */
export const BUILT_IN_STAGES = ['new', 'under_review', 'decided'] as const;
export const QUEUE_SORTS = ['submitted_at', 'score', 'name', 'reference', 'eligibility', 'points'] as const;
export const QUEUE_PAGE_SIZES = [10, 25, 50, 100] as const;
export const QUEUE_DEFAULT_PAGE_SIZE = 25;
/** Bulk actions and releases take at most this many applications at once. */
export const BULK_MAX = 500;

const booleanParam = z.enum(['true', 'false']).transform((value) => value === 'true');
const dayParam = z.iso.date(R.date_invalid);
const scoreParam = z.coerce.number(R.score_invalid).min(0, R.score_invalid).max(SCORE_MAX, R.score_invalid);

/**
 * GET /partners/:partnerId/review/submissions (and `.csv`, which ignores the page). Every filter is
 * optional. `stage`: 'new' (status submitted), 'under_review' (in review, no custom stage), 'decided'
 * (a released decision), or a custom stage's id. `decision`: the decision's state, drafted or released,
 * or 'none'; `release`: 'draft' or 'released' decisions only. `assigned_to`: a member's staff id, 'me' or
 * 'none'. Dates are days in the institution's time zone, both ends included. `q` matches the applicant's
 * name (not for blind reviewers) or a reference.
 */
export const ReviewQueueQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  cycle_id: z.uuid().optional(),
  program_id: z.uuid().optional(),
  campus_id: z.uuid().optional(),
  stage: z.string().trim().min(1).max(64).optional(),
  decision: z.enum([...(['accepted', 'rejected', 'waitlisted'] as const), 'none']).optional(),
  release: z.enum(['draft', 'released']).optional(),
  paid: booleanParam.optional(),
  submitted_by_staff: booleanParam.optional(),
  submitted_from: dayParam.optional(),
  submitted_to: dayParam.optional(),
  score_min: scoreParam.optional(),
  score_max: scoreParam.optional(),
  assigned_to: z.union([z.uuid(), z.enum(['me', 'none'])]).optional(),
  /** Eligibility for the program when submitted (issue 25). */
  eligibility: z.enum(ELIGIBILITY_STATUSES).optional(),
  sort: z.enum(QUEUE_SORTS).default('submitted_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .refine((size) => (QUEUE_PAGE_SIZES as readonly number[]).includes(size))
    .default(QUEUE_DEFAULT_PAGE_SIZE),
});
export type ReviewQueueQuery = z.infer<typeof ReviewQueueQuerySchema>;
export type ReviewQueueQueryInput = z.input<typeof ReviewQueueQuerySchema>;

export const StaffRefSchema = z.object({ id: z.uuid(), name: z.string() });
export type StaffRef = z.infer<typeof StaffRefSchema>;

/** A decision as staff see it: drafted (released_at null, maybe scheduled) or released. */
export const ReviewDecisionSchema = z.object({
  id: z.uuid(),
  state: DecisionStateSchema,
  automatic: z.boolean(),
  decided_by: StaffRefSchema.nullable(),
  /** When a drafted decision will be released by itself (the cycle's decision release date). */
  release_at: z.string().nullable(),
  released_at: z.string().nullable(),
  response: z.enum(['accepted', 'declined']).nullable(),
  response_date: z.string().nullable(),
  verification_code: z.string().nullable(),
  /** The message to the applicant, and an offer's terms (issue 26): as StudentDecision has them. */
  message: z.string(),
  conditions: z.array(OfferConditionSchema),
  condition_views: z.array(ConditionViewSchema.nullable()),
  conditions_status: ConditionsStatusSchema.nullable(),
  conditions_decided_at: z.string().nullable(),
  reply_by: z.string().nullable(),
  reply_by_on: z.iso.date().nullable(),
  lapsed_at: z.string().nullable(),
  /** A waitlisted decision's rank, and when a freed place proposed it to staff (issue 26). */
  waitlist_rank: z.int().nullable(),
  proposed_at: z.string().nullable(),
  /** An accepted offer's latest deferral request (ADR 053), whatever its status; null when none was made. */
  deferral: ReviewDeferralSchema.nullable().default(null),
  updated_at: z.string(),
});
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;

export const ReviewQueueRowSchema = z.object({
  id: z.uuid(),
  reference: z.string(),
  /** Null for a blind reviewer. */
  applicant_name: z.string().nullable(),
  program_name: z.string().nullable(),
  campus_name: z.string().nullable(),
  cycle_name: z.string().nullable(),
  submitted_at: z.string(),
  status: SubmissionStatusSchema,
  stage_id: z.string().nullable(),
  paid: z.boolean(),
  /** The fee was waived (a waiver code or an approved request). */
  waived: z.boolean().optional(),
  submitted_by_staff: z.boolean(),
  score_average: z.number().nullable(),
  score_count: z.int().nonnegative(),
  assigned_to: StaffRefSchema.nullable(),
  /** Referees' letters arrived of those invited (issue 26); null when the form asked for none. */
  letters: z.object({ received: z.int().nonnegative(), invited: z.int().nonnegative() }).nullable().optional(),
  decision: z.object({ state: DecisionStateSchema, released: z.boolean(), automatic: z.boolean() }).nullable(),
  /** Eligibility when submitted: its status, the examination and aggregate it was read on, points out of 100. */
  eligibility: z
    .object({
      status: z.enum(ELIGIBILITY_STATUSES),
      exam: z.string().nullable(),
      aggregate: z.number().nullable(),
      points: z.number().nullable(),
    })
    .nullable()
    .optional(),
});
export type ReviewQueueRow = z.infer<typeof ReviewQueueRowSchema>;

export const ReviewQueuePageSchema = z.object({
  items: z.array(ReviewQueueRowSchema),
  total: z.int().nonnegative(),
  page: z.int().min(1),
  page_size: z.int().min(1),
});
export type ReviewQueuePage = z.infer<typeof ReviewQueuePageSchema>;

/** GET /partners/:partnerId/review/options — what the queue's filters and actions offer the caller. */
export const ReviewOptionsSchema = z.object({
  cycles: z.array(z.object({ id: z.uuid(), name: z.string(), decision_release_on: z.string().nullable() })),
  programs: z.array(z.object({ id: z.uuid(), name: z.string() })),
  campuses: z.array(z.object({ id: z.uuid(), name: z.string() })),
  stages: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Active members who may review (review_applications, make_decisions or all). */
  reviewers: z.array(StaffRefSchema),
  rubric: z.array(RubricCriterionSchema),
  /** The caller sees applicants without name or photo. */
  blind: z.boolean(),
  /** The caller holds make_decisions (or all). */
  can_decide: z.boolean(),
  me: z.uuid(),
  /** The institution's time zone: a release at a set moment is read on its clock. */
  timezone: z.string(),
});
export type ReviewOptions = z.infer<typeof ReviewOptionsSchema>;

/* ------------------------------------------------------------------ one application */

export const ReviewNoteSchema = z.object({
  id: z.uuid(),
  author: StaffRefSchema.nullable(),
  body: z.string(),
  created_at: z.string(),
  /** The caller wrote it, so may delete it. */
  mine: z.boolean(),
});
export type ReviewNote = z.infer<typeof ReviewNoteSchema>;

export const NoteCreateSchema = z.object({
  body: z.string(R.note_required).trim().min(1, R.note_required).max(5000, R.text_too_long),
});
export type NoteCreate = z.infer<typeof NoteCreateSchema>;

export const ReviewScoreSchema = z.object({
  reviewer: StaffRefSchema,
  /** Criterion id → 0..100. */
  criteria: z.record(z.string(), z.number()),
  total: z.number(),
  comment: z.string().nullable(),
  updated_at: z.string(),
});
export type ReviewScore = z.infer<typeof ReviewScoreSchema>;

/** PUT …/submissions/:submissionId/score — the caller's score; every criterion of the rubric, 0–100. */
export const ScoreInputSchema = z.object({
  criteria: z.record(z.string(), z.int(R.score_invalid).min(0, R.score_invalid).max(SCORE_MAX, R.score_invalid)),
  comment: z.string().trim().max(2000, R.text_too_long).optional(),
});
export type ScoreInput = z.infer<typeof ScoreInputSchema>;

export const ScoreResultSchema = z.object({
  score: ReviewScoreSchema,
  score_average: z.number(),
  score_count: z.int(),
  /** The decision after the thresholds were applied (an automatic draft, or what was there). */
  decision: ReviewDecisionSchema.nullable(),
});
export type ScoreResult = z.infer<typeof ScoreResultSchema>;

export const REVIEW_DOCUMENT_DECISIONS = ['verified', 'rejected'] as const;
/** POST …/documents/:documentId/review — a rejection says why; the applicant sees the reason. */
export const DocumentReviewSchema = z
  .object({
    status: z.enum(REVIEW_DOCUMENT_DECISIONS),
    reason: z.string().trim().max(500, R.text_too_long).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.status === 'rejected' && !value.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: R.reason_required });
    }
  });
export type DocumentReview = z.infer<typeof DocumentReviewSchema>;

export const ReviewDocumentSchema = z.object({
  document_id: z.uuid(),
  type: DocumentTypeSchema,
  file_name: z.string(),
  /** The document's status now (not as submitted): staff verify or reject it. */
  status: z.enum([...DOCUMENT_STATUSES, 'not_uploaded']),
  review_note: z.string().nullable(),
  /** False when the applicant has since replaced or removed the file submitted. */
  available: z.boolean(),
});
export type ReviewDocument = z.infer<typeof ReviewDocumentSchema>;

export const REVIEW_EVENT_ACTIONS = [
  'submitted',
  'stage_changed',
  'assigned',
  'note_added',
  'note_deleted',
  'score_saved',
  'document_reviewed',
  'exam_result_verified',
  'decision_drafted',
  'decision_withdrawn',
  'decision_scheduled',
  'decision_released',
  'offer_accepted',
  'offer_declined',
  /** A conditional offer's conditions found met or not met; an offer unanswered past its deadline (ADR 051). */
  'offer_conditions_met',
  'offer_conditions_not_met',
  'offer_lapsed',
  /** A place opened and this waitlisted applicant, next on the list, was proposed to staff. */
  'waitlist_proposed',
  /** The applicant asked to defer their accepted offer, or withdrew the request; staff approved or declined it (ADR 053). */
  'deferral_requested',
  'deferral_withdrawn',
  'deferral_approved',
  'deferral_declined',
] as const;
export type ReviewEventAction = (typeof REVIEW_EVENT_ACTIONS)[number];

export const ReviewEventSchema = z.object({
  id: z.uuid(),
  action: z.enum(REVIEW_EVENT_ACTIONS),
  /** Who did it: a member, the applicant, or the platform (automatic decisions, scheduled releases). */
  actor: z.object({ kind: z.enum(['staff', 'applicant', 'system']), name: z.string().nullable() }),
  /** What changed, e.g. { from, to } for a stage, { state, automatic } for a decision. */
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type ReviewEvent = z.infer<typeof ReviewEventSchema>;

/** GET /partners/:partnerId/review/submissions/:submissionId */
export const ReviewApplicationSchema = z.object({
  id: z.uuid(),
  reference: z.string(),
  status: SubmissionStatusSchema,
  stage_id: z.string().nullable(),
  assigned_to: StaffRefSchema.nullable(),
  submitted_at: z.string(),
  submitted_by_staff: z.boolean(),
  cycle: z.object({ id: z.uuid(), name: z.string(), decision_release_on: z.string().nullable() }).nullable(),
  program: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  campus: z.object({ id: z.uuid(), name: z.string() }),
  /** The applicant as submitted; name, photo and contact details are left out for a blind reviewer. */
  applicant_name: z.string().nullable(),
  profile: z.record(z.string(), z.unknown()),
  form: FormSnapshotSchema.nullable(),
  answers: z.record(z.string(), z.unknown()),
  documents: z.array(ReviewDocumentSchema),
  payment: z.object({
    paid: z.boolean(),
    amount: z.number(),
    currency: z.string(),
    /** The institution waived the fee (a waiver code or an approved request). */
    waived: z.boolean().optional(),
    /** The payment record when there is one (not for submissions on behalf). */
    record: PaymentSummarySchema.nullable(),
  }),
  notes: z.array(ReviewNoteSchema),
  scores: z.array(ReviewScoreSchema),
  score_average: z.number().nullable(),
  rubric: z.array(RubricCriterionSchema),
  decision: ReviewDecisionSchema.nullable(),
  /** Where the places of the program applied for stand (issue 26); null without a cycle or campus. */
  places: PlacesStandingSchema.nullable(),
  history: z.array(ReviewEventSchema),
  blind: z.boolean(),
  can_decide: z.boolean(),
  /** Eligibility for the program when submitted (issue 25); null for one submitted on behalf or before. */
  eligibility: SubmissionEligibilitySchema.nullable().optional(),
  /**
   * The applicant's examination results as they stand now, each verifiable against its document (the
   * submission keeps them as submitted in `profile.exam_sittings`); without index numbers for a blind reviewer.
   */
  exam_sittings: z.array(ExamSittingSchema).optional(),
  /** The referees the applicant invited, with their status, answers and letters (issue 26). */
  referees: z.array(StaffRefereeSchema).optional(),
});
export type ReviewApplication = z.infer<typeof ReviewApplicationSchema>;

/** PATCH …/submissions/:submissionId — move along the stages, or (un)assign a reviewer. */
export const ReviewUpdateSchema = z
  .object({
    stage_id: z.string().trim().min(1).max(64).nullable().optional(),
    assigned_to: z.uuid().nullable().optional(),
  })
  .refine((value) => value.stage_id !== undefined || value.assigned_to !== undefined, R.nothing_to_change);
export type ReviewUpdate = z.infer<typeof ReviewUpdateSchema>;

/** POST /partners/:partnerId/review/bulk */
export const BulkReviewSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('move_stage'),
    submission_ids: z.array(z.uuid()).min(1, R.none_selected).max(BULK_MAX, R.too_many_selected),
    stage_id: z.string().trim().min(1).max(64).nullable(),
  }),
  z.object({
    action: z.literal('assign'),
    submission_ids: z.array(z.uuid()).min(1, R.none_selected).max(BULK_MAX, R.too_many_selected),
    assigned_to: z.uuid().nullable(),
  }),
]);
export type BulkReview = z.infer<typeof BulkReviewSchema>;
export const BulkResultSchema = z.object({ updated: z.int().nonnegative() });

/** Cells of the CSV export that a spreadsheet would run as a formula start with one of these. */
export const CSV_FORMULA_PREFIXES = ['=', '+', '-', '@', '\t', '\r'] as const;
