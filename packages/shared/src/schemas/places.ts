import { z } from 'zod';
import { DECISION_MESSAGES as D } from '../messages.ts';

/*
 * Places (issue 26): how many a program offers in a cycle at a campus. Offers count against them while
 * they hold a place: accepted by the applicant, or released and not answered yet (not declined, not
 * lapsed, not ended). Releasing more offers than places are left needs an explicit override.
 */

export const PLACES_MAX = 100_000;

/** GET /partners/:partnerId/cycles/:cycleId/places — each program of the cycle at each of its campuses. */
export const PlacesRowSchema = z.object({
  program_id: z.uuid(),
  program_name: z.string(),
  campus_id: z.uuid(),
  campus_name: z.string(),
  /** Null: no limit set. */
  places: z.int().nullable(),
  /** Offers the applicants accepted. */
  accepted: z.int(),
  /** Offers released and not answered yet. */
  outstanding: z.int(),
  /** Offers drafted and not released yet: they will count once released. */
  drafted: z.int(),
  /** places − accepted − outstanding (never below 0); null without a limit. */
  left: z.int().nullable(),
});
export type PlacesRow = z.infer<typeof PlacesRowSchema>;

/** PUT …/places — sets the places of the given programs at the given campuses (null removes the limit). */
export const PlacesInputSchema = z.object({
  places: z
    .array(
      z.object({
        program_id: z.uuid(),
        campus_id: z.uuid(),
        places: z.int(D.places_invalid).min(0, D.places_invalid).max(PLACES_MAX, D.places_invalid).nullable(),
      }),
    )
    .max(1_000),
});
export type PlacesInput = z.infer<typeof PlacesInputSchema>;

/** One applicant on a place's waiting list (released waitlisted decisions), in the order of the list. */
export const WaitingListEntrySchema = z.object({
  submission_id: z.uuid(),
  reference: z.string(),
  applicant_name: z.string(),
  rank: z.int().nullable(),
  score_average: z.number().nullable(),
  /** When a freed place proposed this applicant, next on the list. */
  proposed_at: z.string().nullable(),
});
export type WaitingListEntry = z.infer<typeof WaitingListEntrySchema>;

export const WaitingListQuerySchema = z.object({ program_id: z.uuid(), campus_id: z.uuid() });
export type WaitingListQuery = z.infer<typeof WaitingListQuerySchema>;

/** PUT …/waitlist — the whole list in its new order (first: offered the next place that opens). */
export const WaitingListOrderSchema = WaitingListQuerySchema.extend({
  submission_ids: z.array(z.uuid()).min(1).max(5_000),
});
export type WaitingListOrder = z.infer<typeof WaitingListOrderSchema>;

/** Where one program at one campus stands, as a decision shows it. */
export const PlacesStandingSchema = PlacesRowSchema.pick({
  places: true,
  accepted: true,
  outstanding: true,
  drafted: true,
  left: true,
});
export type PlacesStanding = z.infer<typeof PlacesStandingSchema>;
