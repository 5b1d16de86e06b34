import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AttachableDocumentSchema,
  SupportConversationSchema,
  SupportMessageSchema,
  SupportTicketSchema,
  type CreateTicket,
  type SendMessage,
  type SupportConversation,
} from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

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

export const studentTicketPath = ticketPath;
