/** The decisions module's public entry: what other modules may use (docs/architecture.md). */
export { conditionViewsOf, reviewDecisionOf, toReviewDecision } from './decision-shapes.ts';
export { placesOfSubmission } from './places.service.ts';
export { reviewDeferralOf } from './deferral-shapes.ts';
export { passReplyDeadline } from './offer-deadlines.ts';
