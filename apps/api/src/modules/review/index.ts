/** The review module's public entry: what other modules may use (docs/architecture.md). */
export { currentDocumentsOf } from './review.service.ts';
