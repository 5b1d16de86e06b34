import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AttachableDocumentSchema,
  SupportConversationSchema,
  SupportTicketSchema,
  type CreateTicket,
} from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { useConversationPages } from '../../../components/support-conversation/use-ticket-conversation.ts';

/*
 * The student's side of support. Every key sits under ['messaging', ...]: the realtime client
 * invalidates that subtree on each event and after a reconnect, so these screens stay current without
 * any socket code of their own.
 */
export const supportKeys = {
  all: ['messaging', 'support'] as const,
  tickets: ['messaging', 'support', 'tickets'] as const,
  ticket: (id: string) => ['messaging', 'support', 'ticket', id] as const,
  documents: ['messaging', 'support', 'documents'] as const,
};

const ticketPath = (id: string) => `/support/tickets/${encodeURIComponent(id)}`;

export function useTickets() {
  return useQuery({
    queryKey: supportKeys.tickets,
    queryFn: ({ signal }) => api('/support/tickets', z.array(SupportTicketSchema), { signal }),
  });
}

export function useConversation(id: string | null) {
  return useConversationPages(supportKeys.ticket(id ?? ''), id ? ticketPath(id) : null);
}

export function useAttachableDocuments() {
  return useQuery({
    queryKey: supportKeys.documents,
    queryFn: ({ signal }) => api('/support/documents', z.array(AttachableDocumentSchema), { signal }),
  });
}

export function useCreateTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateTicket) =>
      api('/support/tickets', SupportConversationSchema, { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['messaging'] }),
  });
}

export const studentTicketPath = ticketPath;
