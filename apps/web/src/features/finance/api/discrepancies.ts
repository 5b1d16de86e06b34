import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CACHE_TTL_MS,
  FinanceDiscrepancyListSchema,
  FinanceDiscrepancySchema,
  type ResolveDiscrepancy,
} from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { financeKeys, financePath } from './keys.ts';

export const getDiscrepancies = (partnerId: string, signal?: AbortSignal) =>
  api(financePath(partnerId, '/discrepancies'), FinanceDiscrepancyListSchema, { signal });

/** The open differences the daily reconciliation found with the providers' records. */
export function useDiscrepancies(partnerId: string, enabled = true) {
  return useQuery({
    queryKey: financeKeys.discrepancies(partnerId),
    queryFn: ({ signal }) => getDiscrepancies(partnerId, signal),
    staleTime: CACHE_TTL_MS.answers,
    enabled: enabled && partnerId !== '',
  });
}

export const resolveDiscrepancy = (partnerId: string, discrepancyId: string, input: ResolveDiscrepancy) =>
  api(financePath(partnerId, `/discrepancies/${encodeURIComponent(discrepancyId)}/resolve`), FinanceDiscrepancySchema, {
    method: 'POST',
    body: input,
  });

/** A resolved difference leaves the list: it is read again. */
export function useResolveDiscrepancy(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ discrepancyId, note }: { discrepancyId: string; note: string }) =>
      resolveDiscrepancy(partnerId, discrepancyId, { note }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: financeKeys.discrepancies(partnerId) }),
  });
}
