import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AcknowledgedSchema,
  CycleInputSchema,
  CycleSchema,
  dataEnvelope,
  type StaffPermission,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { staffGuard } from '../partners/index.ts';
import { createCycle, deleteCycle, getCycle, listCycles, updateCycle } from './cycles.service.ts';

const PartnerParamsSchema = z.object({ partnerId: z.uuid() });
const CycleParamsSchema = PartnerParamsSchema.extend({ cycleId: z.uuid() });
const WRITE: StaffPermission[] = ['manage_programs'];

/**
 * An institution's admission cycles. Any member reads them; changing them needs manage_programs.
 * Another institution's ids answer 404.
 */
export const cyclesRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['cycles'];

  app.get(
    '/partners/:partnerId/cycles',
    {
      preHandler: staffGuard(db, null),
      schema: {
        tags,
        summary: 'List admission cycles',
        description:
          'Latest opening first, each with its open programs, whether it is the current cycle and whether it takes applications today in the institution’s time zone.',
        params: PartnerParamsSchema,
        response: { 200: dataEnvelope(z.array(CycleSchema)) },
      },
    },
    async (request) => ({ data: await listCycles(db, request.params.partnerId) }),
  );

  app.get(
    '/partners/:partnerId/cycles/:cycleId',
    {
      preHandler: staffGuard(db, null),
      schema: {
        tags,
        summary: 'Get an admission cycle',
        params: CycleParamsSchema,
        response: { 200: dataEnvelope(CycleSchema) },
      },
    },
    async (request) => ({ data: await getCycle(db, request.params.partnerId, request.params.cycleId) }),
  );

  app.post(
    '/partners/:partnerId/cycles',
    {
      preHandler: staffGuard(db, WRITE),
      schema: {
        tags,
        summary: 'Add an admission cycle',
        description: 'program_ids are the institution’s programs open for application in this cycle.',
        params: PartnerParamsSchema,
        body: CycleInputSchema,
        response: { 201: dataEnvelope(CycleSchema) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await createCycle(db, request.params.partnerId, request.body) }),
  );

  app.put(
    '/partners/:partnerId/cycles/:cycleId',
    {
      preHandler: staffGuard(db, WRITE),
      schema: {
        tags,
        summary: 'Change an admission cycle',
        description: 'Replaces its name, dates, status (draft, open, closed) and open programs.',
        params: CycleParamsSchema,
        body: CycleInputSchema,
        response: { 200: dataEnvelope(CycleSchema) },
      },
    },
    async (request) => ({
      data: await updateCycle(db, request.params.partnerId, request.params.cycleId, request.body),
    }),
  );

  app.delete(
    '/partners/:partnerId/cycles/:cycleId',
    {
      preHandler: staffGuard(db, WRITE),
      schema: {
        tags,
        summary: 'Delete an admission cycle',
        description:
          'Refused (409) when applications were submitted in it, or while it is the current cycle (make another current first).',
        params: CycleParamsSchema,
        response: { 200: dataEnvelope(AcknowledgedSchema) },
      },
    },
    async (request) => {
      await deleteCycle(db, request.params.partnerId, request.params.cycleId);
      return { data: { ok: true as const } };
    },
  );
};
