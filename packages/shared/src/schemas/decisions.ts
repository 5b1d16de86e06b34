import { z } from 'zod';
import { DECISION_MESSAGES as D } from '../messages.ts';
import { ConditionViewSchema } from '../exams/eligibility-view.ts';
import { ConditionsStatusSchema, OFFER_CONDITIONS_MAX, OfferConditionSchema } from './offers.ts';
import { BULK_MAX } from './review.ts';
import { DeferralSchema } from './deferrals.ts';
import { DecisionResponseSchema, DecisionStateSchema } from './submissions.ts';

/*
 * Decisions (spec sections 3 and 4, issue 8): drafted by a member holding make_decisions or by the
 * institution's thresholds, released now or on the cycle's decision release date, then seen by the
 * applicant, who answers an offer once. Accepted decisions carry an admission letter with a
 * verification code.
 */

export const DECISION_MESSAGE_MAX = 2000;

/**
 * PUT /partners/:partnerId/review/submissions/:submissionId/decision — drafts or changes the decision.
 * Any decision may carry a message to the applicant; only an offer (`accepted`) has conditions and a
 * reply deadline: a day (`YYYY-MM-DD`), the offer lapsing at the end of it in the institution's time zone.
 */
export const DecisionDraftSchema = z
  .object({
    state: DecisionStateSchema,
    message: z.string().trim().max(DECISION_MESSAGE_MAX, D.message_too_long).default(''),
    conditions: z.array(OfferConditionSchema).max(OFFER_CONDITIONS_MAX, D.too_many_conditions).default([]),
    reply_by: z.iso.date(D.reply_by_invalid).nullable().default(null),
    /** A waitlisted decision made an offer beyond the places left (issue 26). */
    override_capacity: z.boolean().default(false),
  })
  .superRefine((draft, ctx) => {
    if (draft.state === 'accepted') return;
    if (draft.conditions.length > 0)
      ctx.addIssue({ code: 'custom', path: ['conditions'], message: D.offer_terms_only });
    if (draft.reply_by) ctx.addIssue({ code: 'custom', path: ['reply_by'], message: D.offer_terms_only });
  });
export type DecisionDraft = z.infer<typeof DecisionDraftSchema>;
export type DecisionDraftInput = z.input<typeof DecisionDraftSchema>;

/** POST …/decision/conditions — staff say whether a conditional offer's conditions were met. */
export const CONDITIONS_OUTCOMES = ['met', 'not_met'] as const;
export const ConditionsOutcomeSchema = z.object({ outcome: z.enum(CONDITIONS_OUTCOMES) });
export type ConditionsOutcome = z.infer<typeof ConditionsOutcomeSchema>;

export const RELEASE_TIMINGS = ['now', 'release_date', 'at'] as const;
/** A moment as the institution's wall clock reads it, to the minute: `2026-12-01T09:00`. */
export const WALL_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
/**
 * POST /partners/:partnerId/decisions/release — releases drafted decisions now, schedules them for their
 * cycle's decision release date (a date already past releases now), or for a moment (`at`, in the
 * institution's time zone, issue 26) when all are released together. Applications without a draft, or
 * already released, are skipped and counted.
 */
export const DecisionReleaseSchema = z
  .object({
    submission_ids: z.array(z.uuid()).min(1, D.none_selected).max(BULK_MAX, D.too_many_selected),
    when: z.enum(RELEASE_TIMINGS),
    at: z.string().regex(WALL_TIME_PATTERN, D.release_at_invalid).optional(),
    /** Release offers beyond the places left (issue 26): refused with 409 unless said. */
    override_capacity: z.boolean().default(false),
  })
  .superRefine((release, ctx) => {
    if (release.when === 'at' && !release.at) {
      ctx.addIssue({ code: 'custom', path: ['at'], message: D.release_at_invalid });
    }
  });
