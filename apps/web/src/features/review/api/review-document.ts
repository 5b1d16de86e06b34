import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ReviewDocumentSchema, type DocumentReview } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { reviewKeys, submissionPath } from './keys.ts';

export const reviewDocument = (partnerId: string, submissionId: string, documentId: string, review: DocumentReview) =>
  api(
    submissionPath(partnerId, submissionId, `/documents/${encodeURIComponent(documentId)}/review`),
    ReviewDocumentSchema,
    { method: 'POST', body: review },
  );

export function useReviewDocument(partnerId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ documentId, review }: { documentId: string; review: DocumentReview }) =>
      reviewDocument(partnerId, submissionId, documentId, review),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.application(partnerId, submissionId) }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.queues(partnerId) }),
      ]),
  });
}
