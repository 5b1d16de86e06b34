import { queryOptions, useQuery } from '@tanstack/react-query';
import { PaymentCheckoutSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

/** How often the page asks again while the provider's confirmation is on its way. */
const CONFIRMING_POLL_MS = 1_500;
/** A hosted provider's payment is asked of the provider by each fetch: less often. */
const HOSTED_POLL_MS = 5_000;

export const paymentKeys = {
  checkout: (reference: string) => ['payments', 'checkout', reference] as const,
};

export const fetchCheckout = (reference: string, signal?: AbortSignal) =>
  api(`/payments/${encodeURIComponent(reference)}`, PaymentCheckoutSchema, { signal });

export const checkoutQuery = (reference: string) =>
  queryOptions({
    queryKey: paymentKeys.checkout(reference),
    queryFn: ({ signal }) => fetchCheckout(reference, signal),
    retry: false,
  });

/**
 * The checkout the /pay page shows. While `confirming` (the payer pressed Pay and the provider's
 * callback has not settled it yet) it is fetched again until it is no longer pending.
 */
export function useCheckout(reference: string, { confirming }: { confirming: boolean }) {
  return useQuery({
    ...checkoutQuery(reference),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data?.status !== 'pending') return false;
      if (data.provider !== 'sandbox') return HOSTED_POLL_MS;
      return confirming ? CONFIRMING_POLL_MS : false;
    },
  });
}
