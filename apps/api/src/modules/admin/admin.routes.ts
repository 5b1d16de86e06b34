import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminAnalyticsSchema,
  AdminApplicationPageSchema,
  AdminApplicationsQuerySchema,
  AdminAuditLogQuerySchema,
  AdminInstitutionPageSchema,
  AdminInstitutionSchema,
  AdminInstitutionsQuerySchema,
  AuditEntryPageSchema,
  InstitutionIdParamsSchema,
  RejectInstitutionSchema,
  dataEnvelope,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { requireUserType } from '../../lib/auth-guard.ts';
import {
  analytics,
  auditEntries,
  listApplications,
  listInstitutions,
  reviewInstitution,
  type ReviewInput,
} from './admin.service.ts';

/** The admin dashboard's data and actions. Admins only: visitors get 401, students and staff 403. */
export const adminRoutes: FastifyPluginAsyncZod<{ db: Db; publicUrl: string }> = async (app, { db, publicUrl }) => {
  // Before validation, so a visitor learns nothing about the inputs a route expects.
  app.addHook('preValidation', requireUserType('admin'));
  const tags = ['admin'];

  app.get(
    '/admin/institutions',
    {
      schema: {
        tags,
        querystring: AdminInstitutionsQuerySchema,
        response: { 200: dataEnvelope(AdminInstitutionPageSchema) },
      },
    },
    async (request) => ({ data: await listInstitutions(db, { ...request.query, order: 'newest' }) }),
  );

  const review = (decision: ReviewInput['decision'], reason?: string) => (partnerId: string, actorId: string) =>
    reviewInstitution(db, { partnerId, actorId, decision, reason, publicUrl });

  app.post(
    '/admin/institutions/:id/approve',
    {
      schema: { tags, params: InstitutionIdParamsSchema, response: { 200: dataEnvelope(AdminInstitutionSchema) } },
    },
    async (request) => ({ data: await review('approved')(request.params.id, request.user!.id) }),
  );

  app.post(
    '/admin/institutions/:id/reject',
    {
      schema: {
        tags,
        params: InstitutionIdParamsSchema,
        body: RejectInstitutionSchema,
        response: { 200: dataEnvelope(AdminInstitutionSchema) },
      },
    },
    async (request) => ({ data: await review('rejected', request.body.reason)(request.params.id, request.user!.id) }),
  );

  app.get(
    '/admin/universities',
    {
      schema: {
        tags,
        querystring: AdminInstitutionsQuerySchema,
        response: { 200: dataEnvelope(AdminInstitutionPageSchema) },
      },
    },
    async (request) => ({ data: await listInstitutions(db, { ...request.query, order: 'name' }) }),
  );

  app.get(
    '/admin/applications',
    {
      schema: {
        tags,
        querystring: AdminApplicationsQuerySchema,
        response: { 200: dataEnvelope(AdminApplicationPageSchema) },
      },
    },
    async (request) => ({ data: await listApplications(db, request.query) }),
  );

  app.get(
    '/admin/analytics',
    { schema: { tags, response: { 200: dataEnvelope(AdminAnalyticsSchema) } } },
    async () => ({ data: await analytics(db) }),
  );

  app.get(
    '/admin/audit-log',
    { schema: { tags, querystring: AdminAuditLogQuerySchema, response: { 200: dataEnvelope(AuditEntryPageSchema) } } },
    async (request) => ({ data: await auditEntries(db, request.query) }),
  );
};
