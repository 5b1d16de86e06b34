import { expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '@kaminuza/shared';
import { samplePdf } from '../../seed/sample-files.ts';
import { useTestApp } from '../../test/app.ts';
import { signInAs } from '../../test/auth.ts';
import { checkCreation, parseUploadMetadata } from './uploads.service.ts';
import { createUpload, uploadFile, uploadMetadata } from './test-helpers.ts';

const testApp = useTestApp();

it('refuses metadata with a NUL at creation, before any byte is taken', () => {
  const header = uploadMetadata({ purpose: 'transcript', filename: 'a\u0000b.pdf' });
  expect(parseUploadMetadata(header).filename).toBe('a\u0000b.pdf');
  expect(checkCreation(header, '100')).toEqual({ ok: false, http: 400, message: UPLOAD_MESSAGES.upload_failed });
  expect(checkCreation(uploadMetadata({ purpose: 'transc\u0000ript', filename: 'a.pdf' }), '100').ok).toBe(false);
  expect(checkCreation(uploadMetadata({ purpose: 'transcript', filename: 'relevé 😀.pdf' }), '100').ok).toBe(true);
});

it('answers 400 to an upload named with a NUL, where its finishing used to answer 500', async () => {
  const student = await signInAs(testApp.app, 'student');
  const bytes = samplePdf('transcript');
  const { response } = await createUpload(testApp.app, student.headers, {
    purpose: 'transcript',
    filename: 'tran\u0000script.pdf',
    length: bytes.length,
  });
  expect(response.statusCode).toBe(400);
  expect(response.json().error).toEqual({ status: 'INVALID_ARGUMENT', message: UPLOAD_MESSAGES.upload_failed });
  const kept = await uploadFile(testApp.app, student.headers, 'transcript', 'transcript.pdf', bytes);
  expect(kept.statusCode).toBe(204);
});
