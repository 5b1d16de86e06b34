import { partnerReviewKey } from '../../../lib/query-keys.ts';

/** The query keys of one institution's review data, so mutations name exactly what they change. */
export const reviewKeys = {
  all: partnerReviewKey,
  options: (partnerId: string) => [...partnerReviewKey(partnerId), 'options'] as const,
  queues: (partnerId: string) => [...partnerReviewKey(partnerId), 'queue'] as const,
  queue: (partnerId: string, query: string) => [...partnerReviewKey(partnerId), 'queue', query] as const,
  application: (partnerId: string, submissionId: string) =>
    [...partnerReviewKey(partnerId), 'application', submissionId] as const,
};

export const partnerPath = (partnerId: string, rest: string) => `/partners/${encodeURIComponent(partnerId)}${rest}`;

export const submissionPath = (partnerId: string, submissionId: string, rest = '') =>
  partnerPath(partnerId, `/review/submissions/${encodeURIComponent(submissionId)}${rest}`);
