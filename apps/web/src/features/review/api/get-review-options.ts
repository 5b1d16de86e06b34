import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, ReviewOptionsSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, reviewKeys } from './keys.ts';

export const getReviewOptions = (partnerId: string, signal?: AbortSignal) =>
  api(partnerPath(partnerId, '/review/options'), ReviewOptionsSchema, { signal });

export const reviewOptionsQuery = (partnerId: string) =>
  queryOptions({
    queryKey: reviewKeys.options(partnerId),
    queryFn: ({ signal }) => getReviewOptions(partnerId, signal),
    staleTime: CACHE_TTL_MS.default,
  });

export function useReviewOptions(partnerId: string) {
  return useQuery({ ...reviewOptionsQuery(partnerId), enabled: partnerId !== '' });
}
