import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { QUERY_CACHE } from '@kaminuza/shared';
import { ApiError } from './api-client.ts';
import { sessionQuery } from './session.tsx';

/**
 * A call refused for want of a session while one is cached: it ended elsewhere (signed out on another
 * tab, or revoked when an administrator deactivated the member), so the cached one is stale.
 */
const sessionEnded = (error: unknown) => error instanceof ApiError && error.status === 'UNAUTHENTICATED';

export function createQueryClient(): QueryClient {
  // Reading the session again lets the route guards send the person where they now belong.
  const onError = (error: unknown) => {
    const signedIn = client.getQueryData(sessionQuery().queryKey);
    if (signedIn && sessionEnded(error)) void client.invalidateQueries({ queryKey: sessionQuery().queryKey });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: QUERY_CACHE.staleTime,
        gcTime: QUERY_CACHE.gcTime,
        retry: QUERY_CACHE.retry,
        refetchOnWindowFocus: QUERY_CACHE.refetchOnWindowFocus,
      },
    },
  });
  return client;
}
