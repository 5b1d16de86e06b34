/** The notifications module's public entry: what other modules may use (docs/architecture.md). */
export { notifyDocumentReviewed, notifyNewMessage } from './events.ts';
export { notify } from './notifications.service.ts';
