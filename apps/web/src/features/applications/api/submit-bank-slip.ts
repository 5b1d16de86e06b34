import { useMutation } from '@tanstack/react-query';
import { CheckoutStartedSchema, IDEMPOTENCY_KEY_HEADER } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { sendIdempotent } from '../../../lib/idempotency.ts';

export interface BankSlipSubmission {
  applicationId: string;
  currency: string;
  bankReference: string;
  slipFileId: string;
  /** One key per submission: a retry after a lost answer gets the payment the first request recorded. */
  idempotencyKey: string;
}

/** Sends the bank slip of an application's fee: staff verify it, and the payment waits pending until then. */
export const submitBankSlip = ({
  applicationId,
  currency,
  bankReference,
  slipFileId,
  idempotencyKey,
}: BankSlipSubmission) =>
  api(`/applications/${encodeURIComponent(applicationId)}/payment`, CheckoutStartedSchema, {
    method: 'POST',
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    body: { channel: 'bank_slip', currency, bank_reference: bankReference, slip_file_id: slipFileId },
  });

export function useSubmitBankSlip() {
  return useMutation({
    mutationFn: (submission: BankSlipSubmission) => sendIdempotent(() => submitBankSlip(submission)),
  });
}
