/** The query keys of one institution's finance data, so the refund names exactly what it changes. */
export const financeKeys = {
  all: (partnerId: string) => ['partner', partnerId, 'finance'] as const,
  payments: (partnerId: string, query: string) => [...financeKeys.all(partnerId), 'payments', query] as const,
  discrepancies: (partnerId: string) => [...financeKeys.all(partnerId), 'discrepancies'] as const,
  /** The institution's cycles, shared with the cycles screen's cache entry. */
  cycles: (partnerId: string) => ['partner', partnerId, 'cycles'] as const,
};

export const financePath = (partnerId: string, rest: string) =>
  `/partners/${encodeURIComponent(partnerId)}/finance${rest}`;
