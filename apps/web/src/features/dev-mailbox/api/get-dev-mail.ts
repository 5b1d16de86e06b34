import { queryOptions, useQuery } from '@tanstack/react-query';
import { DevMailboxMessageSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getDevMail = (id: string, signal?: AbortSignal) =>
  api(`/dev/mailbox/${encodeURIComponent(id)}`, DevMailboxMessageSchema, { signal });

/** A stored message never changes, so it stays fresh once loaded. */
export const devMailQuery = (id: string) =>
  queryOptions({
    queryKey: ['dev-mailbox', id],
    queryFn: ({ signal }) => getDevMail(id, signal),
    staleTime: Infinity,
  });

export function useDevMail(id: string | null) {
  return useQuery({ ...devMailQuery(id ?? ''), enabled: id !== null });
}
