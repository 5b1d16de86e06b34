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
import { staffGuard } from './staff-guard.ts';
import {
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
 * The partner dashboard's institution (see staffGuard). Reading the profile needs no permission; editing
 * it needs manage_settings; join requests need manage_team.
 */
export const partnerRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['partners'];

  app.get(
    '/partners/:partnerId/profile',
    {
      preHandler: staffGuard(db, null),
      schema: { tags, params: PartnerParamsSchema, response: { 200: dataEnvelope(PartnerProfileSchema) } },
    },
    async (request) => {
      return { data: await getProfile(db, request.params.partnerId) };
    },
  );

  app.patch(
    '/partners/:partnerId/profile',
    {
      preHandler: staffGuard(db, PROFILE_PERMISSIONS),
      schema: {
        tags,
        params: PartnerParamsSchema,
        body: PartnerProfileUpdateSchema,
        response: { 200: dataEnvelope(PartnerProfileSchema) },
      },
    },
    async (request) => {
      return { data: await updateProfile(db, request.params.partnerId, request.body) };
    },
  );

  app.get(
    '/partners/:partnerId/staff/requests',
    {
      preHandler: staffGuard(db, MEMBERSHIP_PERMISSIONS),
      schema: { tags, params: PartnerParamsSchema, response: { 200: dataEnvelope(StaffRequestListSchema) } },
    },
    async (request) => {
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
        preHandler: staffGuard(db, MEMBERSHIP_PERMISSIONS),
        schema: { tags, params: StaffParamsSchema, response: { 200: dataEnvelope(StaffDecisionSchema) } },
      },
      async (request) => {
        return { data: await decideStaffRequest(db, request.params.partnerId, request.params.staffId, decision) };
      },
    );
  }
};
