import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, EligibilityQuerySchema, ProgramEligibilitySchema } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { requireUserType } from '../auth/index.ts';
import { AppError } from '../../lib/errors.ts';
import { institutionEligibility } from './eligibility.service.ts';

/** The signed-in student's eligibility for an institution's programs. Students only, on their own results. */
export const eligibilityRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const student = requireUserType('student');
  app.get(
    '/students/me/eligibility',
    {
      preValidation: student,
      schema: {
        tags: ['students'],
        querystring: EligibilityQuerySchema,
        response: { 200: dataEnvelope(z.array(ProgramEligibilitySchema)) },
      },
    },
    async (request) => {
      if (!request.user) throw new AppError('UNAUTHENTICATED');
      return { data: await institutionEligibility(db, request.user.id, request.query.partner_id) };
    },
  );
};
