import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, PartnerProfileSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getPartnerProfile = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/profile`, PartnerProfileSchema, { signal });

export const partnerProfileQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'profile'],
    queryFn: ({ signal }) => getPartnerProfile(partnerId, signal),
    staleTime: CACHE_TTL_MS.partners,
  });

export function usePartnerProfile(partnerId: string) {
  return useQuery(partnerProfileQuery(partnerId));
}
