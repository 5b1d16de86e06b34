import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminAnalyticsSchema,
  AdminApplicationPageSchema,
  AdminApplicationsQuerySchema,
  AdminAuditLogQuerySchema,
  AdminInstitutionPageSchema,
  AdminInstitutionSchema,
  AdminInstitutionsQuerySchema,
  AdminJobsQuerySchema,
  AdminJobsSchema,
  JobParamsSchema,
  JobRetriedSchema,
  AuditEntryPageSchema,
  InstitutionIdParamsSchema,
  RejectInstitutionSchema,
  dataEnvelope,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../lib/jobs/queue.ts';
import { requireUserType } from '../auth/index.ts';
import {
  analytics,
  auditEntries,
  jobsOverview,
  listApplications,
  listInstitutions,
  retryFailedJob,
  reviewInstitution,
} from './admin.service.ts';

/** The admin dashboard's data and actions. Admins only: visitors get 401, students and staff 403. */
export const adminRoutes: FastifyPluginAsyncZod<{ db: Db; publicUrl: string; jobs: JobQueue }> = async (
  app,
  { db, publicUrl, jobs },
) => {
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

  app.post(
    '/admin/institutions/:id/approve',
    {
      schema: { tags, params: InstitutionIdParamsSchema, response: { 200: dataEnvelope(AdminInstitutionSchema) } },
    },
    async (request) => ({
      data: await reviewInstitution(db, {
        partnerId: request.params.id,
        actorId: request.user!.id,
        decision: 'approved',
        publicUrl,
      }),
    }),
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
    async (request) => ({
      data: await reviewInstitution(db, {
        partnerId: request.params.id,
        actorId: request.user!.id,
        decision: 'rejected',
        reason: request.body.reason,
        publicUrl,
      }),
    }),
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

  app.get(
    '/admin/jobs',
    { schema: { tags, querystring: AdminJobsQuerySchema, response: { 200: dataEnvelope(AdminJobsSchema) } } },
    async (request) => ({ data: await jobsOverview(jobs, request.query) }),
  );

  app.post(
    '/admin/jobs/:queue/:id/retry',
    { schema: { tags, params: JobParamsSchema, response: { 200: dataEnvelope(JobRetriedSchema) } } },
    async (request) => {
      await retryFailedJob(db, jobs, { actorId: request.user!.id, ...request.params });
      return { data: { retried: true as const } };
    },
  );
};
