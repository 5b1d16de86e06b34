/*
 * Query keys of the applying screens. Everything sits under ['applications'], so a submit or a payment
 * can refresh the cards, the start screen and the draft in one invalidation.
 */
export const applicationKeys = {
  all: ['applications'] as const,
  cards: ['applications', 'cards'] as const,
  context: (partnerId: string) => ['applications', 'context', partnerId] as const,
  draft: (id: string) => ['applications', 'draft', id] as const,
  submission: (id: string) => ['applications', 'submission', id] as const,
  /** Released decisions: the student's list, one application's decision, and its letter. */
  decisions: ['applications', 'decisions'] as const,
  decision: (id: string) => ['applications', 'decision', id] as const,
  letter: (id: string) => ['applications', 'letter', id] as const,
  /** The referees the applicant invited for the application (issue 26). */
  referees: (id: string) => ['applications', 'referees', id] as const,
};

export const applicationPath = (id: string) => `/applications/${encodeURIComponent(id)}`;
