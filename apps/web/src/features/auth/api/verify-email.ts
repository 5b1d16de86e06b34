import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SessionUserSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { startSession } from '../../../lib/session.tsx';

/** The spec's verifyLink: consumes the code of the verification email and signs the user in. */
export const verifyEmail = (code: string) =>
  api('/auth/verify-email', SessionUserSchema, { method: 'POST', body: { code } });

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: (user) => startSession(queryClient, user),
  });
}
