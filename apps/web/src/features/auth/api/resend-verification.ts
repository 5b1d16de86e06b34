import { useMutation } from '@tanstack/react-query';
import { AcknowledgedSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const resendVerification = (email: string) =>
  api('/auth/resend-verification', AcknowledgedSchema, { method: 'POST', body: { email } });

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
