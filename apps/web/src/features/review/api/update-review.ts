import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ReviewApplicationSchema, type ReviewUpdate } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { reviewKeys, submissionPath } from './keys.ts';

export const updateReview = (partnerId: string, submissionId: string, update: ReviewUpdate) =>
  api(submissionPath(partnerId, submissionId), ReviewApplicationSchema, { method: 'PATCH', body: update });

/** The answer is the whole application, which replaces the cached one; the queue shows stage and assignee too. */
export function useUpdateReview(partnerId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: ReviewUpdate) => updateReview(partnerId, submissionId, update),
    onSuccess: (application) => {
      queryClient.setQueryData(reviewKeys.application(partnerId, submissionId), application);
      return queryClient.invalidateQueries({ queryKey: reviewKeys.queues(partnerId) });
    },
  });
}
