import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ChatMessagePageSchema, ChatMessageSchema, ChatSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { chatKeys, type ChatEndpoint } from './keys.ts';

/** The conversation's summary: names, unread count and the other side's read receipt. */
export function useChat(endpoint: ChatEndpoint) {
  return useQuery({
    queryKey: chatKeys.chat(endpoint.chatId),
    queryFn: ({ signal }) => api(endpoint.base, ChatSchema, { signal }),
  });
}

/**
 * The messages, newest page first and older pages fetched on demand (cursor: the oldest message of
 * the last page). When the realtime client invalidates it, the newest page is fetched again first,
 * so arriving messages show at once.
 */
export function useChatMessages(endpoint: ChatEndpoint) {
  return useInfiniteQuery({
    queryKey: chatKeys.messages(endpoint.chatId),
    queryFn: ({ pageParam, signal }) =>
      api(
        `${endpoint.base}/messages${pageParam ? `?before=${encodeURIComponent(pageParam)}` : ''}`,
        ChatMessagePageSchema,
        { signal },
      ),
    initialPageParam: '' as string,
    getNextPageParam: (last) => (last.has_more && last.messages[0] ? last.messages[0].id : undefined),
  });
}

export function useSendChatMessage(endpoint: ChatEndpoint) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) =>
      api(`${endpoint.base}/messages`, ChatMessageSchema, { method: 'POST', body: { body } }),
    // The conversation, its lists and the unread counts all moved.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['messaging'] }),
  });
}

export function useMarkChatRead(endpoint: ChatEndpoint) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(`${endpoint.base}/read`, ChatSchema, { method: 'POST' }),
    onSuccess: (chat) => {
      queryClient.setQueryData(chatKeys.chat(endpoint.chatId), chat);
      // Lists and navigation badges count this conversation's unread messages.
      void queryClient.invalidateQueries({ queryKey: chatKeys.studentList() });
      void queryClient.invalidateQueries({ queryKey: ['messaging', 'unread'] });
      void queryClient.invalidateQueries({ queryKey: chatKeys.inbox(chat.partner_id) });
    },
  });
}
