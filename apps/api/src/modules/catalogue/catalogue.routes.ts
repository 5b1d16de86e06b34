import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CatalogueQuerySchema,
  CatalogueSummarySchema,
  dataEnvelope,
  PartnerIdParamsSchema,
  SavedUniversitySchema,
  UniversityDetailSchema,
  UniversityPageSchema,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { requireUserType } from '../auth/index.ts';
import {
  catalogueSummary,
  saveUniversity,
  searchUniversities,
  studentIdOf,
  universityDetail,
  unsaveUniversity,
} from './catalogue.service.ts';

/**
 * The public catalogue figures (anonymous), and for signed-in students: Explore Universities, a
 * university's details, and their own list (the route carries no student id: always the caller's).
 */
export const catalogueRoutes: FastifyPluginAsyncZod<{
  db: Db;
  /**
   * The institutions with a program whose entry rules a student's results meet, for the "programs I meet
   * the requirements for" filter: given by the app, from the eligibility module (a layer above this one).
   */
  institutionsMetBy?: (userId: string) => Promise<string[]>;
}> = async (app, { db, institutionsMetBy }) => {
  const tags = ['catalogue'];
  const student = requireUserType('student');
  const studentId = (userId: string | undefined) => studentIdOf(db, userId!);

  app.get(
    '/catalogue/summary',
    { schema: { tags, response: { 200: dataEnvelope(CatalogueSummarySchema) } } },
    async () => ({ data: await catalogueSummary(db) }),
  );

  app.get(
    '/catalogue/universities',
    {
      onRequest: student,
      schema: { tags, querystring: CatalogueQuerySchema, response: { 200: dataEnvelope(UniversityPageSchema) } },
    },
    async (request) => {
      const met = request.query.eligible && institutionsMetBy ? await institutionsMetBy(request.user!.id) : [];
      return { data: await searchUniversities(db, await studentId(request.user?.id), request.query, new Date(), met) };
    },
  );

  app.get(
    '/catalogue/universities/:partnerId',
    {
      onRequest: student,
      schema: { tags, params: PartnerIdParamsSchema, response: { 200: dataEnvelope(UniversityDetailSchema) } },
    },
    async (request) => ({
      data: await universityDetail(db, await studentId(request.user?.id), request.params.partnerId),
    }),
  );

  const saved = { 200: dataEnvelope(SavedUniversitySchema) };
  app.put(
    '/students/me/saved-universities/:partnerId',
    { onRequest: student, schema: { tags, params: PartnerIdParamsSchema, response: saved } },
    async (request) => ({
      data: await saveUniversity(db, await studentId(request.user?.id), request.params.partnerId),
    }),
  );

  app.delete(
    '/students/me/saved-universities/:partnerId',
    { onRequest: student, schema: { tags, params: PartnerIdParamsSchema, response: saved } },
    async (request) => ({
      data: await unsaveUniversity(db, await studentId(request.user?.id), request.params.partnerId),
    }),
  );
};
