import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DevMailboxListSchema, DevMailboxMessageSchema, DevMailboxParamsSchema, dataEnvelope } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { getDevMail, listDevMail } from './dev-mailbox.service.ts';

/**
 * The dev mailbox: anonymous, and registered only while the mailbox is the mail transport (never in
 * production), so everywhere else these paths answer the ordinary 404.
 */
export const devMailboxRoutes: FastifyPluginAsyncZod<{ db: Db; enabled: boolean }> = async (app, { db, enabled }) => {
  if (!enabled) return;

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/dev/mailbox',
    { schema: { tags: ['dev'], response: { 200: dataEnvelope(DevMailboxListSchema) } } },
    async () => ({ data: await listDevMail(db) }),
  );

  app.get(
    '/dev/mailbox/:id',
    {
      schema: {
        tags: ['dev'],
        params: DevMailboxParamsSchema,
        response: { 200: dataEnvelope(DevMailboxMessageSchema) },
      },
    },
    async (request) => {
      const message = await getDevMail(db, request.params.id);
      if (!message) throw new AppError('NOT_FOUND');
      return { data: message };
    },
  );
};
