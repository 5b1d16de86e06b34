import { z } from 'zod';
import { SupportMessageSchema, SupportTicketSchema, TICKET_STATUSES } from './messaging.ts';

/*
 * The support slice's requests and answers, around the messaging schemas: a conversation with a page of
 * its messages, the admin inbox's filters, and assignment to a support agent (an admin).
 */

export const TicketIdParamsSchema = z.object({ id: z.uuid() });

/** Older messages are fetched before this cursor (the oldest message already shown). */
export const TicketMessagesQuerySchema = z.object({ before: z.uuid().optional() });

export const SupportConversationSchema = z.object({
  ticket: SupportTicketSchema,
  /** Oldest first. */
  messages: z.array(SupportMessageSchema),
  /** Pass as `before` to read the page before these messages; null when there is none. */
  older_cursor: z.string().nullable(),
});
export type SupportConversation = z.infer<typeof SupportConversationSchema>;

export const SupportInboxQuerySchema = z.object({
  status: z.enum(TICKET_STATUSES).default('open'),
  /** Matches the subject or the student's name or email. */
  q: z.string().trim().max(100).optional(),
  /** Only the tickets assigned to the caller. */
  mine: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  page: z.coerce.number().int().min(1).max(1000).default(1),
});
/** The inbox query as a client sends it (the schema's input, with the page as a number). */
export type SupportInboxQuery = {
  status: (typeof TICKET_STATUSES)[number];
  q?: string | undefined;
  mine?: 'true' | 'false' | undefined;
  page: number;
};

export const SUPPORT_INBOX_PAGE_SIZE = 20;

export const SupportTicketPageSchema = z.object({
  items: z.array(SupportTicketSchema),
  total: z.int(),
  page: z.int(),
  page_size: z.int(),
});
export type SupportTicketPage = z.infer<typeof SupportTicketPageSchema>;

/** Assign to an admin (the caller or another), or null to leave the ticket unassigned. */
export const AssignTicketSchema = z.object({ admin_id: z.uuid().nullable() });
export type AssignTicket = z.infer<typeof AssignTicketSchema>;

export const SupportAgentSchema = z.object({ id: z.uuid(), name: z.string(), email: z.string() });
export type SupportAgent = z.infer<typeof SupportAgentSchema>;

/** A profile document the student may attach to a support message. */
export const AttachableDocumentSchema = z.object({ id: z.uuid(), type: z.string(), name: z.string() });
export type AttachableDocument = z.infer<typeof AttachableDocumentSchema>;
