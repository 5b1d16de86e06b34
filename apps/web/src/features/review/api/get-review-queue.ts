import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, ReviewQueuePageSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, reviewKeys } from './keys.ts';

/** `query` is the query string the queue page built from its address (see queue-query.ts). */
export const getReviewQueue = (partnerId: string, query: string, signal?: AbortSignal) =>
  api(partnerPath(partnerId, `/review/submissions${query ? `?${query}` : ''}`), ReviewQueuePageSchema, { signal });

export const reviewQueueQuery = (partnerId: string, query: string) =>
  queryOptions({
    queryKey: reviewKeys.queue(partnerId, query),
    queryFn: ({ signal }) => getReviewQueue(partnerId, query, signal),
    staleTime: CACHE_TTL_MS.answers,
  });

/** The previous page stays on screen while the next one loads, so paging and sorting do not flash. */
export function useReviewQueue(partnerId: string, query: string) {
  return useQuery({
    ...reviewQueueQuery(partnerId, query),
    enabled: partnerId !== '',
    placeholderData: keepPreviousData,
  });
}

/** The CSV export of every row matching the filters (the page and its size do not apply). */
export const reviewExportUrl = (partnerId: string, query: string) =>
  `/api/v1${partnerPath(partnerId, `/review/submissions.csv${query ? `?${query}` : ''}`)}`;
