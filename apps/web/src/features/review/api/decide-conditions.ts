import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ReviewDecisionSchema, type ConditionsOutcome } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { reviewKeys, submissionPath } from './keys.ts';

export const decideConditions = (partnerId: string, submissionId: string, body: ConditionsOutcome) =>
  api(submissionPath(partnerId, submissionId, '/decision/conditions'), ReviewDecisionSchema, {
    method: 'POST',
    body,
  });

/** Says whether a conditional offer's conditions were met: it becomes unconditional, or it ends. */
export function useDecideConditions(partnerId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConditionsOutcome) => decideConditions(partnerId, submissionId, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.application(partnerId, submissionId) }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.queues(partnerId) }),
      ]),
  });
}
