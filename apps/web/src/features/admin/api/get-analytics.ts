import { queryOptions, useQuery } from '@tanstack/react-query';
import { AdminAnalyticsSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY } from './query-string.ts';

export const getAnalytics = (signal?: AbortSignal) => api('/admin/analytics', AdminAnalyticsSchema, { signal });

export const analyticsQuery = () =>
  queryOptions({ queryKey: [...ADMIN_QUERY_KEY, 'analytics'], queryFn: ({ signal }) => getAnalytics(signal) });

export function useAnalytics() {
  return useQuery(analyticsQuery());
}
