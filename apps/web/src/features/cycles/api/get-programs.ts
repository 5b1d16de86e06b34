import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, ProgramSchema } from '@kaminuza/shared';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

export const getPrograms = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/programs`, z.array(ProgramSchema), { signal });

/** All the institution's programs, to choose those a cycle opens (the programs screen's unfiltered list). */
export const programsQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'programs', {}],
    queryFn: ({ signal }) => getPrograms(partnerId, signal),
    staleTime: CACHE_TTL_MS.programs,
  });

export function usePrograms(partnerId: string) {
  return useQuery({ ...programsQuery(partnerId), enabled: partnerId !== '' });
}
