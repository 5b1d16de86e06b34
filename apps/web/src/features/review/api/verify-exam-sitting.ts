import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ExamSittingSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { reviewKeys, submissionPath } from './keys.ts';

export const verifyExamSitting = (partnerId: string, submissionId: string, sittingId: string) =>
  api(
    submissionPath(partnerId, submissionId, `/exam-sittings/${encodeURIComponent(sittingId)}/verify`),
    z.array(ExamSittingSchema),
    { method: 'POST' },
  );

/** Verifies one of the applicant's examination results against its document. */
export function useVerifyExamSitting(partnerId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sittingId: string) => verifyExamSitting(partnerId, submissionId, sittingId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.application(partnerId, submissionId) }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.queues(partnerId) }),
      ]),
  });
}
