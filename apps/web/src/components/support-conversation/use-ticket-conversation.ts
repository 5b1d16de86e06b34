import { useInfiniteQuery, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import {
  SupportConversationSchema,
  SupportMessageSchema,
  SupportTicketSchema,
  type SendMessage,
  type SupportConversation,
} from '@kaminuza/shared';
import { api } from '../../lib/api-client.ts';

/*
 * A support ticket's conversation, for the student's page and the support team's inbox alike (`path` is
 * the ticket's path on either side). Every key sits under ['messaging', ...], which the realtime client
 * refreshes on each event.
 */

/**
 * A conversation, as pages of messages: the newest page first, then older ones on demand. Shared by the
 * student's page and the admin inbox (`base` is the path of the ticket, `key` its query key).
 */
export function useConversationPages(key: QueryKey, path: string | null) {
  return useInfiniteQuery({
    queryKey: key,
    enabled: path !== null,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api(`${path}${pageParam ? `?before=${encodeURIComponent(pageParam)}` : ''}`, SupportConversationSchema, {
        signal,
      }),
    getNextPageParam: (page: SupportConversation) => page.older_cursor ?? undefined,
  });
}

/** Sends on a conversation (`path` is the ticket's path, student's or admin's); refetches it once stored. */
export function useSendMessage(key: QueryKey, path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendMessage) => api(`${path}/messages`, SupportMessageSchema, { method: 'POST', body: input }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['messaging'] }),
    mutationKey: [...key, 'send'],
  });
}

/** A state change of the ticket (resolve, close, read, assign), then everything messaging is refetched. */
export function useTicketAction(path: string, action: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body?: object) =>
      api(`${path}/${action}`, SupportTicketSchema, { method: 'POST', ...(body ? { body } : {}) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['messaging'] }),
  });
}
