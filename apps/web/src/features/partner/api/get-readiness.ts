import { queryOptions, useQuery } from '@tanstack/react-query';
import { AdmissionsReadinessSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getReadiness = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/readiness`, AdmissionsReadinessSchema, { signal });

/** Read fresh on every visit: the setup screens change what it counts. */
export const readinessQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'readiness'],
    queryFn: ({ signal }) => getReadiness(partnerId, signal),
    staleTime: 0,
  });

export function useReadiness(partnerId: string) {
  return useQuery({ ...readinessQuery(partnerId), enabled: partnerId !== '' });
}
