import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BulkResultSchema, type BulkReview } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, reviewKeys } from './keys.ts';

export const bulkReview = (partnerId: string, action: BulkReview) =>
  api(partnerPath(partnerId, '/review/bulk'), BulkResultSchema, { method: 'POST', body: action });

/** Any application may have changed, open or listed, so every review query is refreshed. */
export function useBulkReview(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: BulkReview) => bulkReview(partnerId, action),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewKeys.all(partnerId) }),
  });
}
