import { useMutation, useQueryClient } from '@tanstack/react-query';
import { InvitationSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const revokeInvitation = (partnerId: string, invitationId: string) =>
  api(partnerPath(partnerId, `/invitations/${encodeURIComponent(invitationId)}`), InvitationSchema, {
    method: 'DELETE',
  });

export function useRevokeInvitation(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => revokeInvitation(partnerId, invitationId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.invitations(partnerId) }),
  });
}
