import { useMutation } from '@tanstack/react-query';
import { AcknowledgedSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const resetPassword = (input: { token: string; password: string }) =>
  api('/auth/reset-password', AcknowledgedSchema, { method: 'POST', body: input });

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
