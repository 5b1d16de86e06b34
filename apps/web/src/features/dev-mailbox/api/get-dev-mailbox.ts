import { queryOptions, useQuery } from '@tanstack/react-query';
import { DevMailboxListSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getDevMailbox = (signal?: AbortSignal) => api('/dev/mailbox', DevMailboxListSchema, { signal });

/** Always refetched: new mail arrives while the page is open. */
export const devMailboxQuery = () =>
  queryOptions({ queryKey: ['dev-mailbox'], queryFn: ({ signal }) => getDevMailbox(signal), staleTime: 0 });

export function useDevMailbox() {
  return useQuery({ ...devMailboxQuery(), refetchInterval: 5_000 });
}
