import { z } from 'zod';

/** Where a submitted application stands: received, being reviewed, or decided (spec section 4). */
export const SUBMISSION_STATUSES = ['submitted', 'under_review', 'accepted', 'rejected', 'waitlisted'] as const;
export const SubmissionStatusSchema = z.enum(SUBMISSION_STATUSES);
export type SubmissionStatus = z.infer<typeof SubmissionStatusSchema>;

/** Decision states (spec section 4); rejected is shown as Unsuccessful. */
export const DECISION_STATES = ['accepted', 'rejected', 'waitlisted'] as const;
export const DecisionStateSchema = z.enum(DECISION_STATES);
export type DecisionState = z.infer<typeof DecisionStateSchema>;

/** The applicant's answer to an offer; either one is final. */
export const DECISION_RESPONSES = ['accepted', 'declined'] as const;
export const DecisionResponseSchema = z.enum(DECISION_RESPONSES);
