import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataEnvelope,
  IDEMPOTENCY_KEY_HEADER,
  OnBehalfFormQuerySchema,
  OnBehalfFormSchema,
  OnBehalfSetupSchema,
  OnBehalfSubmissionSchema,
  SubmissionReceiptSchema,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { IdempotencyHeadersSchema, idempotencyDescription } from '../../lib/idempotency.ts';
import { staffGuard } from '../partners/index.ts';
import { onBehalfForm, onBehalfSetup, submitOnBehalf } from './submissions.service.ts';

const PartnerParamsSchema = z.object({ partnerId: z.uuid() });

/**
 * Submitting on behalf of an applicant (spec section 6): members holding submit_applications; another
 * institution's id answers 404.
 */
export const submissionsRoutes: FastifyPluginAsyncZod<{ db: Db; publicUrl: string }> = async (
  app,
  { db, publicUrl },
) => {
  const tags = ['submissions'];
  const guard = staffGuard(db, ['submit_applications']);
  const receipt = dataEnvelope(SubmissionReceiptSchema);

  app.get(
    '/partners/:partnerId/submissions/programs',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: 'Programs open for a submission on behalf',
        params: PartnerParamsSchema,
        response: { 200: dataEnvelope(OnBehalfSetupSchema) },
      },
    },
    async (request) => ({ data: await onBehalfSetup(db, request.params.partnerId) }),
  );

  app.get(
    '/partners/:partnerId/submissions/form',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: 'The form a program is answered with, without file questions',
        params: PartnerParamsSchema,
        querystring: OnBehalfFormQuerySchema,
        response: { 200: dataEnvelope(OnBehalfFormSchema) },
      },
    },
    async (request) => ({ data: await onBehalfForm(db, request.params.partnerId, request.query.program_id) }),
  );

  app.post(
    '/partners/:partnerId/submissions',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: 'Submit on behalf of an applicant',
        description: `Unpaid and marked as submitted by staff. ${idempotencyDescription(
          'the institution, the staff member and the body (canonical JSON, so the order of keys does not matter); keys are unique per institution',
        )}`,
        params: PartnerParamsSchema,
        headers: IdempotencyHeadersSchema,
        body: OnBehalfSubmissionSchema,
        response: { 200: receipt, 201: receipt },
      },
    },
    async (request, reply) => {
      const { created, receipt } = await submitOnBehalf(
        db,
        request.params.partnerId,
        request.staff!.staffId,
        request.body,
        request.headers[IDEMPOTENCY_KEY_HEADER] ?? null,
        publicUrl,
      );
      return reply.code(created ? 201 : 200).send({ data: receipt });
    },
  );
};
