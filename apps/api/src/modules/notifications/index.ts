/** The notifications module's public entry: what other modules may use (docs/architecture.md). */
export { notifyDocumentReviewed, notifyFeeDecision, notifyNewMessage, type FeeDecisionType } from './events.ts';
export { notify } from './notifications.service.ts';
export { deadlineWording } from './reminders.ts';
