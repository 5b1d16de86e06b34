import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { CACHE_TTL_MS, CycleSchema, FinancePageSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { financeKeys, financePath } from './keys.ts';

/** `query` is the query string the finance page built from its address (see finance-query.ts). */
export const getFinancePayments = (partnerId: string, query: string, signal?: AbortSignal) =>
  api(financePath(partnerId, `/payments${query ? `?${query}` : ''}`), FinancePageSchema, { signal });

export const financePaymentsQuery = (partnerId: string, query: string) =>
  queryOptions({
    queryKey: financeKeys.payments(partnerId, query),
    queryFn: ({ signal }) => getFinancePayments(partnerId, query, signal),
    staleTime: CACHE_TTL_MS.answers,
  });

/** While a refund is with its provider, the list is asked again this often until the provider's answer shows. */
export const REFUND_WATCH_MS = 5_000;

/**
 * The previous page stays on screen while the next one loads, so paging and filtering do not flash. A
 * page showing a refund under way refreshes itself until that refund closes.
 */
export function useFinancePayments(partnerId: string, query: string, enabled = true) {
  return useQuery({
    ...financePaymentsQuery(partnerId, query),
    enabled: enabled && partnerId !== '',
    placeholderData: keepPreviousData,
    refetchInterval: ({ state }) =>
      state.data?.items.some((payment) => payment.refund_status === 'processing') ? REFUND_WATCH_MS : false,
  });
}

/** The CSV export of every payment matching the filters (the page does not apply). */
export const financeExportUrl = (partnerId: string, query: string) =>
  `/api/v1${financePath(partnerId, `/payments.csv${query ? `?${query}` : ''}`)}`;

/** The institution's cycles, for the cycle filter. */
export function useFinanceCycles(partnerId: string, enabled = true) {
  return useQuery({
    queryKey: financeKeys.cycles(partnerId),
    queryFn: ({ signal }) => api(`/partners/${encodeURIComponent(partnerId)}/cycles`, z.array(CycleSchema), { signal }),
    staleTime: CACHE_TTL_MS.cycles,
    enabled: enabled && partnerId !== '',
  });
}
