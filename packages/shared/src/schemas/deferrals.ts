import { z } from 'zod';
import { DECISION_MESSAGES as D } from '../messages.ts';
import { PlacesStandingSchema } from './places.ts';

/*
 * Deferral of an accepted offer (issue 26, ADR 053): the applicant asks to take up their place in a later
 * cycle of the same institution that offers the same program at the same campus; staff approve or decline.
 * Once approved, the offer holds its place in that cycle instead, and its letter names it.
 */

/** Where a deferral request stands: open until staff answer it or the applicant withdraws it. */
export const DEFERRAL_STATUSES = ['pending', 'approved', 'declined', 'withdrawn'] as const;
export const DeferralStatusSchema = z.enum(DEFERRAL_STATUSES);
export type DeferralStatus = z.infer<typeof DeferralStatusSchema>;

export const DEFERRAL_REASON_MAX = 1000;
export const DEFERRAL_NOTE_MAX = 1000;

/** A cycle an offer may be deferred to: later than the one it holds its place in, offering its program there. */
export const DeferralCycleSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  opens_on: z.iso.date(),
  closes_on: z.iso.date(),
});
export type DeferralCycle = z.infer<typeof DeferralCycleSchema>;

/** GET /applications/:id/decision/deferral/cycles — the cycles the applicant may choose, earliest first. */
export const DeferralCyclesSchema = z.object({ items: z.array(DeferralCycleSchema) });
export type DeferralCycles = z.infer<typeof DeferralCyclesSchema>;

/** POST /applications/:id/decision/deferral — the applicant asks to defer their accepted offer. */
export const DeferralRequestInputSchema = z.object({
  cycle_id: z.uuid(D.deferral_cycle_required),
  reason: z
    .string(D.deferral_reason_required)
    .trim()
    .min(1, D.deferral_reason_required)
    .max(DEFERRAL_REASON_MAX, D.deferral_reason_too_long),
});
export type DeferralRequestInput = z.infer<typeof DeferralRequestInputSchema>;

export const DEFERRAL_OUTCOMES = ['approved', 'declined'] as const;
/**
 * POST /partners/:partnerId/review/submissions/:submissionId/decision/deferral — staff answer the pending
 * request they read (`request_id`), with an optional note to the applicant. Approving beyond the places
 * left in the chosen cycle needs `override_capacity`, as releasing offers does.
 */
export const DeferralOutcomeSchema = z.object({
  request_id: z.uuid(),
  outcome: z.enum(DEFERRAL_OUTCOMES),
  note: z.string().trim().max(DEFERRAL_NOTE_MAX, D.deferral_note_too_long).default(''),
  override_capacity: z.boolean().default(false),
});
export type DeferralOutcome = z.infer<typeof DeferralOutcomeSchema>;
export type DeferralOutcomeInput = z.input<typeof DeferralOutcomeSchema>;

const CycleRefSchema = z.object({ id: z.uuid(), name: z.string() });

/** The offer's latest deferral request, as the applicant reads it. */
export const DeferralSchema = z.object({
  id: z.uuid(),
  status: DeferralStatusSchema,
  /** The cycle the offer held its place in when asked, and the one asked for. */
  from_cycle: CycleRefSchema,
  to_cycle: CycleRefSchema,
  reason: z.string(),
  /** Staff's note with their answer; empty when none. */
  note: z.string(),
  requested_at: z.string(),
  /** When staff answered it or the applicant withdrew it. */
  closed_at: z.string().nullable(),
});
export type Deferral = z.infer<typeof DeferralSchema>;

/** The same as staff read it: who answered, and while it is pending, the places left in the cycle asked for. */
export const ReviewDeferralSchema = DeferralSchema.extend({
  decided_by: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  places: PlacesStandingSchema.nullable(),
});
export type ReviewDeferral = z.infer<typeof ReviewDeferralSchema>;
