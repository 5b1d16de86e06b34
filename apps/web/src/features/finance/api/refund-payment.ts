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

/** Asks the provider's refund API to give the money back; the row answers `processing` until it closes. */
export const refundThroughProvider = (partnerId: string, paymentId: string) =>
  api(financePath(partnerId, `/payments/${encodeURIComponent(paymentId)}/provider-refund`), FinancePaymentSchema, {
    method: 'POST',
  });

export function useProviderRefund(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paymentId: string) => refundThroughProvider(partnerId, paymentId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: financeKeys.all(partnerId) }),
  });
}
