/** The submissions module's public entry: what other modules may use (docs/architecture.md). */
export {
  REVIEW_PERMISSIONS,
  markUnderReview,
  recordEvent,
  reviewAccess,
  submissionOfPartner,
} from './submission-access.ts';
export type { ReviewActor } from './submission-access.ts';
export { checkedAnswers, submissionByKey, submissionReceipt, writeSubmission } from './submissions.service.ts';
export { markAutoDecisionsQueued, pendingAutoDecisions } from './auto-decisions.ts';
