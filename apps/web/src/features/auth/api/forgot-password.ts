import { useMutation } from '@tanstack/react-query';
import { AcknowledgedSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const forgotPassword = (email: string) =>
  api('/auth/forgot-password', AcknowledgedSchema, { method: 'POST', body: { email } });

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
