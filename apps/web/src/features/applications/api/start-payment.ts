import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckoutStartedSchema, IDEMPOTENCY_KEY_HEADER } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { sendIdempotent } from '../../../lib/idempotency.ts';
import { applicationKeys, applicationPath } from './keys.ts';
import { answered, requestKey } from './request-key.ts';

export const startPayment = (id: string, key: string) =>
  api(`${applicationPath(id)}/payment`, CheckoutStartedSchema, {
    method: 'POST',
    headers: { [IDEMPOTENCY_KEY_HEADER]: key },
  });

/**
 * Opens the fee's checkout. The request key outlives a lost answer (kept per application in the tab's
 * session), so a retry gets the checkout the first attempt opened instead of a second one.
 */
export function useStartPayment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const scope = `pay.${id}`;
      try {
        const key = requestKey(scope);
        const started = await sendIdempotent(() => startPayment(id, key));
        answered(scope);
        return started;
      } catch (error) {
        answered(scope, error);
        throw error;
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: applicationKeys.draft(id) }),
  });
}
