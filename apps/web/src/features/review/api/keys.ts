/** The query keys of one institution's review data, so mutations name exactly what they change. */
export const reviewKeys = {
  all: (partnerId: string) => ['partner', partnerId, 'review'] as const,
  options: (partnerId: string) => ['partner', partnerId, 'review', 'options'] as const,
  queues: (partnerId: string) => ['partner', partnerId, 'review', 'queue'] as const,
  queue: (partnerId: string, query: string) => ['partner', partnerId, 'review', 'queue', query] as const,
  application: (partnerId: string, submissionId: string) =>
    ['partner', partnerId, 'review', 'application', submissionId] as const,
};

export const partnerPath = (partnerId: string, rest: string) => `/partners/${encodeURIComponent(partnerId)}${rest}`;

export const submissionPath = (partnerId: string, submissionId: string, rest = '') =>
  partnerPath(partnerId, `/review/submissions/${encodeURIComponent(submissionId)}${rest}`);
