import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckoutStartedSchema, IDEMPOTENCY_KEY_HEADER, type PaymentStart } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { sendIdempotent } from '../../../lib/idempotency.ts';
import { applicationKeys, applicationPath } from './keys.ts';
import { answered, requestKey } from './request-key.ts';

export const startPayment = (id: string, key: string, choice?: PaymentStart) =>
  api(`${applicationPath(id)}/payment`, CheckoutStartedSchema, {
    method: 'POST',
    headers: { [IDEMPOTENCY_KEY_HEADER]: key },
    ...(choice ? { body: choice } : {}),
  });

/**
 * Opens the fee's checkout, or pushes a mobile money prompt (`choice`: the way to pay, currency, number). The request key outlives a lost answer (kept per application in the tab's
 * session), so a retry gets the checkout the first attempt opened instead of a second one.
 */
export function useStartPayment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (choice?: PaymentStart) => {
      const scope = `pay.${id}`;
      try {
        // Another way to pay (or number) is another request: it gets a key of its own.
        const key = requestKey(scope, { payload: JSON.stringify(choice ?? null) });
        const started = await sendIdempotent(() => startPayment(id, key, choice));
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
