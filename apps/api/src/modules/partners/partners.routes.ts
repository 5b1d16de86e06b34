import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataEnvelope,
  PartnerProfileSchema,
  PartnerProfileUpdateSchema,
  StaffDecisionSchema,
  StaffRequestListSchema,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { requireUserType } from '../../lib/auth-guard.ts';
import {
  assertStaffAccess,
  decideStaffRequest,
  getProfile,
  listStaffRequests,
  MEMBERSHIP_PERMISSIONS,
  PROFILE_PERMISSIONS,
  updateProfile,
} from './partners.service.ts';

const PartnerParamsSchema = z.object({ partnerId: z.uuid() });
const StaffParamsSchema = PartnerParamsSchema.extend({ staffId: z.uuid() });

/**
 * The partner dashboard's institution: staff only, of that institution (another's is 404), approved
 * institution and approved member (403 otherwise). Reading the profile needs no permission; editing it
 * needs 'all' or 'manage_settings'; deciding join requests needs 'all'.
 */
export const partnerRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['partners'];
  const preHandler = requireUserType('staff');
  const access = (request: FastifyRequest, partnerId: string, permissions: readonly string[] | null) =>
    assertStaffAccess(db, request.user!.id, partnerId, permissions);

  app.get(
    '/partners/:partnerId/profile',
    {
      preHandler,
      schema: { tags, params: PartnerParamsSchema, response: { 200: dataEnvelope(PartnerProfileSchema) } },
    },
    async (request) => {
      await access(request, request.params.partnerId, null);
      return { data: await getProfile(db, request.params.partnerId) };
    },
  );

  app.patch(
    '/partners/:partnerId/profile',
    {
      preHandler,
      schema: {
        tags,
        params: PartnerParamsSchema,
        body: PartnerProfileUpdateSchema,
        response: { 200: dataEnvelope(PartnerProfileSchema) },
      },
    },
    async (request) => {
      await access(request, request.params.partnerId, PROFILE_PERMISSIONS);
      return { data: await updateProfile(db, request.params.partnerId, request.body) };
    },
  );

  app.get(
    '/partners/:partnerId/staff/requests',
    {
      preHandler,
      schema: { tags, params: PartnerParamsSchema, response: { 200: dataEnvelope(StaffRequestListSchema) } },
    },
    async (request) => {
      await access(request, request.params.partnerId, MEMBERSHIP_PERMISSIONS);
      return { data: await listStaffRequests(db, request.params.partnerId) };
    },
  );

  for (const [action, decision] of [
    ['approve', 'approved'],
    ['decline', 'declined'],
  ] as const) {
    app.post(
      `/partners/:partnerId/staff/:staffId/${action}`,
      {
        preHandler,
        schema: { tags, params: StaffParamsSchema, response: { 200: dataEnvelope(StaffDecisionSchema) } },
      },
      async (request) => {
        await access(request, request.params.partnerId, MEMBERSHIP_PERMISSIONS);
        return { data: await decideStaffRequest(db, request.params.partnerId, request.params.staffId, decision) };
      },
    );
  }
};
