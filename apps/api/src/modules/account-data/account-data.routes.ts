import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZipFile } from 'yazl';
import { AccountDeletionSchema, dataEnvelope, DeletionRequestSchema, exportFileName } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { requireUser, requireUserType, consume, type Limit } from '../auth/index.ts';
import { AppError } from '../../lib/errors.ts';
import { attachmentDisposition, downloadHeaders } from '../../lib/file-download.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { accountExport } from './export.service.ts';
import { cancelDeletion, getDeletion, scheduleDeletion } from './deletion.service.ts';

export interface AccountDataRoutesOptions {
  db: Db;
  storage: Storage;
  publicUrl: string;
}

/** Building an archive reads every file of the account: a few per hour is plenty for a person. */
export const EXPORT_LIMIT: Limit = { name: 'data-export:user', max: 5, windowMs: 60 * 60_000 };

/**
 * Account data rights (issue 10, ADR 018): any signed-in user downloads what Kaminuza holds about them;
 * an applicant schedules the deletion of their account (password required), sees it, and cancels it.
 * Every route acts on the caller's own account only.
 */
export const accountDataRoutes: FastifyPluginAsyncZod<AccountDataRoutesOptions> = async (
  app,
  { db, storage, publicUrl },
) => {
  const tags = ['account data'];
  const deletion = { 200: dataEnvelope(AccountDeletionSchema) };
  const caller = (request: { user?: { id: string; type: string } }) => {
    if (!request.user) throw new AppError('UNAUTHENTICATED');
    return request.user;
  };
  // Guards run before validation, so visitors and other account types learn nothing from the body rules.
  const applicant = requireUserType('student');

  app.get(
    '/me/export',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: 'Downloads everything held about the caller as one zip: data.json and their uploaded files',
      },
    },
    async (request, reply) => {
      const user = caller(request);
      await consume(db, EXPORT_LIMIT, user.id);
      const now = new Date();
      const { data, files } = await accountExport(db, user.id, now);
      const zip = new ZipFile();
      // A file gone between the listing and its turn in the archive (the deletion worker, a hand) fails the
      // zip after the answer has started: the download is cut short, which the client sees as a failed
      // transfer. Unheard, yazl's 'error' would end the process.
      zip.on('error', (error: Error) => {
        request.log.error({ err: error }, 'data export failed while streaming');
        (zip.outputStream as Readable).destroy(error);
      });
      zip.addBuffer(Buffer.from(JSON.stringify(data, null, 2)), 'data.json', { mtime: now });
      for (const file of files) {
        // A file whose bytes are gone (removed by hand, a failed move) is listed in data.json only.
        if (!(await storage.exists(file.key))) continue;
        zip.addReadStreamLazy(file.path, { mtime: now }, (callback) => {
          storage.read(file.key).then(
            (stream) => callback(null, stream),
            (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), undefined!),
          );
        });
      }
      zip.end();
      return downloadHeaders(reply, {
        contentType: 'application/zip',
        disposition: attachmentDisposition(exportFileName(now)),
        cacheControl: 'private, no-store',
      }).send(zip.outputStream);
    },
  );

  app.get(
    '/me/deletion',
    {
      preValidation: requireUser,
      schema: { tags, summary: 'When the account will be deleted, if it is scheduled', response: deletion },
    },
    async (request) => ({ data: await getDeletion(db, caller(request).id) }),
  );

  app.post(
    '/me/deletion',
    {
      preValidation: applicant,
      schema: {
        tags,
        summary: 'Schedules the deletion of the caller’s applicant account after the grace period',
        body: DeletionRequestSchema,
        response: deletion,
      },
    },
    async (request) => ({
      data: await scheduleDeletion(db, caller(request).id, request.body.password, publicUrl),
    }),
  );

  app.delete(
    '/me/deletion',
    { preValidation: applicant, schema: { tags, summary: 'Cancels a scheduled deletion', response: deletion } },
    async (request) => ({ data: await cancelDeletion(db, caller(request).id) }),
  );
};