export type DecisionRelease = z.infer<typeof DecisionReleaseSchema>;
export type DecisionReleaseInput = z.input<typeof DecisionReleaseSchema>;
export const DecisionReleaseResultSchema = z.object({
  released: z.int().nonnegative(),
  scheduled: z.int().nonnegative(),
  skipped: z.int().nonnegative(),
});
export type DecisionReleaseResult = z.infer<typeof DecisionReleaseResultSchema>;

/**
 * The Decision entity of spec section 3 as the student area reads it (programName, universityName, a state
 * and a response date), released decisions only: GET /decisions, GET /applications/:id/decision.
 */
export const StudentDecisionSchema = z.object({
  id: z.uuid(),
  /** The submission (= the application's id). */
  application_id: z.uuid(),
  partner_id: z.uuid(),
  program_name: z.string(),
  university_name: z.string(),
  state: DecisionStateSchema,
  released_at: z.string(),
  /** The applicant's answer to an offer, and its date. */
  response: DecisionResponseSchema.nullable(),
  response_date: z.string().nullable(),
  /** An accepted offer comes with a letter (GET /applications/:id/decision/letter). */
  has_letter: z.boolean(),
  /** The institution's message with the decision; empty when none. */
  message: z.string(),
  /** An offer's conditions and where they stand (null: none). */
  conditions: z.array(OfferConditionSchema),
  /** Each examination condition against the applicant's results as they stand now (null: a written one). */
  condition_views: z.array(ConditionViewSchema.nullable()),
  conditions_status: ConditionsStatusSchema.nullable(),
  conditions_decided_at: z.string().nullable(),
  /** The moment an offer's reply is due (the end of its day in the institution's time zone), and that day. */
  reply_by: z.string().nullable(),
  reply_by_on: z.iso.date().nullable(),
  /** Set when the offer went unanswered past its deadline. */
  lapsed_at: z.string().nullable(),
  /** An accepted offer's latest deferral request (ADR 053), whatever its status; null when none was made. */
  deferral: DeferralSchema.nullable().default(null),
});
export type StudentDecision = z.infer<typeof StudentDecisionSchema>;

/** POST /applications/:id/decision/response — final: an offer is answered once. */
export const DecisionResponseInputSchema = z.object({ response: DecisionResponseSchema });
export type DecisionResponseInput = z.infer<typeof DecisionResponseInputSchema>;

/**
 * The admission letter as issued at release: rendered from the institution's template then, so later
 * edits of the template never change a letter already sent.
 */
export const AdmissionLetterIssuedSchema = z.object({
  verification_code: z.string(),
  /** The public page the QR code points to. */
  verify_url: z.string(),
  issued_on: z.iso.date(),
  reference: z.string(),
  student_name: z.string(),
  university_name: z.string(),
  logo_url: z.string().nullable(),
  program_name: z.string(),
  campus_name: z.string(),
  cycle_name: z.string(),
  /** A conditional offer's conditions, worded in the letter's language, and its reply deadline (absent on letters issued before). */
  conditions: z.array(z.string()).optional(),
  reply_by_on: z.iso.date().nullable().optional(),
  /** Paragraphs of plain text (placeholders already filled in). */
  paragraphs: z.array(z.string()),
  signature_name: z.string(),
  signature_title: z.string(),
  signature_image: z.string().nullable(),
});
export type AdmissionLetterIssued = z.infer<typeof AdmissionLetterIssuedSchema>;

/** Verification codes: 12 characters of an alphabet without look-alikes, shown in groups of four. */
export const VERIFICATION_CODE_PATTERN = /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/;
export const VerificationCodeParamsSchema = z.object({
  code: z
    .string()
    .trim()
    .transform((code) => code.toUpperCase())
    .pipe(z.string().regex(VERIFICATION_CODE_PATTERN, D.letter_not_found)),
});

/**
 * GET /letters/:code (public) — confirms a letter is genuine and shows no more than the name, the
 * institution, the program and the decision.
 */
export const LetterVerificationSchema = z.object({
  student_name: z.string(),
  university_name: z.string(),
  program_name: z.string(),
  state: DecisionStateSchema,
  issued_on: z.iso.date(),
});
export type LetterVerification = z.infer<typeof LetterVerificationSchema>;
