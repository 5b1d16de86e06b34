import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ReviewDecisionSchema, type DecisionDraftInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { reviewKeys, submissionPath } from './keys.ts';

export const saveDecision = (partnerId: string, submissionId: string, draft: DecisionDraftInput) =>
  api(submissionPath(partnerId, submissionId, '/decision'), ReviewDecisionSchema, { method: 'PUT', body: draft });

/** Drafts or changes the decision; a released waitlisted decision changed this way is released at once. */
export function useSaveDecision(partnerId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: DecisionDraftInput) => saveDecision(partnerId, submissionId, draft),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.application(partnerId, submissionId) }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.queues(partnerId) }),
      ]),
  });
}
