import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApplicationCardSchema,
  ApplicationDraftSchema,
  ApplicationIdParamsSchema,
  ApplicationPartnerParamsSchema,
  ApplyContextSchema,
  dataEnvelope,
  DraftSavedSchema,
  IDEMPOTENCY_KEY_HEADER,
  SaveDraftSchema,
  StartApplicationSchema,
  SubmissionReceiptSchema,
  SubmitApplicationSchema,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { requireUserType } from '../auth/index.ts';
import { IdempotencyHeadersSchema, idempotencyDescription } from '../../lib/idempotency.ts';
import { applyContext, discardDraft, getDraft, listCards, saveDraft, startApplication } from './drafts.service.ts';
import { ownSubmission, submitApplication } from './submit.service.ts';

const IDEMPOTENT_SUBMIT = idempotencyDescription(
  'the application and the body (canonical JSON, so the order of keys does not matter); keys are unique per institution',
);

/**
 * A student's applications (spec sections 2–5): students only; another student's application answers
 * 404, exactly like one that does not exist. Status, payment and who submitted are never taken from
 * the client: the body schemas do not have them.
 */
export const applicationsRoutes: FastifyPluginAsyncZod<{ db: Db; publicUrl: string; storage: Storage }> = async (
  app,
  { db, publicUrl, storage },
) => {
  const tags = ['applications'];
  const studentOnly = requireUserType('student');
  const draft = dataEnvelope(ApplicationDraftSchema);
  const receipt = dataEnvelope(SubmissionReceiptSchema);

  app.get(
    '/applications',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'The applications area',
        description: 'One card per approved, published institution the student saved or applied to.',
        response: { 200: dataEnvelope(z.array(ApplicationCardSchema)) },
      },
    },
    async (request) => ({ data: await listCards(db, request.user!.id) }),
  );

  app.get(
    '/partners/:partnerId/application',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'What applying to an institution needs',
        params: ApplicationPartnerParamsSchema,
        response: { 200: dataEnvelope(ApplyContextSchema) },
      },
    },
    async (request) => ({ data: await applyContext(db, request.user!.id, request.params.partnerId) }),
  );

  app.post(
    '/partners/:partnerId/application',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'Start an application',
        description: '201 with a new application, or 200 with the one the student already has in this cycle.',
        params: ApplicationPartnerParamsSchema,
        body: StartApplicationSchema,
        response: { 200: draft, 201: draft },
      },
    },
    async (request, reply) => {
      const { created, draft } = await startApplication(db, request.user!.id, request.params.partnerId, request.body);
      return reply.code(created ? 201 : 200).send({ data: draft });
    },
  );

  app.get(
    '/applications/:id',
    {
      preHandler: studentOnly,
      schema: { tags, summary: 'An application', params: ApplicationIdParamsSchema, response: { 200: draft } },
    },
    async (request) => ({ data: await getDraft(db, request.user!.id, request.params.id) }),
  );

  app.patch(
    '/applications/:id',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'Autosave an application',
        description:
          'Refused with 409 (stale_draft, with the current version in details) when another save came first.',
        params: ApplicationIdParamsSchema,
        body: SaveDraftSchema,
        response: { 200: dataEnvelope(DraftSavedSchema) },
      },
    },
    async (request) => ({ data: await saveDraft(db, request.user!.id, request.params.id, request.body) }),
  );

  app.delete(
    '/applications/:id',
    {
      preHandler: studentOnly,
      schema: { tags, summary: 'Discard an application in progress', params: ApplicationIdParamsSchema },
    },
    async (request, reply) => {
      await discardDraft(db, storage, request.user!.id, request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/applications/:id/submit',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'Submit an application',
        description: IDEMPOTENT_SUBMIT,
        params: ApplicationIdParamsSchema,
        headers: IdempotencyHeadersSchema,
        body: SubmitApplicationSchema,
        response: { 200: receipt, 201: receipt },
      },
    },
    async (request, reply) => {
      const key = request.headers[IDEMPOTENCY_KEY_HEADER] ?? null;
      const { created, receipt } = await submitApplication(
        db,
        request.user!.id,
        request.params.id,
        request.body,
        key,
        publicUrl,
      );
      return reply.code(created ? 201 : 200).send({ data: receipt });
    },
  );

  app.get(
    '/applications/:id/submission',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'A submitted application’s receipt',
        params: ApplicationIdParamsSchema,
        response: { 200: receipt },
      },
    },
    async (request) => ({ data: await ownSubmission(db, request.user!.id, request.params.id) }),
  );
};
