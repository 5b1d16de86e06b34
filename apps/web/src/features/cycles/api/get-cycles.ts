import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, CycleSchema } from '@kaminuza/shared';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

export const getCycles = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/cycles`, z.array(CycleSchema), { signal });

export const cyclesQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'cycles'],
    queryFn: ({ signal }) => getCycles(partnerId, signal),
    staleTime: CACHE_TTL_MS.cycles,
  });

export function useCycles(partnerId: string) {
  return useQuery({ ...cyclesQuery(partnerId), enabled: partnerId !== '' });
}
