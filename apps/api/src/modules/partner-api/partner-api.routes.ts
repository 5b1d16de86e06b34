import type { preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dataEnvelope,
  PartnerApiDecisionPageSchema,
  PartnerApiDecisionQuerySchema,
  PartnerApiProgramListSchema,
  PartnerApiSubmissionPageSchema,
  PartnerApiSubmissionParamsSchema,
  PartnerApiSubmissionQuerySchema,
  PartnerApiSubmissionSchema,
  type ApiKeyScope,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import {
  authenticateKey,
  getSubmission,
  listDecisions,
  listPartnerPrograms,
  listSubmissions,
  type ApiKeyCaller,
} from './partner-api.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the partner API's key check: the key and its institution. */
    apiKey?: ApiKeyCaller;
  }
}

/** The OpenAPI security scheme app.ts registers for these routes. */
export const PARTNER_API_SECURITY = 'partnerApiKey';

/**
 * The partner REST API: an institution's own systems read its records with an API key made in the
 * dashboard, sent as `Authorization: Bearer <key>`. Cookies are never read here, so a signed-in browser
 * cannot be led into calling it. Every answer is the key's institution's data only.
 */
export const partnerApiRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['partner-api'];
  const security = [{ [PARTNER_API_SECURITY]: [] }];
  const withScope =
    (scope: ApiKeyScope): preHandlerAsyncHookHandler =>
    async (request) => {
      request.apiKey = await authenticateKey(db, request.headers.authorization, scope);
    };
  const partnerOf = (caller: ApiKeyCaller | undefined) => caller!.partnerId;

  // Answers carry applicants' personal data: no shared cache may keep them.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/partner-api/submissions',
    {
      preHandler: withScope('submissions:read'),
      schema: {
        tags,
        security,
        summary: 'List submitted applications',
        description:
          'Needs the submissions:read scope. Newest first, paged: pass `next_cursor` back as `cursor` until it is null. Filter by status, admission cycle, or records changed since a time.',
        querystring: PartnerApiSubmissionQuerySchema,
        response: { 200: dataEnvelope(PartnerApiSubmissionPageSchema) },
      },
    },
    async (request) => ({ data: await listSubmissions(db, partnerOf(request.apiKey), request.query) }),
  );

  app.get(
    '/partner-api/submissions/:submissionId',
    {
      preHandler: withScope('submissions:read'),
      schema: {
        tags,
        security,
        summary: 'Get one submitted application',
        description: 'Needs the submissions:read scope. Another institution’s submission answers 404.',
        params: PartnerApiSubmissionParamsSchema,
        response: { 200: dataEnvelope(PartnerApiSubmissionSchema) },
      },
    },
    async (request) => ({
      data: await getSubmission(db, partnerOf(request.apiKey), request.params.submissionId),
    }),
  );

  app.get(
    '/partner-api/decisions',
    {
      preHandler: withScope('decisions:read'),
      schema: {
        tags,
        security,
        summary: 'List admission decisions',
        description:
          'Needs the decisions:read scope. Newest first, paged like submissions; `updated_since` picks up applicants’ responses to offers.',
        querystring: PartnerApiDecisionQuerySchema,
        response: { 200: dataEnvelope(PartnerApiDecisionPageSchema) },
      },
    },
    async (request) => ({ data: await listDecisions(db, partnerOf(request.apiKey), request.query) }),
  );

  app.get(
    '/partner-api/programs',
    {
      preHandler: withScope('programs:read'),
      schema: {
        tags,
        security,
        summary: 'List programs',
        description: 'Needs the programs:read scope. Every program of the institution by name, with its campuses.',
        response: { 200: dataEnvelope(PartnerApiProgramListSchema) },
      },
    },
    async (request) => ({ data: await listPartnerPrograms(db, partnerOf(request.apiKey)) }),
  );
};
