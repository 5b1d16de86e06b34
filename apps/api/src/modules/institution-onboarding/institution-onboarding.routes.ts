import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AdmissionsReadinessSchema, dataEnvelope } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { staffGuard } from '../partners/index.ts';
import { admissionsReadiness } from './readiness.service.ts';

const PartnerParamsSchema = z.object({ partnerId: z.uuid() });

/**
 * How far an institution is from receiving applications. It reads the programs, cycles and forms, so it
 * sits above the modules that own them. Any staff member of the institution may read it.
 */
export const institutionOnboardingRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/partners/:partnerId/readiness',
    {
      preHandler: staffGuard(db, null),
      schema: {
        tags: ['partners'],
        summary: 'How far the institution is from receiving applications',
        params: PartnerParamsSchema,
        response: { 200: dataEnvelope(AdmissionsReadinessSchema) },
      },
    },
    async (request) => ({ data: await admissionsReadiness(db, request.params.partnerId) }),
  );
};
