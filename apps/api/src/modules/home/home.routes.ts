import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope, StudentHomeSchema } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { requireUserType } from '../auth/index.ts';
import { AppError } from '../../lib/errors.ts';
import { getStudentHome } from './home.service.ts';

/**
 * The student's home page: it gathers the profile, the documents and the drafts, so it sits above the
 * modules that own them (docs/architecture.md).
 */
export const homeRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/students/me/home',
    {
      preValidation: requireUserType('student'),
      schema: {
        tags: ['students'],
        summary: "The student's home: profile completion with what is missing, and the next steps in order",
        response: { 200: dataEnvelope(StudentHomeSchema) },
      },
    },
    async (request) => {
      if (!request.user) throw new AppError('UNAUTHENTICATED');
      return { data: await getStudentHome(db, request.user.id) };
    },
  );
};
