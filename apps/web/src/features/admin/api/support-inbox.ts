import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { SupportAgentSchema, SupportTicketPageSchema, type SupportInboxQuery } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { useConversationPages } from '../../../components/support-conversation/use-ticket-conversation.ts';
import { queryString } from './query-string.ts';

/*
 * The support team's inbox. Its keys sit under ['messaging', 'support'] like the student's, so the
 * realtime client's invalidations refresh the inbox and the open conversation alike.
 */
export const inboxKeys = {
  list: (params: SupportInboxQuery) => ['messaging', 'support', 'inbox', params] as const,
  ticket: (id: string) => ['messaging', 'support', 'inbox-ticket', id] as const,
  agents: ['messaging', 'support', 'agents'] as const,
};

export const adminTicketPath = (id: string) => `/admin/support/tickets/${encodeURIComponent(id)}`;

export function useSupportInbox(params: SupportInboxQuery) {
  return useQuery({
    queryKey: inboxKeys.list(params),
    queryFn: ({ signal }) => api(`/admin/support/tickets${queryString(params)}`, SupportTicketPageSchema, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useInboxConversation(id: string) {
  return useConversationPages(inboxKeys.ticket(id), adminTicketPath(id));
}

export function useSupportAgents() {
  return useQuery({
    queryKey: inboxKeys.agents,
    queryFn: ({ signal }) => api('/admin/support/agents', z.array(SupportAgentSchema), { signal }),
    staleTime: 5 * 60_000,
  });
}
