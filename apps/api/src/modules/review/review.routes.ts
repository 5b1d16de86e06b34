import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BulkResultSchema,
  BulkReviewSchema,
  dataEnvelope,
  DocumentReviewSchema,
  ExamSittingSchema,
  NoteCreateSchema,
  ReviewApplicationSchema,
  ReviewDocumentSchema,
  ReviewNoteSchema,
  ReviewOptionsSchema,
  ReviewQueuePageSchema,
  ReviewQueueQuerySchema,
  ReviewUpdateSchema,
  ScoreInputSchema,
  ScoreResultSchema,
  InstitutionPaymentParamsSchema,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { attachmentDisposition, downloadHeaders } from '../../lib/file-download.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { staffGuard } from '../partners/index.ts';
import { institutionReceipt } from '../payments/index.ts';
import { REVIEW_PERMISSIONS } from '../submissions/index.ts';
import { reviewContext } from './review-context.ts';
import { exportQueueCsv, listQueue } from './review-queue.ts';
import { addNote, deleteNote, saveScore, updateReview } from './notes.service.ts';
import { bulkReview } from './bulk.service.ts';
import { reviewApplication, reviewOptions } from './review.service.ts';
import {
  refereeLetterFile,
  reviewDocument,
  submittedDocumentFile,
  verifyExamSitting,
} from './document-review.service.ts';

const PartnerParams = z.object({ partnerId: z.uuid() });
const SubmissionParams = PartnerParams.extend({ submissionId: z.uuid() });
const NoteParams = SubmissionParams.extend({ noteId: z.uuid() });
const DocumentParams = SubmissionParams.extend({ documentId: z.uuid() });
const SittingParams = SubmissionParams.extend({ sittingId: z.uuid() });
const RefereeLetterParams = SubmissionParams.extend({ refereeId: z.uuid() });

/**
 * The staff review (issue 8): members holding review_applications or make_decisions ('all' holds both)
 * of the institution in the path; another institution's id, or a submission of another institution,
 * answers 404.
 */
