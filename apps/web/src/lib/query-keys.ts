/*
 * Query keys named by more than one feature. The feature that reads the data builds its keys on these;
 * another feature whose change makes that data stale invalidates through them, without importing it.
 */

/** An institution's review data; admissions settings (stages, rubric, blind review) change it. */
export const partnerReviewKey = (partnerId: string) => ['partner', partnerId, 'review'] as const;
