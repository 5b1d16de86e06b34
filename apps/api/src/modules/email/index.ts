/** The email module's public entry: what other modules may use (docs/architecture.md). */
export { enqueueCustomEmail, enqueueEmail, outboxEmail, renderStored } from './email.service.ts';
export type { DbOrTransaction } from './email.service.ts';
export { catalogueText, emailLanguage, longDate, renderCustom } from './email.templates.ts';
