import { useMutation } from '@tanstack/react-query';
import { AcknowledgedSchema, type ChangePassword } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const changePassword = (input: ChangePassword) =>
  api('/me/password', AcknowledgedSchema, { method: 'POST', body: input });

/**
 * Changes the password; the answer carries a new session cookie for this browser while every other
 * session of the account ends, so nothing cached needs refreshing.
 */
export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
