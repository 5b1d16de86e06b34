import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { JoinWaitlistSchema, WaitlistEntrySchema, dataEnvelope } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { joinWaitlist } from './waitlist.service.ts';

/** Anonymous. 201 for a new entry, 200 when the email was already on the list. */
export const waitlistRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const entry = dataEnvelope(WaitlistEntrySchema);
  app.post(
    '/waitlist',
    { schema: { tags: ['waitlist'], body: JoinWaitlistSchema, response: { 200: entry, 201: entry } } },
    async (request, reply) => {
      const joined = await joinWaitlist(db, request.body);
      return reply.code(joined.already_joined ? 200 : 201).send({ data: joined });
    },
  );
};
