/** The waivers module's public entry: what other modules may use (docs/architecture.md). */
export { assertFeeNotWaived, feeWaived, feeWaivedCondition, releaseUnsubmittedCodeUses } from './waivers.service.ts';
