import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AcknowledgedSchema,
  CampusInputSchema,
  CampusSchema,
  dataEnvelope,
  ProgramInputSchema,
  ProgramListQuerySchema,
  ProgramSchema,
  type StaffPermission,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { staffGuard } from '../partners/index.ts';
import {
  createCampus,
  createProgram,
  deleteCampus,
  deleteProgram,
  getProgram,
  listCampuses,
  listPrograms,
  updateCampus,
  updateProgram,
} from './programs.service.ts';

const PartnerParamsSchema = z.object({ partnerId: z.uuid() });
const CampusParamsSchema = PartnerParamsSchema.extend({ campusId: z.uuid() });
const ProgramParamsSchema = PartnerParamsSchema.extend({ programId: z.uuid() });
const deleted = { 200: dataEnvelope(AcknowledgedSchema) };
const WRITE: StaffPermission[] = ['manage_programs'];

/**
 * An institution's campuses and programs. Any member reads them; changing them needs manage_programs.
 * Another institution's ids answer 404.
 */
export const programsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['programs'];

  app.get(
    '/partners/:partnerId/campuses',
    {
      preHandler: staffGuard(db, null),
      schema: {
        tags,
        summary: 'List campuses',
        description: 'The institution’s campuses by name, with the number of programs offered at each.',
        params: PartnerParamsSchema,
        response: { 200: dataEnvelope(z.array(CampusSchema)) },
      },
    },
    async (request) => ({ data: await listCampuses(db, request.params.partnerId) }),
  );

  app.post(
    '/partners/:partnerId/campuses',
    {
      preHandler: staffGuard(db, WRITE),
      schema: {
        tags,
        summary: 'Add a campus',
        description: 'Campus names are unique within the institution (409 otherwise).',
        params: PartnerParamsSchema,
        body: CampusInputSchema,
        response: { 201: dataEnvelope(CampusSchema) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await createCampus(db, request.params.partnerId, request.body) }),
  );

  app.put(
    '/partners/:partnerId/campuses/:campusId',
    {
      preHandler: staffGuard(db, WRITE),
      schema: {
        tags,
        summary: 'Change a campus',
        params: CampusParamsSchema,
        body: CampusInputSchema,
        response: { 200: dataEnvelope(CampusSchema) },
      },
    },
    async (request) => ({
      data: await updateCampus(db, request.params.partnerId, request.params.campusId, request.body),
    }),
  );

  app.delete(
    '/partners/:partnerId/campuses/:campusId',
    {
      preHandler: staffGuard(db, WRITE),
      schema: {
        tags,
        summary: 'Delete a campus',
        description:
          'Refused (409) when applications were submitted for it or when it is the only campus of a program.',
        params: CampusParamsSchema,
        response: deleted,
      },
    },
    async (request) => {
      await deleteCampus(db, request.params.partnerId, request.params.campusId);
      return { data: { ok: true as const } };
    },
  );

  app.get(
    '/partners/:partnerId/programs',
    {
      preHandler: staffGuard(db, null),
      schema: {
        tags,
        summary: 'List programs',
        description: 'The institution’s programs by name, optionally searched by name and filtered by level and field.',
        params: PartnerParamsSchema,
        querystring: ProgramListQuerySchema,
        response: { 200: dataEnvelope(z.array(ProgramSchema)) },
      },
    },
    async (request) => ({ data: await listPrograms(db, request.params.partnerId, request.query) }),
  );

  app.get(
    '/partners/:partnerId/programs/:programId',
    {
      preHandler: staffGuard(db, null),
      schema: {
        tags,
        summary: 'Get a program',
        params: ProgramParamsSchema,
        response: { 200: dataEnvelope(ProgramSchema) },
      },
    },
    async (request) => ({ data: await getProgram(db, request.params.partnerId, request.params.programId) }),
  );

  app.post(
    '/partners/:partnerId/programs',
    {
      preHandler: staffGuard(db, WRITE),
      schema: {
        tags,
        summary: 'Add a program',
        description:
          'Offered at one or more of the institution’s campuses. Name and level together are unique (409 otherwise).',
        params: PartnerParamsSchema,
        body: ProgramInputSchema,
        response: { 201: dataEnvelope(ProgramSchema) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await createProgram(db, request.params.partnerId, request.body) }),
  );

  app.put(
    '/partners/:partnerId/programs/:programId',
    {
      preHandler: staffGuard(db, WRITE),
      schema: {
        tags,
        summary: 'Change a program',
        description: 'Replaces every field, including the campuses it is offered at.',
        params: ProgramParamsSchema,
        body: ProgramInputSchema,
        response: { 200: dataEnvelope(ProgramSchema) },
      },
    },
    async (request) => ({
      data: await updateProgram(db, request.params.partnerId, request.params.programId, request.body),
    }),
  );

  app.delete(
    '/partners/:partnerId/programs/:programId',
    {
      preHandler: staffGuard(db, WRITE),
      schema: {
        tags,
        summary: 'Delete a program',
        description: 'Refused (409) when applications were submitted for it.',
        params: ProgramParamsSchema,
        response: deleted,
      },
    },
    async (request) => {
      await deleteProgram(db, request.params.partnerId, request.params.programId);
      return { data: { ok: true as const } };
    },
  );
};
