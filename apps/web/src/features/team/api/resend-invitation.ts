import { useMutation, useQueryClient } from '@tanstack/react-query';
import { InvitationSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const resendInvitation = (partnerId: string, invitationId: string) =>
  api(partnerPath(partnerId, `/invitations/${encodeURIComponent(invitationId)}/resend`), InvitationSchema, {
    method: 'POST',
  });

export function useResendInvitation(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => resendInvitation(partnerId, invitationId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.invitations(partnerId) }),
  });
}
