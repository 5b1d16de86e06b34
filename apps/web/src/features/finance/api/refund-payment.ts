import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FinancePaymentSchema, type RefundByHand } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { financeKeys, financePath } from './keys.ts';

export const refundPayment = (partnerId: string, paymentId: string, input: RefundByHand) =>
  api(financePath(partnerId, `/payments/${encodeURIComponent(paymentId)}/refund`), FinancePaymentSchema, {
    method: 'POST',
    body: input,
  });

/** A refund changes the row and the totals of every list it appears in: all of them are refreshed. */
export function useRefundPayment(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ paymentId, note }: { paymentId: string; note: string }) =>
      refundPayment(partnerId, paymentId, { note }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: financeKeys.all(partnerId) }),
  });
}
