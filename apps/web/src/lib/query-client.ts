import { QueryClient } from '@tanstack/react-query';
import { QUERY_CACHE } from '@kaminuza/shared';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: QUERY_CACHE.staleTime,
        gcTime: QUERY_CACHE.gcTime,
        retry: QUERY_CACHE.retry,
        refetchOnWindowFocus: QUERY_CACHE.refetchOnWindowFocus,
      },
    },
  });
}
