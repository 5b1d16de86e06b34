import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AssignTicketSchema,
  AttachableDocumentSchema,
  CreateTicketSchema,
  SendMessageSchema,
  SupportAgentSchema,
  SupportConversationSchema,
  SupportInboxQuerySchema,
  SupportMessageSchema,
  SupportTicketPageSchema,
  SupportTicketSchema,
  TicketIdParamsSchema,
  TicketMessagesQuerySchema,
  dataEnvelope,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { requireUserType } from '../auth/index.ts';
import {
  assignTicket,
  closeTicket,
  createTicket,
  listAgents,
  listAttachableDocuments,
  listInbox,
  listOwnTickets,
  markRead,
  readConversation,
  sendMessage,
  studentActor,
  type TeamActor,
} from './support.service.ts';

const tags = ['support'];
const ticket = { 200: dataEnvelope(SupportTicketSchema) };
const conversation = { 200: dataEnvelope(SupportConversationSchema) };
const message = { 201: dataEnvelope(SupportMessageSchema) };

/**
 * Support tickets. Students reach their own tickets under /support (another student's ticket is 404);
 * admins, the support team, reach every ticket under /admin/support. Guards run before validation, so a
 * caller of the wrong type learns nothing about the inputs.
 */
export const supportRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  await app.register(async (scope) => {
    const student = scope.withTypeProvider<ZodTypeProvider>();
    student.addHook('preValidation', requireUserType('student'));
    const actorOf = (userId: string) => studentActor(db, userId);

    student.get(
      '/support/tickets',
      { schema: { tags, response: { 200: dataEnvelope(z.array(SupportTicketSchema)) } } },
      async (request) => {
        const actor = await actorOf(request.user!.id);
        return { data: await listOwnTickets(db, actor) };
      },
    );

    student.post(
      '/support/tickets',
      { schema: { tags, body: CreateTicketSchema, response: { 201: dataEnvelope(SupportConversationSchema) } } },
      async (request, reply) => {
        const actor = await actorOf(request.user!.id);
        reply.code(201);
        return { data: await createTicket(db, actor, request.body) };
      },
    );

    student.get(
      '/support/documents',
      { schema: { tags, response: { 200: dataEnvelope(z.array(AttachableDocumentSchema)) } } },
      async (request) => {
        const actor = await actorOf(request.user!.id);
        return { data: await listAttachableDocuments(db, actor.studentId) };
      },
    );

    student.get(
      '/support/tickets/:id',
      {
        schema: { tags, params: TicketIdParamsSchema, querystring: TicketMessagesQuerySchema, response: conversation },
      },
      async (request) => ({
        data: await readConversation(db, await actorOf(request.user!.id), request.params.id, request.query.before),
      }),
    );

    student.post(
      '/support/tickets/:id/messages',
      { schema: { tags, params: TicketIdParamsSchema, body: SendMessageSchema, response: message } },
      async (request, reply) => {
        const data = await sendMessage(db, await actorOf(request.user!.id), request.params.id, request.body);
        reply.code(201);
        return { data };
      },
    );

    student.post(
      '/support/tickets/:id/resolve',
      { schema: { tags, params: TicketIdParamsSchema, response: ticket } },
      async (request) => ({ data: await closeTicket(db, await actorOf(request.user!.id), request.params.id) }),
    );

    student.post(
      '/support/tickets/:id/read',
      { schema: { tags, params: TicketIdParamsSchema, response: ticket } },
      async (request) => ({ data: await markRead(db, await actorOf(request.user!.id), request.params.id) }),
    );
  });

  await app.register(async (scope) => {
    const team = scope.withTypeProvider<ZodTypeProvider>();
    team.addHook('preValidation', requireUserType('admin'));
    const actorOf = (userId: string): TeamActor => ({ side: 'team', userId });

    team.get(
      '/admin/support/tickets',
      {
        schema: {
          tags,
          querystring: SupportInboxQuerySchema,
          response: { 200: dataEnvelope(SupportTicketPageSchema) },
        },
      },
      async (request) => ({ data: await listInbox(db, request.user!.id, request.query) }),
    );

    team.get(
      '/admin/support/agents',
      { schema: { tags, response: { 200: dataEnvelope(z.array(SupportAgentSchema)) } } },
      async () => ({ data: await listAgents(db) }),
    );

    team.get(
      '/admin/support/tickets/:id',
      {
        schema: { tags, params: TicketIdParamsSchema, querystring: TicketMessagesQuerySchema, response: conversation },
      },
      async (request) => ({
        data: await readConversation(db, actorOf(request.user!.id), request.params.id, request.query.before),
      }),
    );

    team.post(
      '/admin/support/tickets/:id/messages',
      { schema: { tags, params: TicketIdParamsSchema, body: SendMessageSchema, response: message } },
      async (request, reply) => {
        const data = await sendMessage(db, actorOf(request.user!.id), request.params.id, request.body);
        reply.code(201);
        return { data };
      },
    );

    team.post(
      '/admin/support/tickets/:id/assign',
      { schema: { tags, params: TicketIdParamsSchema, body: AssignTicketSchema, response: ticket } },
      async (request) => ({
        data: await assignTicket(db, actorOf(request.user!.id), request.params.id, request.body.admin_id),
      }),
    );

    team.post(
      '/admin/support/tickets/:id/close',
      { schema: { tags, params: TicketIdParamsSchema, response: ticket } },
      async (request) => ({ data: await closeTicket(db, actorOf(request.user!.id), request.params.id) }),
    );

    team.post(
      '/admin/support/tickets/:id/read',
      { schema: { tags, params: TicketIdParamsSchema, response: ticket } },
      async (request) => ({ data: await markRead(db, actorOf(request.user!.id), request.params.id) }),
    );
  });
};
