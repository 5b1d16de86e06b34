import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SessionUserSchema, type AcceptInvitation } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { startSession } from '../../../lib/session.tsx';

export const acceptInvitation = (input: AcceptInvitation) =>
  api('/auth/invitations/accept', SessionUserSchema, { method: 'POST', body: input });

/** Accepting creates the account and signs it in. */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: (user) => startSession(queryClient, user),
  });
}
