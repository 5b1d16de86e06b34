import { useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, SubmissionReceiptSchema, type OnBehalfSubmission } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { outcomeUnknown, sendIdempotent } from '../../../lib/idempotency.ts';

export const submitOnBehalf = (partnerId: string, input: OnBehalfSubmission, idempotencyKey: string) =>
  api(`/partners/${encodeURIComponent(partnerId)}/submissions`, SubmissionReceiptSchema, {
    method: 'POST',
    body: input,
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });

/**
 * Submits for an applicant with an Idempotency-Key that lives until the server answers: a double click
 * or a retry after a timeout sends the same key and gets the one submission back, never a second one.
 * Once the server has answered (a receipt or a refusal), the next attempt is a new request with a new key.
 */
export function useSubmitOnBehalf(partnerId: string) {
  const key = useRef<string | null>(null);
  return useMutation({
    mutationFn: (input: OnBehalfSubmission) => {
      const sent = (key.current ??= crypto.randomUUID());
      return sendIdempotent(() => submitOnBehalf(partnerId, input, sent));
    },
    onSuccess: () => {
      key.current = null;
    },
    onError: (error) => {
      // The server may have recorded the submission before the answer was lost: the retry keeps the key.
      if (!outcomeUnknown(error)) key.current = null;
    },
  });
}
