import { queryOptions, useQuery } from '@tanstack/react-query';
import { ReceiptVerificationSchema } from '@kaminuza/shared';
import { api, ApiError } from '../../../lib/api-client.ts';

export const verifyReceipt = (code: string, signal?: AbortSignal) =>
  api(`/receipts/verify/${encodeURIComponent(code)}`, ReceiptVerificationSchema, { signal });

/** Answers that asking again cannot change: an unknown code, a malformed one, the rate limit. */
const FINAL = new Set(['NOT_FOUND', 'INVALID_ARGUMENT', 'RESOURCE_EXHAUSTED']);

export const receiptVerificationQuery = (code: string) =>
  queryOptions({
    queryKey: ['receipts', code] as const,
    queryFn: ({ signal }) => verifyReceipt(code, signal),
    retry: (failures, error) => !(error instanceof ApiError && FINAL.has(error.status)) && failures < 1,
    staleTime: Infinity,
  });

/** What a receipt's verification code proves: the number, institution, amount, date and method of the payment. */
export function useReceiptVerification(code: string | null) {
  return useQuery({ ...receiptVerificationQuery(code ?? ''), enabled: code !== null });
}
