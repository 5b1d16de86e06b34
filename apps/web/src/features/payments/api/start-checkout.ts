import { useMutation } from '@tanstack/react-query';
import { CheckoutStartedSchema, IDEMPOTENCY_KEY_HEADER } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { sendIdempotent } from '../../../lib/idempotency.ts';

/** Opens a new checkout of an application's fee (after a declined attempt); one key per attempt. */
export const startCheckout = (applicationId: string, idempotencyKey: string) =>
  api(`/applications/${encodeURIComponent(applicationId)}/payment`, CheckoutStartedSchema, {
    method: 'POST',
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });

export function useStartCheckout() {
  return useMutation({
    mutationFn: ({ applicationId, idempotencyKey }: { applicationId: string; idempotencyKey: string }) =>
      sendIdempotent(() => startCheckout(applicationId, idempotencyKey)),
  });
}
