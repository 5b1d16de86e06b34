import { z } from 'zod';

/** Where a submitted application stands: received, being reviewed, or decided (spec section 4). */
export const SUBMISSION_STATUSES = ['submitted', 'under_review', 'accepted', 'rejected', 'waitlisted'] as const;
export const SubmissionStatusSchema = z.enum(SUBMISSION_STATUSES);
export type SubmissionStatus = z.infer<typeof SubmissionStatusSchema>;
