import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@kaminuza/shared';
import type { Db } from '../db/client.ts';
import { passReplyDeadline } from '../modules/decisions/index.ts';

/**
 * The development clock (DEV_CLOCK, never in production): moves one released, unanswered offer past its
 * reply deadline as if the days had gone by, then runs the lapse pass the minute job runs, so a test or a
 * demonstration sees the lapse, the emails and the waiting list's next applicant without waiting. Only that
 * offer's deadline moves: the server's clock, and every other offer, stay as they are.
 */
export const offerClockRoutes: FastifyPluginAsyncZod<{ db: Db; publicUrl: string; enabled: boolean }> = async (
  app,
  { db, publicUrl, enabled },
) => {
  if (!enabled) return;
  app.post(
    '/dev/offers/:submissionId/pass-deadline',
    {
      schema: {
        tags: ['dev'],
        summary: "Development only: this offer's reply deadline passes now, and the lapse pass runs",
        params: z.object({ submissionId: z.uuid() }),
        response: { 200: dataEnvelope(z.object({ lapsed: z.int() })) },
      },
    },
    async (request) => ({ data: { lapsed: await passReplyDeadline(db, request.params.submissionId, publicUrl) } }),
  );
};
