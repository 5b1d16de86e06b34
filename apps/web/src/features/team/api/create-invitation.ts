import { useMutation, useQueryClient } from '@tanstack/react-query';
import { InvitationSchema, type InvitationInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const createInvitation = (partnerId: string, input: InvitationInput) =>
  api(partnerPath(partnerId, '/invitations'), InvitationSchema, { method: 'POST', body: input });

export function useCreateInvitation(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InvitationInput) => createInvitation(partnerId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.invitations(partnerId) }),
  });
}
