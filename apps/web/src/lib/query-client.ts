import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { PARTNER_MESSAGES, QUERY_CACHE } from '@kaminuza/shared';
import { ApiError } from './api-client.ts';
import { sessionQuery } from './session.tsx';

/**
 * A call refused because the session ended (signed out elsewhere, or revoked when an administrator
 * deactivated the member) or because the member's access was turned off: the cached session is stale.
 */
function sessionChanged(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 'UNAUTHENTICATED' ||
      (error.status === 'PERMISSION_DENIED' && error.message === PARTNER_MESSAGES.membership_inactive))
  );
}

export function createQueryClient(): QueryClient {
  // Reading the session again lets the route guards send the person where they now belong.
  const onError = (error: unknown) => {
    const signedIn = client.getQueryData(sessionQuery().queryKey);
    if (signedIn && sessionChanged(error)) void client.invalidateQueries({ queryKey: sessionQuery().queryKey });
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
