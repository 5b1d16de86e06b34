import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, PartnerProfileSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';

export const getPartnerProfile = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/profile`, PartnerProfileSchema, { signal });

export const partnerProfileQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'profile'],
    queryFn: ({ signal }) => getPartnerProfile(partnerId, signal),
    staleTime: CACHE_TTL_MS.partners,
  });

/** The signed-in staff member's institution and its profile. */
export function useOwnPartnerProfile() {
  const { session } = useSession();
  const partnerId = session.status === 'signed-in' ? (session.user.partner_id ?? '') : '';
  return { partnerId, profile: useQuery(partnerProfileQuery(partnerId)) };
}
