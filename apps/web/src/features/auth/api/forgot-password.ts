import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { accountSchemas } from '../load-account-schemas.ts';

export const forgotPassword = async (email: string) =>
  api('/auth/forgot-password', (await accountSchemas()).AcknowledgedSchema, { method: 'POST', body: { email } });

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