export const reviewRoutes: FastifyPluginAsyncZod<{ db: Db; storage: Storage; publicUrl: string }> = async (
  app,
  { db, storage, publicUrl },
) => {
  const tags = ['review'];
  const preHandler = staffGuard(db, REVIEW_PERMISSIONS);
  const context = (request: FastifyRequest) => reviewContext(db, request.staff!);
  const base = '/partners/:partnerId/review';

  app.get(
    `${base}/options`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'What the queue offers the caller',
        params: PartnerParams,
        response: { 200: dataEnvelope(ReviewOptionsSchema) },
      },
    },
    async (request) => ({ data: await reviewOptions(db, await context(request)) }),
  );

  app.get(
    `${base}/submissions`,
    {
      preHandler,
      schema: {
        tags,
        summary: "The institution's submitted applications, filtered, sorted and paged",
        params: PartnerParams,
        querystring: ReviewQueueQuerySchema,
        response: { 200: dataEnvelope(ReviewQueuePageSchema) },
      },
    },
    async (request) => ({ data: await listQueue(db, await context(request), request.query) }),
  );

  app.get(
    `${base}/submissions.csv`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'The queue with the same filters as CSV (every matching row)',
        params: PartnerParams,
        querystring: ReviewQueueQuerySchema,
      },
    },
    async (request, reply) => {
      const stream = await exportQueueCsv(db, await context(request), request.query);
      const day = new Date().toISOString().slice(0, 10);
      return downloadHeaders(reply, {
        contentType: 'text/csv; charset=utf-8',
        disposition: attachmentDisposition(`applications-${day}.csv`),
        cacheControl: 'private, no-store',
      }).send(stream);
    },
  );

  app.get(
    `${base}/submissions/:submissionId`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'One application with its documents, payment, notes, scores, decision and history',
        params: SubmissionParams,
        response: { 200: dataEnvelope(ReviewApplicationSchema) },
      },
    },
    async (request) => ({
      data: await reviewApplication(db, await context(request), request.params.submissionId),
    }),
  );

  app.post(
    `${base}/submissions/:submissionId/exam-sittings/:sittingId/verify`,
    {
      preHandler,
      schema: {
        tags,
        summary: "Verify one of the applicant's examination results against its document (it is then locked)",
        params: SittingParams,
        response: { 200: dataEnvelope(z.array(ExamSittingSchema)) },
      },
    },
    async (request) => ({
      data: await verifyExamSitting(
        db,
        await context(request),
        request.user!.id,
        request.params.submissionId,
        request.params.sittingId,
      ),
    }),
  );

  app.patch(
    `${base}/submissions/:submissionId`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Move to a custom stage, or (un)assign a reviewer',
        params: SubmissionParams,
        body: ReviewUpdateSchema,
        response: { 200: dataEnvelope(ReviewApplicationSchema) },
      },
    },
    async (request) => ({
      data: await updateReview(db, await context(request), request.params.submissionId, request.body),
    }),
  );

  app.post(
    `${base}/submissions/:submissionId/notes`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Add an internal note (never shown to the applicant)',
        params: SubmissionParams,
        body: NoteCreateSchema,
        response: { 201: dataEnvelope(ReviewNoteSchema) },
      },
    },
    async (request, reply) => {
      const note = await addNote(db, await context(request), request.params.submissionId, request.body);
      return reply.code(201).send({ data: note });
    },
  );

  app.delete(
    `${base}/submissions/:submissionId/notes/:noteId`,
    {
      preHandler,
      schema: { tags, summary: 'Delete one of your own notes', params: NoteParams },
    },
    async (request, reply) => {
      await deleteNote(db, await context(request), request.params.submissionId, request.params.noteId);
      return reply.code(204).send();
    },
  );

  app.put(
    `${base}/submissions/:submissionId/score`,
    {
      preHandler,
      schema: {
        tags,
        summary: "Save your score against the institution's rubric",
        description: "Every criterion of the rubric, 0–100. The institution's thresholds may draft a decision.",
        params: SubmissionParams,
        body: ScoreInputSchema,
        response: { 200: dataEnvelope(ScoreResultSchema) },
      },
    },
    async (request) => ({
      data: await saveScore(db, await context(request), request.params.submissionId, request.body),
    }),
  );

  app.post(
    `${base}/submissions/:submissionId/documents/:documentId/review`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Mark a submitted document verified, or rejected with a reason the applicant sees',
        params: DocumentParams,
        body: DocumentReviewSchema,
        response: { 200: dataEnvelope(ReviewDocumentSchema) },
      },
    },
    async (request) => ({
      data: await reviewDocument(
        db,
        await context(request),
        request.params.submissionId,
        request.params.documentId,
        request.body,
        publicUrl,
      ),
    }),
  );

  app.get(
    `${base}/submissions/:submissionId/documents/:documentId/file`,
    {
      preHandler,
      schema: { tags, summary: 'Download a submitted document', params: DocumentParams },
    },
    async (request, reply) => {
      const file = await submittedDocumentFile(
        db,
        storage,
        await context(request),
        request.params.submissionId,
        request.params.documentId,
      );
      return downloadHeaders(reply, {
        contentType: file.mimeType,
        disposition: attachmentDisposition(file.name),
        cacheControl: 'private, no-store',
        length: file.size,
      }).send(file.stream);
    },
  );

  app.get(
    `${base}/submissions/:submissionId/referees/:refereeId/letter`,
    {
      preHandler,
      schema: { tags, summary: "Download a referee's PDF letter", params: RefereeLetterParams },
    },
    async (request, reply) => {
      const file = await refereeLetterFile(db, storage, await context(request), request.params);
      return downloadHeaders(reply, {
        contentType: 'application/pdf',
        disposition: attachmentDisposition(file.name),
        cacheControl: 'private, no-store',
        length: file.size,
      }).send(file.stream);
    },
  );

  app.post(
    `${base}/bulk`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Move many applications to a stage, or assign them',
        params: PartnerParams,
        body: BulkReviewSchema,
        response: { 200: dataEnvelope(BulkResultSchema) },
      },
    },
    async (request) => ({ data: await bulkReview(db, await context(request), request.body) }),
  );

  app.get(
    `${base}/payments/:paymentId/receipt`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'The receipt of a fee paid to the institution, as a PDF',
        description: 'Another institution’s payment is 404; one not paid is 409.',
        params: InstitutionPaymentParamsSchema,
      },
    },
    async (request, reply) => {
      const receipt = await institutionReceipt(db, request.params.partnerId, request.params.paymentId, publicUrl);
      return downloadHeaders(reply, {
        contentType: 'application/pdf',
        disposition: attachmentDisposition(receipt.fileName),
        cacheControl: 'private, no-store',
        length: receipt.pdf.length,
      }).send(receipt.pdf);
    },
  );
};
