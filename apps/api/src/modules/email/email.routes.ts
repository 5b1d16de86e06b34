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

  /*
   * A message's HTML as the document its preview frame loads. An email styles itself inline, which the
   * site's policy forbids and which a srcdoc frame would inherit: the message gets a policy of its own
   * that allows its styles and images and nothing else (no script, no form, no framing but by this site).
   */
  app.get(
    '/dev/mailbox/:id/html',
    { schema: { tags: ['dev'], summary: "A message's HTML, for its preview", params: DevMailboxParamsSchema } },
    async (request, reply) => {
      const message = await getDevMail(db, request.params.id);
      if (!message?.html) throw new AppError('NOT_FOUND');
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', MESSAGE_POLICY)
        .header('x-frame-options', 'SAMEORIGIN')
        .send(message.html);
    },
  );
};

const MESSAGE_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data: https:",
  "frame-ancestors 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  'sandbox',
].join('; ');
