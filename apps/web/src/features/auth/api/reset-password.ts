import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { accountSchemas } from '../load-account-schemas.ts';

export const resetPassword = async (input: { token: string; password: string }) =>
  api('/auth/reset-password', (await accountSchemas()).AcknowledgedSchema, { method: 'POST', body: input });

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
