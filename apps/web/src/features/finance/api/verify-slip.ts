import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FinancePaymentSchema, type SlipVerification } from '@kaminuza/shared';
import { api, ApiError } from '../../../lib/api-client.ts';
import { financeKeys, financePath } from './keys.ts';

export const verifySlip = (partnerId: string, paymentId: string, input: SlipVerification) =>
  api(financePath(partnerId, `/payments/${encodeURIComponent(paymentId)}/verify`), FinancePaymentSchema, {
    method: 'POST',
    body: input,
  });

/** A decision changes the row and the totals of every list it appears in: all of them are refreshed. */
export function useVerifySlip(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ paymentId, ...input }: SlipVerification & { paymentId: string }) =>
      verifySlip(partnerId, paymentId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: financeKeys.all(partnerId) }),
  });
}

/** Where the slip's photo or PDF is downloaded from (staff holding manage_finance). */
export const slipUrl = (partnerId: string, paymentId: string) =>
  `/api/v1${financePath(partnerId, `/payments/${encodeURIComponent(paymentId)}/slip`)}`;

/** The slip's file, read once to show it in the dialog (an image inline, a PDF as a link to open). */
export function useSlipFile(partnerId: string, paymentId: string) {
  return useQuery({
    queryKey: [...financeKeys.all(partnerId), 'slip', paymentId] as const,
    queryFn: async ({ signal }) => {
      const response = await fetch(slipUrl(partnerId, paymentId), { credentials: 'same-origin', signal });
      if (!response.ok) throw new ApiError('NOT_FOUND', response.statusText, response.status);
      return response.blob();
    },
    staleTime: Infinity,
    gcTime: 0,
  });
}
