import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, CampusSchema } from '@kaminuza/shared';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

export const getCampuses = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/campuses`, z.array(CampusSchema), { signal });

export const campusesQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'campuses'],
    queryFn: ({ signal }) => getCampuses(partnerId, signal),
    staleTime: CACHE_TTL_MS.campuses,
  });

export function useCampuses(partnerId: string) {
  return useQuery({ ...campusesQuery(partnerId), enabled: partnerId !== '' });
}
