/** The documents module's public entry: what other modules may use (docs/architecture.md). */
export { listDocuments, openFile, setDocumentReview, storeFile, studentIdOf } from './documents.service.ts';
export type { StoredFile } from './documents.service.ts';
