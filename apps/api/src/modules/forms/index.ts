/** The forms module's public entry: what other modules may use (docs/architecture.md). */
export { createDefaultForm, formSnapshot, listForms, snapshotForm } from './forms.service.ts';
