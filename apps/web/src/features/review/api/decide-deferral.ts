import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ReviewDecisionSchema, type DeferralOutcomeInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { reviewKeys, submissionPath } from './keys.ts';

export const decideDeferral = (partnerId: string, submissionId: string, body: DeferralOutcomeInput) =>
  api(submissionPath(partnerId, submissionId, '/decision/deferral'), ReviewDecisionSchema, {
    method: 'POST',
    body,
  });

/** Approves or declines the applicant's request to defer their offer (ADR 053), with a note to them. */
export function useDecideDeferral(partnerId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeferralOutcomeInput) => decideDeferral(partnerId, submissionId, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.application(partnerId, submissionId) }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.queues(partnerId) }),
      ]),
  });
}
