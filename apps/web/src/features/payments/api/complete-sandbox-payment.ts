import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SandboxResultSchema, type SandboxPaymentSchema } from '@kaminuza/shared';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { paymentKeys } from './payment-checkout.ts';

export type SandboxPaymentInput = z.output<typeof SandboxPaymentSchema>;

export const completeSandboxPayment = (reference: string, input: SandboxPaymentInput) =>
  api(`/payments/sandbox/${encodeURIComponent(reference)}/complete`, SandboxResultSchema, {
    method: 'POST',
    body: input,
  });

/** The sandbox page's Pay button; the checkout is read again afterwards (the callback settled it, or soon will). */
export function useCompleteSandboxPayment(reference: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SandboxPaymentInput) => completeSandboxPayment(reference, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentKeys.checkout(reference) }),
  });
}
