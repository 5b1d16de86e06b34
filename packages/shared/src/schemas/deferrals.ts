import { z } from 'zod';

/*
 * Deferral of an accepted offer (issue 26, ADR 053): the applicant asks to take up their place in a later
 * cycle of the same institution that offers the same program at the same campus; staff approve or decline.
 */

/** Where a deferral request stands: open until staff answer it or the applicant withdraws it. */
export const DEFERRAL_STATUSES = ['pending', 'approved', 'declined', 'withdrawn'] as const;
export const DeferralStatusSchema = z.enum(DEFERRAL_STATUSES);
export type DeferralStatus = z.infer<typeof DeferralStatusSchema>;
