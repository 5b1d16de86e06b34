import { queryOptions, useQuery } from '@tanstack/react-query';
import { PaymentOptionsSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { applicationKeys, applicationPath } from './keys.ts';

/** How the fee of an application can be paid: each currency, its amount and ways to pay (issue 22). */
export const paymentOptionsQuery = (id: string) =>
  queryOptions({
    queryKey: [...applicationKeys.draft(id), 'payment-options'] as const,
    queryFn: ({ signal }) => api(`${applicationPath(id)}/payment/options`, PaymentOptionsSchema, { signal }),
    staleTime: 60_000,
  });

export const usePaymentOptions = (id: string, enabled: boolean) => useQuery({ ...paymentOptionsQuery(id), enabled });
