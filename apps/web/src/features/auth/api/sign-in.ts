import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SignIn } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { startSession } from '../../../lib/session.tsx';
import { accountSchemas } from '../load-account-schemas.ts';

export const signIn = async ({ admin, ...credentials }: SignIn & { admin: boolean }) =>
  api(admin ? '/auth/sign-in/admin' : '/auth/sign-in', (await accountSchemas()).SessionUserSchema, {
    method: 'POST',
    body: credentials,
  });

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (user) => startSession(queryClient, user),
  });
}
