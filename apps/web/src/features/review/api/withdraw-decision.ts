import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { reviewKeys, submissionPath } from './keys.ts';

export const withdrawDecision = (partnerId: string, submissionId: string) =>
  api(submissionPath(partnerId, submissionId, '/decision'), z.undefined(), { method: 'DELETE' });

export function useWithdrawDecision(partnerId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => withdrawDecision(partnerId, submissionId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.application(partnerId, submissionId) }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.queues(partnerId) }),
      ]),
  });
}
