import { z } from 'zod';
import { SUPPORT_MESSAGES } from '../messages.ts';

/*
 * Conversations (spec sections 3, 4 and 8): a student's support tickets with the support team, and a
 * student's chats with institutions. Text only (rendered as text, never HTML), stored before it is
 * acknowledged, pushed live to every open tab of each participant.
 */

export const MESSAGE_MAX_LENGTH = 4000;
export const SUBJECT_MAX_LENGTH = 160;
/** A page of messages, oldest first; older pages are fetched before a cursor. */
export const MESSAGE_PAGE_SIZE = 50;
/** A reply nobody has read after this long is emailed (if the recipient's preferences allow). */
export const UNREAD_EMAIL_DELAY_MS = 5 * 60_000;

const body = z
  .string({ error: SUPPORT_MESSAGES.message_required })
  .trim()
  .min(1, SUPPORT_MESSAGES.message_required)
  .max(MESSAGE_MAX_LENGTH, SUPPORT_MESSAGES.message_too_long);

export const SendMessageSchema = z.object({
  body,
  /** Support only: one of the student's own profile documents, shared with the team. */
  document_id: z.uuid().nullable().optional(),
});
export type SendMessage = z.infer<typeof SendMessageSchema>;

export const CreateTicketSchema = z.object({
  subject: z.string().trim().max(SUBJECT_MAX_LENGTH, SUPPORT_MESSAGES.subject_too_long).default(''),
  body,
  document_id: z.uuid().nullable().optional(),
});
export type CreateTicket = z.infer<typeof CreateTicketSchema>;

export const TICKET_STATUSES = ['open', 'closed'] as const;

export const SupportMessageSchema = z.object({
  id: z.uuid(),
  ticket_id: z.uuid(),
  sender_side: z.enum(['student', 'team']),
  sender_name: z.string().nullable(),
  body: z.string(),
  document: z.object({ id: z.uuid(), type: z.string(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export type SupportMessage = z.infer<typeof SupportMessageSchema>;

export const SupportTicketSchema = z.object({
  id: z.uuid(),
  subject: z.string(),
  status: z.enum(TICKET_STATUSES),
  closed_by: z.enum(['student', 'team']).nullable(),
  closed_at: z.string().nullable(),
  student_name: z.string().nullable(),
  assigned_to: z.uuid().nullable(),
  assigned_name: z.string().nullable(),
  last_message_at: z.string(),
  /** Messages from the other side after the reader's last read. */
  unread: z.int(),
  /** When the other side last read the conversation (read receipts). */
  other_read_at: z.string().nullable(),
  created_at: z.string(),
});
export type SupportTicket = z.infer<typeof SupportTicketSchema>;

export const ChatMessageSchema = z.object({
  id: z.uuid(),
  chat_id: z.uuid(),
  sender_side: z.enum(['student', 'partner']),
  sender_name: z.string().nullable(),
  body: z.string(),
  created_at: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const ChatSchema = z.object({
  id: z.uuid(),
  partner_id: z.uuid(),
  partner_name: z.string(),
  student_name: z.string().nullable(),
  last_message_at: z.string(),
  last_message: z.string().nullable(),
  unread: z.int(),
  other_read_at: z.string().nullable(),
  created_at: z.string(),
});
export type Chat = z.infer<typeof ChatSchema>;

/** A student starts (or reopens) their conversation with a listed institution. */
export const StartChatSchema = z.object({ partner_id: z.uuid() });
export type StartChat = z.infer<typeof StartChatSchema>;

/** A page of a conversation's messages, oldest first; `has_more` when older ones remain before it. */
export const ChatMessagePageSchema = z.object({ messages: z.array(ChatMessageSchema), has_more: z.boolean() });
export type ChatMessagePage = z.infer<typeof ChatMessagePageSchema>;

/** Older messages than the one named by `before` (a message id); the newest page without it. */
export const MessagePageQuerySchema = z.object({ before: z.uuid().optional() });

/** Unread counts for the navigation. */
export const UnreadCountsSchema = z.object({ support: z.int(), chats: z.int() });
export type UnreadCounts = z.infer<typeof UnreadCountsSchema>;

/**
 * What the realtime socket pushes: small notices, not the messages themselves (a NOTIFY payload is
 * limited), so each client refetches what changed — the same path it uses after a reconnect.
 */
export const RealtimeEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('support.message'), ticket_id: z.uuid() }),
  z.object({ type: z.literal('support.ticket'), ticket_id: z.uuid() }),
  z.object({ type: z.literal('support.read'), ticket_id: z.uuid() }),
  z.object({ type: z.literal('chat.message'), chat_id: z.uuid() }),
  z.object({ type: z.literal('chat.read'), chat_id: z.uuid() }),
  /** An application's fee payment was settled by its provider (paid or declined). */
  z.object({ type: z.literal('payment.updated'), application_id: z.uuid(), reference: z.string() }),
  /** A new in-app notification for this user (the bell refetches its count). */
  z.object({ type: z.literal('notification'), id: z.uuid() }),
]);
export type RealtimeEvent = z.infer<typeof RealtimeEventSchema>;
