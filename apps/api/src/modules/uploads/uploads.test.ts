import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { UPLOAD_MAX_DOCUMENT_BYTES, UPLOAD_MAX_PICTURE_BYTES, UPLOAD_MESSAGES } from '@kaminuza/shared';
import type { App } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import { documents, files, students } from '../../db/schema/index.ts';
import { samplePdf, samplePng } from '../../seed/sample-files.ts';
import { createTestApp, testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createUpload, headUpload, patchUpload, uploadFile } from './test-helpers.ts';
import { openUploadArea } from './upload-area.ts';

let database: Database;
let app: App;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kaminuza-uploads-test-'));
  database = await createTestDatabase();
  app = await createTestApp(database, testEnv({ DATA_DIR: dataDir }));
});

afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function storedKeys(): Promise<string[]> {
  const entries = await readdir(join(dataDir, 'files'), { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

async function uploadLeftovers(): Promise<string[]> {
  return (await readdir(join(dataDir, 'uploads'))).filter((name) => !name.startsWith('.'));
}

async function fileRowsOf(account: TestAccount) {
  return database.db.select().from(files).where(eq(files.owner_id, account.id));
}

describe('tus uploads', () => {
  it('keeps a PDF as the student document of its type, status pending, with its hash', async () => {
    const student = await signInAs(app, 'student');
    const pdf = samplePdf('Transcript');
    const response = await uploadFile(app, student.headers, 'transcript', 'bulletin scolaire.pdf', pdf);
    expect(response.statusCode).toBe(204);
    const [file] = await fileRowsOf(student);
    expect(file).toMatchObject({
      original_name: 'bulletin scolaire.pdf',
      mime_type: 'application/pdf',
      size: pdf.length,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      purpose: 'document',
    });
    // Stored under a generated name, never the uploaded one.
    expect(file!.storage_key).not.toContain('bulletin');
    expect(await storedKeys()).toContain(file!.storage_key.split('/').pop());
    const [document] = await database.db.select().from(documents).where(eq(documents.file_id, file!.id));
    expect(document).toMatchObject({ type: 'transcript', status: 'pending' });
  });

  it('takes a small file in the creation request itself', async () => {
    const student = await signInAs(app, 'student');
    const png = samplePng(4, [10, 20, 30]);
    const { response } = await createUpload(app, student.headers, {
      purpose: 'passport',
      filename: 'passport.png',
      length: png.length,
      body: png,
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['upload-offset']).toBe(String(png.length));
    const [file] = await fileRowsOf(student);
    expect(file?.mime_type).toBe('image/png');
  });

  it('refuses an HTML file named .pdf by its bytes, and deletes them', async () => {
    const student = await signInAs(app, 'student');
    const before = await storedKeys();
    const html = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
    const response = await uploadFile(app, student.headers, 'transcript', 'transcript.pdf', html);
    expect(response.statusCode).toBe(415);
    expect(JSON.parse(response.body)).toMatchObject({ error: { message: UPLOAD_MESSAGES.file_type_not_allowed } });
    expect(await fileRowsOf(student)).toEqual([]);
    expect(await storedKeys()).toEqual(before);
    expect(await uploadLeftovers()).toEqual([]);
  });

  it('refuses a PDF as a profile picture', async () => {
    const student = await signInAs(app, 'student');
    const response = await uploadFile(app, student.headers, 'profile_picture', 'me.pdf', samplePdf('me'));
    expect(response.statusCode).toBe(415);
    expect(JSON.parse(response.body)).toMatchObject({ error: { message: UPLOAD_MESSAGES.picture_type_not_allowed } });
  });

  it('refuses an oversized upload at creation with 413, before any byte is stored', async () => {
    const student = await signInAs(app, 'student');
    const before = await uploadLeftovers();
    for (const [purpose, limit] of [
      ['transcript', UPLOAD_MAX_DOCUMENT_BYTES],
      ['profile_picture', UPLOAD_MAX_PICTURE_BYTES],
    ] as const) {
      const { response, location } = await createUpload(app, student.headers, {
        purpose,
        filename: 'big.pdf',
        length: limit + 1,
      });
      expect(response.statusCode).toBe(413);
      expect(location).toBeUndefined();
      expect(JSON.parse(response.body)).toMatchObject({ error: { message: UPLOAD_MESSAGES.file_too_large } });
    }
    expect(await uploadLeftovers()).toEqual(before);
  });

  it('refuses more bytes than the declared length', async () => {
    const student = await signInAs(app, 'student');
    const { location } = await createUpload(app, student.headers, {
      purpose: 'transcript',
      filename: 'a.pdf',
      length: 10,
    });
    const response = await patchUpload(app, student.headers, location!, 0, samplePdf('too long'));
    expect(response.statusCode).toBe(413);
  });

  it('refuses an unknown purpose or a missing file name', async () => {
    const student = await signInAs(app, 'student');
    for (const [purpose, filename] of [
      ['diploma', 'a.pdf'],
      ['transcript', ''],
    ]) {
      const { response } = await createUpload(app, student.headers, {
        purpose: purpose!,
        filename: filename!,
        length: 10,
      });
      expect(response.statusCode).toBe(400);
    }
  });

  it('lets only students create uploads', async () => {
    for (const audience of ['anonymous', 'staff', 'admin'] as const) {
      const headers = audience === 'anonymous' ? {} : (await signInAs(app, audience)).headers;
      const { response } = await createUpload(app, headers, { purpose: 'transcript', filename: 'a.pdf', length: 10 });
      expect(response.statusCode, audience).toBe(audience === 'anonymous' ? 401 : 403);
    }
  });

  it('hides an upload from everyone but its creator (HEAD, PATCH, DELETE answer 404)', async () => {
    const owner = await signInAs(app, 'student');
    const pdf = samplePdf('Mine');
    const { location } = await createUpload(app, owner.headers, {
      purpose: 'transcript',
      filename: 'a.pdf',
      length: pdf.length,
    });
    expect((await patchUpload(app, owner.headers, location!, 0, pdf.subarray(0, 10))).statusCode).toBe(204);

    const other = await signInAs(app, 'student');
    expect((await headUpload(app, other.headers, location!)).statusCode).toBe(404);
    expect((await patchUpload(app, other.headers, location!, 10, pdf.subarray(10))).statusCode).toBe(404);
    expect(
      (await app.inject({ method: 'DELETE', url: location!, headers: { ...other.headers, 'tus-resumable': '1.0.0' } }))
        .statusCode,
    ).toBe(404);
    for (const audience of ['staff', 'admin'] as const) {
      expect((await headUpload(app, (await signInAs(app, audience)).headers, location!)).statusCode).toBe(403);
    }
    expect((await headUpload(app, {}, location!)).statusCode).toBe(401);

    const head = await headUpload(app, owner.headers, location!);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('10');
    expect((await patchUpload(app, owner.headers, location!, 10, pdf.subarray(10))).statusCode).toBe(204);
    expect(await fileRowsOf(other)).toEqual([]);
    expect(await fileRowsOf(owner)).toHaveLength(1);
  });

  it('the clean-up removes an upload left unfinished past its expiry, and only then', async () => {
    const owner = await signInAs(app, 'student');
    const pdf = samplePdf('Abandoned');
    const { location } = await createUpload(app, owner.headers, {
      purpose: 'transcript',
      filename: 'a.pdf',
      length: pdf.length,
    });
    expect((await patchUpload(app, owner.headers, location!, 0, pdf.subarray(0, 10))).statusCode).toBe(204);
    const id = location!.split('/').at(-1)!;
    const uploads = { kind: 'disk' as const, dir: join(dataDir, 'uploads') };
    // Not due with the real expiry.
    expect(await openUploadArea(uploads).deleteExpired()).toBe(0);
    expect(await uploadLeftovers()).toContain(id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await openUploadArea(uploads, { expiryMs: 1 }).deleteExpired()).toBeGreaterThan(0);
    expect((await uploadLeftovers()).filter((name) => name.startsWith(id))).toEqual([]);
    expect((await headUpload(app, owner.headers, location!)).statusCode).toBe(404);
  });

  it('lets the creator cancel an upload in progress', async () => {
    const owner = await signInAs(app, 'student');
    const { location } = await createUpload(app, owner.headers, {
      purpose: 'passport',
      filename: 'p.pdf',
      length: 100,
    });
    const response = await app.inject({
      method: 'DELETE',
      url: location!,
      headers: { ...owner.headers, 'tus-resumable': '1.0.0' },
    });
    expect(response.statusCode).toBe(204);
    expect((await headUpload(app, owner.headers, location!)).statusCode).toBe(404);
  });

  it('replacing a document deletes the old file and resets the status to pending', async () => {
    const student = await signInAs(app, 'student');
    await uploadFile(app, student.headers, 'passport', 'old.pdf', samplePdf('old'));
    const [old] = await fileRowsOf(student);
    await database.db
      .update(documents)
      .set({ status: 'rejected', review_note: 'Blurry' })
      .where(eq(documents.file_id, old!.id));

    await uploadFile(app, student.headers, 'passport', 'new.png', samplePng(2, [0, 0, 0]));
    const rows = await fileRowsOf(student);
    expect(rows.map((row) => row.original_name)).toEqual(['new.png']);
    expect(await storedKeys()).not.toContain(old!.storage_key.split('/').pop());
    const [document] = await database.db.select().from(documents).where(eq(documents.file_id, rows[0]!.id));
    expect(document).toMatchObject({ status: 'pending', review_note: null });
  });

  it('sets and replaces the profile picture', async () => {
    const student = await signInAs(app, 'student');
    await uploadFile(app, student.headers, 'profile_picture', 'me.png', samplePng(8, [200, 0, 0]));
    await uploadFile(app, student.headers, 'profile_picture', 'me2.png', samplePng(8, [0, 200, 0]));
    const rows = await fileRowsOf(student);
    expect(rows.map((row) => row.original_name)).toEqual(['me2.png']);
    const [record] = await database.db.select().from(students).where(eq(students.user_id, student.id));
    expect(record?.profile_picture).toBe(rows[0]!.id);
  });
});
