import { afterAll, beforeAll, expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '@kaminuza/shared';
import type { App } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import { samplePdf } from '../../seed/sample-files.ts';
import { createTestApp } from '../../test/app.ts';
import { signInAs } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import { checkCreation, parseUploadMetadata } from './uploads.service.ts';
import { createUpload, uploadFile, uploadMetadata } from './test-helpers.ts';

let database: Database;
let app: App;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
});

afterAll(async () => {
  await app.close();
  await database.close();
});

it('refuses metadata with a NUL at creation, before any byte is taken', () => {
  const header = uploadMetadata({ purpose: 'transcript', filename: 'a\u0000b.pdf' });
  expect(parseUploadMetadata(header).filename).toBe('a\u0000b.pdf');
  expect(checkCreation(header, '100')).toEqual({ ok: false, http: 400, message: UPLOAD_MESSAGES.upload_failed });
  expect(checkCreation(uploadMetadata({ purpose: 'transc\u0000ript', filename: 'a.pdf' }), '100').ok).toBe(false);
  expect(checkCreation(uploadMetadata({ purpose: 'transcript', filename: 'relevé 😀.pdf' }), '100').ok).toBe(true);
});

it('answers 400 to an upload named with a NUL, where its finishing used to answer 500', async () => {
  const student = await signInAs(app, 'student');
  const bytes = samplePdf('transcript');
  const { response } = await createUpload(app, student.headers, {
    purpose: 'transcript',
    filename: 'tran\u0000script.pdf',
    length: bytes.length,
  });
  expect(response.statusCode).toBe(400);
  expect(response.json().error).toEqual({ status: 'INVALID_ARGUMENT', message: UPLOAD_MESSAGES.upload_failed });
  const kept = await uploadFile(app, student.headers, 'transcript', 'transcript.pdf', bytes);
  expect(kept.statusCode).toBe(204);
});
