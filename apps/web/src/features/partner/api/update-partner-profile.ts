import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PartnerProfileSchema, type PartnerProfileUpdate } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerProfileQuery } from './get-partner-profile.ts';

export const updatePartnerProfile = (partnerId: string, update: PartnerProfileUpdate) =>
  api(`/partners/${encodeURIComponent(partnerId)}/profile`, PartnerProfileSchema, { method: 'PATCH', body: update });

export function useUpdatePartnerProfile(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: PartnerProfileUpdate) => updatePartnerProfile(partnerId, update),
    onSuccess: (profile) => queryClient.setQueryData(partnerProfileQuery(partnerId).queryKey, profile),
  });
}
