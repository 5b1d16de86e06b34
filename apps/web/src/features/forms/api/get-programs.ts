import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { CACHE_TTL_MS, ProgramSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

/** The institution's programs, to attach a form to one. */
export const getPrograms = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/programs`, z.array(ProgramSchema), { signal });

export const programsQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'programs'],
    queryFn: ({ signal }) => getPrograms(partnerId, signal),
    staleTime: CACHE_TTL_MS.programs,
  });

export function usePrograms(partnerId: string) {
  return useQuery({ ...programsQuery(partnerId), enabled: partnerId !== '' });
}
