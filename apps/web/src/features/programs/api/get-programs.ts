import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, ProgramSchema, type ProgramListQuery } from '@kaminuza/shared';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

export const getPrograms = (partnerId: string, filters: ProgramListQuery, signal?: AbortSignal) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) search.set(key, value);
  const query = search.size > 0 ? `?${search}` : '';
  return api(`/partners/${encodeURIComponent(partnerId)}/programs${query}`, z.array(ProgramSchema), { signal });
};

/** Every program list of the institution shares this key's prefix, so a change refreshes them all. */
export const programsKey = (partnerId: string) => ['partner', partnerId, 'programs'] as const;

export const programsQuery = (partnerId: string, filters: ProgramListQuery = {}) =>
  queryOptions({
    queryKey: [...programsKey(partnerId), filters],
    queryFn: ({ signal }) => getPrograms(partnerId, filters, signal),
    staleTime: CACHE_TTL_MS.programs,
  });

export function usePrograms(partnerId: string, filters: ProgramListQuery) {
  // The previous results stay on screen while a new search loads, so the list does not flicker.
  return useQuery({
    ...programsQuery(partnerId, filters),
    enabled: partnerId !== '',
    placeholderData: keepPreviousData,
  });
}
