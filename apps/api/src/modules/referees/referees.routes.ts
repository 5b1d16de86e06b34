import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataEnvelope,
  REFERENCE_LETTER_MAX_BYTES,
  REFEREE_MESSAGES as R,
  RefereeInviteSchema,
  RefereeParamsSchema,
  RefereeSchema,
  ReferenceRequestSchema,
  ReferenceSubmitSchema,
  ReferenceTokenParamsSchema,
} from '@kaminuza/shared';
import { attachmentDisposition, downloadHeaders } from '../../lib/file-download.ts';
import { AppError } from '../../lib/errors.ts';
import { consume, requireUserType, type Limit } from '../auth/index.ts';
import {
  applicantLetter,
  inviteReferee,
  listReferees,
  openReference,
  removeReferee,
  resendInvitation,
  submitReference,
  uploadLetter,
  type RefereeDeps,
} from './referees.service.ts';

/** Requests to referees' links per address: the links are signed, this only slows guessing and floods. */
export const REFERENCE_LINK_LIMIT: Limit = { name: 'reference-link:ip', max: 60, windowMs: 15 * 60_000 };
/** Invitations an applicant may send in a day (new referees and invitations sent again). */
export const REFEREE_INVITE_LIMIT: Limit = { name: 'referee-invite:user', max: 20, windowMs: 24 * 60 * 60_000 };

const ApplicationParamsSchema = z.object({ applicationId: z.uuid() });

const LetterHeadersSchema = z.object({
  'content-type': z.string().optional(),
  /** The file's name as the referee chose it, URI-encoded (kept only to offer it back on download). */
  'x-file-name': z.string().max(600).optional(),
});

function decodedName(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * Referees (ADR 054): the applicant invites, lists, reminds and removes them on their own application
 * (another student's answers 404); the referee, without an account, opens their link, uploads a PDF and
 * sends the reference. Link requests are limited per address.
 */
export const refereesRoutes: FastifyPluginAsyncZod<RefereeDeps & { ipLimitMultiplier?: number }> = async (
  app,
  { ipLimitMultiplier = 1, ...deps },
) => {
  const tags = ['referees'];
  const studentOnly = requireUserType('student');
  const invites = (request: FastifyRequest) => consume(deps.db, REFEREE_INVITE_LIMIT, request.user!.id);
  const perIp = (request: FastifyRequest) =>
    consume(deps.db, { ...REFERENCE_LINK_LIMIT, max: REFERENCE_LINK_LIMIT.max * ipLimitMultiplier }, request.ip);

  app.get(
    '/applications/:applicationId/referees',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: "The application's referees with their status",
        params: ApplicationParamsSchema,
        response: { 200: dataEnvelope(z.array(RefereeSchema)) },
      },
    },
    async (request) => ({ data: await listReferees(deps.db, request.user!.id, request.params.applicationId) }),
  );

  app.post(
    '/applications/:applicationId/referees',
    {
      preHandler: [studentOnly, invites],
      schema: {
        tags,
        summary: 'Invites a referee: they are emailed a signed link that works for 30 days',
        params: ApplicationParamsSchema,
        body: RefereeInviteSchema,
        response: { 201: dataEnvelope(RefereeSchema) },
      },
    },
    async (request, reply) => {
      const referee = await inviteReferee(deps, request.user!.id, request.params.applicationId, request.body);
      return reply.code(201).send({ data: referee });
    },
  );

  app.post(
    '/applications/:applicationId/referees/:refereeId/resend',
    {
      preHandler: [studentOnly, invites],
      schema: {
        tags,
        summary: 'Sends the invitation again (at most once an hour); the link works 30 days from now',
        params: RefereeParamsSchema,
        response: { 200: dataEnvelope(RefereeSchema) },
      },
    },
    async (request) => ({
      data: await resendInvitation(deps, request.user!.id, request.params.applicationId, request.params.refereeId),
    }),
  );

  app.delete(
    '/applications/:applicationId/referees/:refereeId',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: 'Removes a referee whose letter has not arrived, before submitting',
        params: RefereeParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await removeReferee(deps, request.user!.id, request.params.applicationId, request.params.refereeId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/applications/:applicationId/referees/:refereeId/letter',
    {
      preHandler: studentOnly,
      schema: {
        tags,
        summary: "A referee's PDF letter; 403 when the applicant waived reading it",
        params: RefereeParamsSchema,
      },
    },
    async (request, reply) => {
      const file = await applicantLetter(
        deps,
        request.user!.id,
        request.params.applicationId,
        request.params.refereeId,
      );
      return downloadHeaders(reply, {
        contentType: 'application/pdf',
        disposition: attachmentDisposition(file.name),
        cacheControl: 'private, no-store',
        length: file.size,
      }).send(file.stream);
    },
  );

  /* ------------------------------------------------------------ the referee's link (no account) */

  const linkRoutes: FastifyPluginAsyncZod = async (links) => {
    // The letter comes as the request's body: a PDF of at most 5 MB (its bytes are checked, not this type).
    for (const type of ['application/pdf', 'application/octet-stream']) {
      links.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: REFERENCE_LETTER_MAX_BYTES }, (_r, body, done) =>
        done(null, body),
      );
    }

    links.get(
      '/references/:token',
      {
        onRequest: perIp,
        schema: {
          tags,
          summary: "What a referee's link asks: applicant, institution, program and the institution's questions",
          description: 'A link not made here or replaced: 404; expired or already used: 410.',
          params: ReferenceTokenParamsSchema,
          response: { 200: dataEnvelope(ReferenceRequestSchema) },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
        return { data: await openReference(deps, request.params.token) };
      },
    );

    links.put(
      '/references/:token/letter',
      {
        onRequest: perIp,
        bodyLimit: REFERENCE_LETTER_MAX_BYTES,
        schema: {
          tags,
          summary: 'The letter as a PDF (the body), replacing one uploaded before; at most 5 MB',
          params: ReferenceTokenParamsSchema,
          headers: LetterHeadersSchema,
          response: { 200: dataEnvelope(z.object({ file_name: z.string() })) },
        },
      },
      async (request) => {
        if (!Buffer.isBuffer(request.body)) throw new AppError('INVALID_ARGUMENT', R.letter_not_pdf);
        return {
          data: await uploadLetter(
            deps,
            request.params.token,
            request.body,
            decodedName(request.headers['x-file-name']),
          ),
        };
      },
    );

    links.post(
      '/references/:token',
      {
        onRequest: perIp,
        schema: {
          tags,
          summary: 'Sends the reference; the link cannot be used again',
          params: ReferenceTokenParamsSchema,
          body: ReferenceSubmitSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await submitReference(deps, request.params.token, request.body);
        return reply.code(204).send(null);
      },
    );
  };
  await app.register(linkRoutes);
};
