import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { CACHE_TTL_MS, CycleSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

/** The institution's admission cycles, to choose the current one from. */
export const getCycles = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/cycles`, z.array(CycleSchema), { signal });

export const cyclesQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'cycles'],
    queryFn: ({ signal }) => getCycles(partnerId, signal),
    staleTime: CACHE_TTL_MS.cycles,
    // The general settings stay usable without the list: one attempt, then the screen says so.
    retry: false,
  });

export const useCycles = (partnerId: string) => useQuery(cyclesQuery(partnerId));
