import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  IDEMPOTENCY_KEY_HEADER,
  SubmissionReceiptSchema,
  type ApplyContext,
  type SubmitApplication,
} from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { sendIdempotent } from '../../../lib/idempotency.ts';
import { applicationKeys, applicationPath } from './keys.ts';
import { answered, requestKey } from './request-key.ts';

export const submitApplication = (id: string, input: SubmitApplication, key: string) =>
  api(`${applicationPath(id)}/submit`, SubmissionReceiptSchema, {
    method: 'POST',
    body: input,
    headers: { [IDEMPOTENCY_KEY_HEADER]: key },
  });

/** Submits once: a double click or a retry after a time-out carries the same key and gets one receipt. */
export function useSubmitApplication(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SubmitApplication) => {
      const scope = `submit.${id}`;
      try {
        const key = requestKey(scope, { payload: JSON.stringify(input) });
        const receipt = await sendIdempotent(() => submitApplication(id, input, key));
        answered(scope);
        return receipt;
      } catch (error) {
        answered(scope, error);
        throw error;
      }
    },
    onSuccess: (receipt) => {
      queryClient.setQueryData(applicationKeys.submission(id), receipt);
      // The submitted view finds the receipt through the start context: it must show submitted at once.
      queryClient.setQueryData<ApplyContext>(applicationKeys.context(receipt.partner_id), (context) =>
        context?.application
          ? {
              ...context,
              application: {
                ...context.application,
                status: 'submitted',
                reference: receipt.reference,
                submitted_at: receipt.submitted_at,
              },
            }
          : context,
      );
      void queryClient.invalidateQueries({ queryKey: applicationKeys.all });
    },
  });
}
