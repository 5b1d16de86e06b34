import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChatMessagePageSchema,
  ChatMessageSchema,
  ChatSchema,
  dataEnvelope,
  MessagePageQuerySchema,
  SendMessageSchema,
  StartChatSchema,
  type StaffPermission,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { requireUserType } from '../auth/index.ts';
import { staffGuard } from '../partners/index.ts';
import {
  getChat,
  listChats,
  listMessages,
  markRead,
  sendMessage,
  startChat,
  studentViewer,
  type ChatViewer,
} from './chats.service.ts';

export interface ChatsRoutesOptions {
  db: Db;
}

const MESSAGE_APPLICANTS = ['message_applicants'] as const satisfies readonly StaffPermission[];

const ChatParamsSchema = z.object({ chatId: z.uuid() });
const PartnerParamsSchema = z.object({ partnerId: z.uuid() });
const PartnerChatParamsSchema = PartnerParamsSchema.extend({ chatId: z.uuid() });

/** Chat bodies are text only: the document field of the shared schema belongs to support tickets. */
const ChatMessageInputSchema = SendMessageSchema.pick({ body: true });

/** The staff member behind a request that passed staffGuard, as a chat viewer. */
function staffViewer(request: FastifyRequest): ChatViewer {
  if (!request.staff || !request.user) throw new Error('staffGuard did not run');
  return { side: 'partner', userId: request.user.id, partnerId: request.staff.partnerId };
}

/**
 * Conversations between students and institutions (spec sections 2–4). A student writes to a listed
 * institution from its page; the institution's members holding message_applicants (or 'all') answer
 * from their inbox. Either side reaches only its own conversations: others answer 404.
 */
export const chatsRoutes: FastifyPluginAsyncZod<ChatsRoutesOptions> = async (app, { db }) => {
  const tags = ['chats'];
  const student = requireUserType('student');
  const messagingStaff = staffGuard(db, MESSAGE_APPLICANTS);
  const asStudent = (request: FastifyRequest) => studentViewer(db, request.user!.id);

  /* ------------------------------------------------------------ student */

  app.get(
    '/students/me/chats',
    {
      preValidation: student,
      schema: {
        tags,
        summary: "The student's conversations with institutions, latest first",
        response: { 200: dataEnvelope(z.array(ChatSchema)) },
      },
    },
    async (request) => ({ data: await listChats(db, await asStudent(request)) }),
  );

  app.post(
    '/students/me/chats',
    {
      preValidation: student,
      schema: {
        tags,
        summary: 'Starts, or returns, the conversation with an institution',
        description: 'Only approved and published institutions take messages (403 otherwise). Idempotent.',
        body: StartChatSchema,
        response: { 200: dataEnvelope(ChatSchema) },
      },
    },
    async (request) => ({ data: await startChat(db, request.user!.id, request.body.partner_id) }),
  );

  app.get(
    '/students/me/chats/:chatId',
    {
      preValidation: student,
      schema: {
        tags,
        summary: 'One conversation',
        params: ChatParamsSchema,
        response: { 200: dataEnvelope(ChatSchema) },
      },
    },
    async (request) => ({ data: await getChat(db, await asStudent(request), request.params.chatId) }),
  );

  app.get(
    '/students/me/chats/:chatId/messages',
    {
      preValidation: student,
      schema: {
        tags,
        summary: 'A page of messages, oldest first (pass `before` to read older ones)',
        params: ChatParamsSchema,
        querystring: MessagePageQuerySchema,
        response: { 200: dataEnvelope(ChatMessagePageSchema) },
      },
    },
    async (request) => ({
      data: await listMessages(db, await asStudent(request), request.params.chatId, request.query.before),
    }),
  );

  app.post(
    '/students/me/chats/:chatId/messages',
    {
      preValidation: student,
      schema: {
        tags,
        summary: 'Sends a message to the institution',
        description: 'Stored before it is answered; at most 30 a minute per user (429 with Retry-After).',
        params: ChatParamsSchema,
        body: ChatMessageInputSchema,
        response: { 201: dataEnvelope(ChatMessageSchema) },
      },
    },
    async (request, reply) => {
      const message = await sendMessage(db, await asStudent(request), request.params.chatId, request.body.body);
      return reply.code(201).send({ data: message });
    },
  );

  app.post(
    '/students/me/chats/:chatId/read',
    {
      preValidation: student,
      schema: {
        tags,
        summary: 'Marks the conversation read by the student',
        params: ChatParamsSchema,
        response: { 200: dataEnvelope(ChatSchema) },
      },
    },
    async (request) => ({ data: await markRead(db, await asStudent(request), request.params.chatId) }),
  );

  /* -------------------------------------------------------------- staff */

  app.get(
    '/partners/:partnerId/chats',
    {
      preHandler: messagingStaff,
      schema: {
        tags,
        summary: "The institution's conversations with students, latest first",
        description: 'Needs message_applicants. Conversations no student has written in yet are left out.',
        params: PartnerParamsSchema,
        response: { 200: dataEnvelope(z.array(ChatSchema)) },
      },
    },
    async (request) => ({ data: await listChats(db, staffViewer(request)) }),
  );

  app.get(
    '/partners/:partnerId/chats/:chatId',
    {
      preHandler: messagingStaff,
      schema: {
        tags,
        summary: 'One conversation of the institution',
        params: PartnerChatParamsSchema,
        response: { 200: dataEnvelope(ChatSchema) },
      },
    },
    async (request) => ({ data: await getChat(db, staffViewer(request), request.params.chatId) }),
  );

  app.get(
    '/partners/:partnerId/chats/:chatId/messages',
    {
      preHandler: messagingStaff,
      schema: {
        tags,
        summary: 'A page of messages, oldest first (pass `before` to read older ones)',
        params: PartnerChatParamsSchema,
        querystring: MessagePageQuerySchema,
        response: { 200: dataEnvelope(ChatMessagePageSchema) },
      },
    },
    async (request) => ({
      data: await listMessages(db, staffViewer(request), request.params.chatId, request.query.before),
    }),
  );

  app.post(
    '/partners/:partnerId/chats/:chatId/messages',
    {
      preHandler: messagingStaff,
      schema: {
        tags,
        summary: 'Replies to the student on behalf of the institution',
        params: PartnerChatParamsSchema,
        body: ChatMessageInputSchema,
        response: { 201: dataEnvelope(ChatMessageSchema) },
      },
    },
    async (request, reply) => {
      const message = await sendMessage(db, staffViewer(request), request.params.chatId, request.body.body);
      return reply.code(201).send({ data: message });
    },
  );

  app.post(
    '/partners/:partnerId/chats/:chatId/read',
    {
      preHandler: messagingStaff,
      schema: {
        tags,
        summary: 'Marks the conversation read by the institution',
        params: PartnerChatParamsSchema,
        response: { 200: dataEnvelope(ChatSchema) },
      },
    },
    async (request) => ({ data: await markRead(db, staffViewer(request), request.params.chatId) }),
  );
};
