/** The payments module's public entry: what other modules may use (docs/architecture.md). */
export { paymentSummaryById, succeededPaymentOf } from './payments.service.ts';
export { institutionReceipt } from './receipts.service.ts';
