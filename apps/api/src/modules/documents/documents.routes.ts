import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DocumentTypeSchema, AcknowledgedSchema, StudentDocumentsSchema, dataEnvelope } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { requireUserType } from '../auth/index.ts';
import { attachmentDisposition, downloadHeaders } from '../../lib/file-download.ts';
import { SAVE_DATA_VARY, smallerPicture, wantsLessData } from '../../lib/save-data.ts';
import type { Storage } from '../../lib/storage/index.ts';
import {
  deleteOwnDocument,
  deleteOwnProfilePicture,
  listDocuments,
  readOwnDocument,
  readOwnProfilePicture,
  type StoredFile,
} from './documents.service.ts';

function sendFile(reply: FastifyReply, file: StoredFile, disposition: string, cacheControl: string) {
  return downloadHeaders(reply, { contentType: file.mimeType, disposition, cacheControl, length: file.size }).send(
    file.stream,
  );
}

const TypeParams = z.object({ type: DocumentTypeSchema });
const deleted = { 200: dataEnvelope(AcknowledgedSchema) };

/** Students only, each on their own files; other user types are denied, other students' files are 404. */
export const documentsRoutes: FastifyPluginAsyncZod<{ db: Db; storage: Storage }> = async (app, { db, storage }) => {
  const studentOnly = requireUserType('student');

  app.get(
    '/students/me/documents',
    {
      preHandler: studentOnly,
      schema: { tags: ['documents'], response: { 200: dataEnvelope(StudentDocumentsSchema) } },
    },
    async (request) => ({ data: await listDocuments(db, request.user!.id) }),
  );

  app.get(
    '/students/me/documents/:type/download',
    { preHandler: studentOnly, schema: { tags: ['documents'], params: TypeParams } },
    async (request, reply) => {
      const file = await readOwnDocument(db, storage, request.user!, request.params.type);
      return sendFile(reply, file, attachmentDisposition(file.name), 'private, no-store');
    },
  );

  app.delete(
    '/students/me/documents/:type',
    { preHandler: studentOnly, schema: { tags: ['documents'], params: TypeParams, response: deleted } },
    async (request) => {
      await deleteOwnDocument(db, storage, request.user!.id, request.params.type);
      return { data: { ok: true as const } };
    },
  );

  app.get(
    '/students/me/profile-picture',
    { preHandler: studentOnly, schema: { tags: ['documents'], querystring: z.object({ v: z.string().optional() }) } },
    async (request, reply) => {
      const file = await readOwnProfilePicture(db, storage, request.user!);
      // Each new picture has a new URL (?v=<file id>), so the browser may keep this one a while.
      const cacheControl = 'private, max-age=86400';
      reply.header('vary', SAVE_DATA_VARY);
      if (!wantsLessData(request.headers)) return sendFile(reply, file, 'inline', cacheControl);
      const picture = await smallerPicture(file.stream, file.mimeType, request.headers.accept);
      return downloadHeaders(reply, {
        contentType: picture.mimeType,
        disposition: 'inline',
        cacheControl,
        length: picture.bytes.length,
      }).send(picture.bytes);
    },
  );

  app.delete(
    '/students/me/profile-picture',
    { preHandler: studentOnly, schema: { tags: ['documents'], response: deleted } },
    async (request) => {
      await deleteOwnProfilePicture(db, storage, request.user!.id);
      return { data: { ok: true as const } };
    },
  );
};
