import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ScoreResultSchema, type ScoreInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { reviewKeys, submissionPath } from './keys.ts';

export const saveScore = (partnerId: string, submissionId: string, score: ScoreInput) =>
  api(submissionPath(partnerId, submissionId, '/score'), ScoreResultSchema, { method: 'PUT', body: score });

/** A score changes the average, maybe an automatic decision, and the queue's score column. */
export function useSaveScore(partnerId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (score: ScoreInput) => saveScore(partnerId, submissionId, score),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.application(partnerId, submissionId) }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.queues(partnerId) }),
      ]),
  });
}
