import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApplicationIdParamsSchema,
  FeeWaiverSchema,
  StaffFeeWaiverSchema,
  WaiverCodeIdParamsSchema,
  WaiverCodeInputSchema,
  WaiverCodeRedeemSchema,
  WaiverCodeSchema,
  WaiverDeclineSchema,
  WaiverIdParamsSchema,
  WaiverRequestInputSchema,
  WaiverRequestsQuerySchema,
  dataEnvelope,
  type StaffPermission,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { attachmentDisposition, downloadHeaders } from '../../lib/file-download.ts';
import { AppError } from '../../lib/errors.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { requireUserType } from '../auth/index.ts';
import { openFile } from '../documents/index.ts';
import { staffGuard } from '../partners/index.ts';
import {
  approveFeeWaiver,
  createWaiverCode,
  declineFeeWaiver,
  listFeeWaivers,
  listWaiverCodes,
  ownFeeWaiver,
  redeemWaiverCode,
  requestFeeWaiver,
  revokeWaiverCode,
  waiverDocumentFile,
} from './waivers.service.ts';

const tags = ['waivers'];
const FINANCE: StaffPermission[] = ['manage_finance'];
const PartnerParamsSchema = z.object({ partnerId: z.uuid() });

/**
 * Fee waivers (issue 22). Staff holding manage_finance issue and revoke codes and answer requests; another
 * institution's ids are 404. An applicant redeems a code or asks for a waiver on their own application only
 * (anyone else's is 404).
 */
export const waiversRoutes: FastifyPluginAsyncZod<{ db: Db; storage: Storage; publicUrl: string }> = async (
  app,
  { db, storage, publicUrl },
) => {
  const base = '/partners/:partnerId';
  const preHandler = staffGuard(db, FINANCE);

  app.get(
    `${base}/waiver-codes`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'List fee waiver codes with their usage',
        params: PartnerParamsSchema,
        response: { 200: dataEnvelope(z.array(WaiverCodeSchema)) },
      },
    },
    async (request) => ({ data: await listWaiverCodes(db, request.params.partnerId) }),
  );

  app.post(
    `${base}/waiver-codes`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Issue a fee waiver code',
        description: 'For one admission cycle, 1 to 10000 uses, until expires_on (in the institution’s time zone).',
        params: PartnerParamsSchema,
        body: WaiverCodeInputSchema,
        response: { 201: dataEnvelope(WaiverCodeSchema) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await createWaiverCode(db, request.staff!, request.body) }),
  );

  app.post(
    `${base}/waiver-codes/:codeId/revoke`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Revoke a fee waiver code',
        description: 'No further redemption; waivers it already granted stand.',
        params: WaiverCodeIdParamsSchema,
        response: { 200: dataEnvelope(WaiverCodeSchema) },
      },
    },
    async (request) => ({ data: await revokeWaiverCode(db, request.params.partnerId, request.params.codeId) }),
  );

  app.get(
    `${base}/fee-waivers`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'List fee waivers (requests to answer, codes redeemed)',
        params: PartnerParamsSchema,
        querystring: WaiverRequestsQuerySchema,
        response: { 200: dataEnvelope(z.array(StaffFeeWaiverSchema)) },
      },
    },
    async (request) => ({ data: await listFeeWaivers(db, request.params.partnerId, request.query.status) }),
  );

  app.post(
    `${base}/fee-waivers/:waiverId/approve`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Approve a fee waiver request',
        params: WaiverIdParamsSchema,
        response: { 200: dataEnvelope(StaffFeeWaiverSchema) },
      },
    },
    async (request) => ({ data: await approveFeeWaiver(db, request.staff!, request.params.waiverId, publicUrl) }),
  );

  app.post(
    `${base}/fee-waivers/:waiverId/decline`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Decline a fee waiver request with a reason the applicant sees',
        params: WaiverIdParamsSchema,
        body: WaiverDeclineSchema,
        response: { 200: dataEnvelope(StaffFeeWaiverSchema) },
      },
    },
    async (request) => ({
      data: await declineFeeWaiver(db, request.staff!, request.params.waiverId, request.body.reason, publicUrl),
    }),
  );

  app.get(
    `${base}/fee-waivers/:waiverId/document`,
    {
      preHandler,
      schema: { tags, summary: 'Download the document of a fee waiver request', params: WaiverIdParamsSchema },
    },
    async (request, reply) => {
      const found = await waiverDocumentFile(db, request.params.partnerId, request.params.waiverId);
      if (!found) throw new AppError('NOT_FOUND');
      const file = await openFile(db, storage, found.file_id);
      return downloadHeaders(reply, {
        contentType: file.mimeType,
        disposition: attachmentDisposition(file.name),
        cacheControl: 'private, no-store',
        length: file.size,
      }).send(file.stream);
    },
  );

  await app.register(async (scope) => {
    scope.addHook('preValidation', requireUserType('student'));
    const student = scope.withTypeProvider<ZodTypeProvider>();

    student.get(
      '/applications/:id/waiver',
      {
        schema: {
          tags,
          summary: 'The fee waiver of one’s application, or null',
          params: ApplicationIdParamsSchema,
          response: { 200: dataEnvelope(FeeWaiverSchema.nullable()) },
        },
      },
      async (request) => ({ data: await ownFeeWaiver(db, request.user!.id, request.params.id) }),
    );

    student.post(
      '/applications/:id/waiver/code',
      {
        schema: {
          tags,
          summary: 'Redeem a fee waiver code: the fee is waived at once',
          params: ApplicationIdParamsSchema,
          body: WaiverCodeRedeemSchema,
          response: { 201: dataEnvelope(FeeWaiverSchema) },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send({ data: await redeemWaiverCode(db, request.user!.id, request.params.id, request.body.code) }),
    );

    student.post(
      '/applications/:id/waiver/request',
      {
        schema: {
          tags,
          summary: 'Ask the institution to waive the fee',
          description:
            'A reason (20 to 2000 characters) and optionally one of one’s documents; replaces a declined request.',
          params: ApplicationIdParamsSchema,
          body: WaiverRequestInputSchema,
          response: { 201: dataEnvelope(FeeWaiverSchema) },
        },
      },
      async (request, reply) =>
        reply.code(201).send({ data: await requestFeeWaiver(db, request.user!.id, request.params.id, request.body) }),
    );
  });
};
