import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { DOCUMENT_TYPES, StudentDocumentsSchema } from '@kaminuza/shared';
import { files } from '../../db/schema/index.ts';
import { samplePdf, samplePng } from '../../seed/sample-files.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs } from '../../test/auth.ts';
import { uploadFile } from '../uploads/test-helpers.ts';
import { DOWNLOAD_CSP } from '../../lib/file-download.ts';
import { SAVE_DATA_PICTURE_PX } from '../../lib/save-data.ts';

const testApp = useTestApp();

const LIST = '/api/v1/students/me/documents';

describe('documents of the signed-in student', () => {
  it('lists all five types, uploaded or not', async () => {
    const student = await signInAs(testApp.app, 'student');
    const pdf = samplePdf('Statement');
    await uploadFile(testApp.app, student.headers, 'personal_statement', 'statement.pdf', pdf);
    const response = await testApp.app.inject({ method: 'GET', url: LIST, headers: student.headers });
    expect(response.statusCode).toBe(200);
    const list = StudentDocumentsSchema.parse(response.json().data);
    expect(list.map((d) => d.type)).toEqual([...DOCUMENT_TYPES]);
    expect(list.find((d) => d.type === 'personal_statement')).toMatchObject({
      status: 'pending',
      file_name: 'statement.pdf',
      mime_type: 'application/pdf',
      size: pdf.length,
      review_note: null,
    });
    expect(list.find((d) => d.type === 'transcript')).toMatchObject({ status: 'not_uploaded', file_name: null });
  });

  it('downloads as a sandboxed attachment with the detected type and nosniff, its name stored without quotes', async () => {
    const student = await signInAs(testApp.app, 'student');
    const pdf = samplePdf('Relevé');
    await uploadFile(testApp.app, student.headers, 'transcript', 'Relevé de notes "2024".pdf', pdf);
    const response = await testApp.app.inject({
      method: 'GET',
      url: `${LIST}/transcript/download`,
      headers: student.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe(DOWNLOAD_CSP);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Relev_ de notes _2024_.pdf"; filename*=UTF-8''Relev%C3%A9%20de%20notes%20_2024_.pdf`,
    );
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.rawPayload.equals(pdf)).toBe(true);
  });

  it('answers 404 for a type without a document and for an unknown type 400', async () => {
    const student = await signInAs(testApp.app, 'student');
    expect(
      (await testApp.app.inject({ method: 'GET', url: `${LIST}/passport/download`, headers: student.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      (await testApp.app.inject({ method: 'DELETE', url: `${LIST}/passport`, headers: student.headers })).statusCode,
    ).toBe(404);
    expect(
      (await testApp.app.inject({ method: 'GET', url: `${LIST}/diploma/download`, headers: student.headers }))
        .statusCode,
    ).toBe(400);
  });

  it('deletes a document and its file', async () => {
    const student = await signInAs(testApp.app, 'student');
    await uploadFile(testApp.app, student.headers, 'test_scores', 'scores.pdf', samplePdf('Scores'));
    const response = await testApp.app.inject({
      method: 'DELETE',
      url: `${LIST}/test_scores`,
      headers: student.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(await testApp.database.db.select().from(files).where(eq(files.owner_id, student.id))).toEqual([]);
    const list = StudentDocumentsSchema.parse(
      (await testApp.app.inject({ method: 'GET', url: LIST, headers: student.headers })).json().data,
    );
    expect(list.find((d) => d.type === 'test_scores')?.status).toBe('not_uploaded');
  });

  it("never shows or deletes another student's document", async () => {
    const owner = await signInAs(testApp.app, 'student');
    await uploadFile(testApp.app, owner.headers, 'passport', 'passport.pdf', samplePdf('Passport'));
    const other = await signInAs(testApp.app, 'student');
    // "me" is always the caller: another student only ever reaches their own (empty) documents.
    expect(
      (await testApp.app.inject({ method: 'GET', url: `${LIST}/passport/download`, headers: other.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      (await testApp.app.inject({ method: 'DELETE', url: `${LIST}/passport`, headers: other.headers })).statusCode,
    ).toBe(404);
    const list = StudentDocumentsSchema.parse(
      (await testApp.app.inject({ method: 'GET', url: LIST, headers: other.headers })).json().data,
    );
    expect(list.every((d) => d.status === 'not_uploaded')).toBe(true);
    const mine = await testApp.app.inject({ method: 'GET', url: `${LIST}/passport/download`, headers: owner.headers });
    expect(mine.statusCode).toBe(200);
  });

  it('is for students only', async () => {
    const denied = { anonymous: 401, staff: 403, admin: 403 };
    await expectAccess(testApp.app, { method: 'GET', url: LIST }, { ...denied, student: 200 });
    await expectAccess(testApp.app, { method: 'GET', url: `${LIST}/transcript/download` }, { ...denied, student: 404 });
    await expectAccess(testApp.app, { method: 'DELETE', url: `${LIST}/transcript` }, { ...denied, student: 404 });
    await expectAccess(
      testApp.app,
      { method: 'GET', url: '/api/v1/students/me/profile-picture' },
      { ...denied, student: 404 },
    );
    await expectAccess(
      testApp.app,
      { method: 'DELETE', url: '/api/v1/students/me/profile-picture' },
      { ...denied, student: 404 },
    );
  });
});

describe('profile picture', () => {
  it('is served inline with nosniff and private caching, and can be removed', async () => {
    const student = await signInAs(testApp.app, 'student');
    const png = samplePng(6, [0, 100, 200]);
    await uploadFile(testApp.app, student.headers, 'profile_picture', 'me.png', png);
    const url = '/api/v1/students/me/profile-picture';
    const response = await testApp.app.inject({ method: 'GET', url, headers: student.headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe(DOWNLOAD_CSP);
    expect(response.headers['cache-control']).toMatch(/^private/);
    expect(response.rawPayload.equals(png)).toBe(true);

    const other = await signInAs(testApp.app, 'student');
    expect((await testApp.app.inject({ method: 'GET', url, headers: other.headers })).statusCode).toBe(404);

    expect((await testApp.app.inject({ method: 'DELETE', url, headers: student.headers })).statusCode).toBe(200);
    expect((await testApp.app.inject({ method: 'GET', url, headers: student.headers })).statusCode).toBe(404);
    expect(await testApp.database.db.select().from(files).where(eq(files.owner_id, student.id))).toEqual([]);
  });
});

describe('profile picture for a browser saving data', () => {
  const url = '/api/v1/students/me/profile-picture';

  /** A photo-like picture: noise compresses badly, so its size is that of a real camera's picture. */
  async function largePicture(): Promise<Buffer> {
    const width = 900;
    const height = 600;
    const pixels = Buffer.alloc(width * height * 3);
    for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 2654435761) >>> 24;
    return sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
  }

  it('sends a smaller rendition with Save-Data: on, the original without, and says the answer varies', async () => {
    const student = await signInAs(testApp.app, 'student');
    const photo = await largePicture();
    expect((await uploadFile(testApp.app, student.headers, 'profile_picture', 'me.jpg', photo)).statusCode).toBe(204);

    const full = await testApp.app.inject({ method: 'GET', url, headers: { ...student.headers, accept: 'image/*' } });
    expect(full.statusCode).toBe(200);
    expect(full.headers.vary).toMatch(/Save-Data/);
    expect(full.rawPayload.equals(photo)).toBe(true);

    const saving = await testApp.app.inject({
      method: 'GET',
      url,
      headers: { ...student.headers, 'save-data': 'on', accept: 'image/avif,image/webp,image/*' },
    });
    expect(saving.statusCode).toBe(200);
    expect(saving.headers.vary).toMatch(/Save-Data/);
    expect(saving.headers['content-type']).toBe('image/webp');
    expect(saving.headers['content-disposition']).toBe('inline');
    expect(saving.headers['x-content-type-options']).toBe('nosniff');
    expect(saving.headers['content-security-policy']).toBe(DOWNLOAD_CSP);
    expect(saving.headers['cache-control']).toMatch(/^private/);
    expect(Number(saving.headers['content-length'])).toBe(saving.rawPayload.length);
    expect(saving.rawPayload.length).toBeLessThan(photo.length / 4);
    const meta = await sharp(saving.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width, meta.height)).toBe(SAVE_DATA_PICTURE_PX);
    expect(meta.width / meta.height).toBeCloseTo(1.5, 1);

    // A browser that does not take WebP gets the picture's own format.
    const jpeg = await testApp.app.inject({
      method: 'GET',
      url,
      headers: { ...student.headers, 'save-data': 'on', accept: 'image/jpeg' },
    });
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(jpeg.rawPayload).metadata()).width).toBe(SAVE_DATA_PICTURE_PX);
    expect(jpeg.rawPayload.length).toBeLessThan(photo.length / 4);

    // Any other value of the hint is no request to save data.
    const off = await testApp.app.inject({ method: 'GET', url, headers: { ...student.headers, 'save-data': 'off' } });
    expect(off.rawPayload.equals(photo)).toBe(true);
  });

  it('sends a picture already that small as it is', async () => {
    const student = await signInAs(testApp.app, 'student');
    const png = samplePng(6, [0, 100, 200]);
    await uploadFile(testApp.app, student.headers, 'profile_picture', 'me.png', png);
    const response = await testApp.app.inject({
      method: 'GET',
      url,
      headers: { ...student.headers, 'save-data': 'on', accept: 'image/webp' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.rawPayload.equals(png)).toBe(true);
  });

  it("is still only the student's own", async () => {
    const student = await signInAs(testApp.app, 'student');
    await uploadFile(testApp.app, student.headers, 'profile_picture', 'me.jpg', await largePicture());
    const other = await signInAs(testApp.app, 'student');
    const headers = { ...other.headers, 'save-data': 'on' };
    expect((await testApp.app.inject({ method: 'GET', url, headers })).statusCode).toBe(404);
    const staff = await signInAs(testApp.app, 'staff');
    expect(
      (await testApp.app.inject({ method: 'GET', url, headers: { ...staff.headers, 'save-data': 'on' } })).statusCode,
    ).toBe(403);
    expect((await testApp.app.inject({ method: 'GET', url, headers: { 'save-data': 'on' } })).statusCode).toBe(401);
  });
});

describe('unsafe file names', () => {
  const download = (headers: Record<string, string>) =>
    testApp.app.inject({ method: 'GET', url: `${LIST}/transcript/download`, headers });
  const storedName = async (ownerId: string) =>
    (await testApp.database.db.select({ name: files.original_name }).from(files).where(eq(files.owner_id, ownerId)))[0]
      ?.name;
  /** A header value a response splitter or a quote cannot break: printable ASCII, two quotes only. */
  const expectSafeDisposition = (header: unknown) => {
    expect(typeof header).toBe('string');
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!._~-]*$/);
    expect((header as string).split('"')).toHaveLength(3);
  };

  it.each([
    ['CR/LF', 'report\r\nSet-Cookie: session=stolen.pdf', 'reportSet-Cookie_ session=stolen.pdf'],
    ['quotes', 'my "final" version.pdf', 'my _final_ version.pdf'],
    ['a path', '../../../etc/passwd.pdf', 'passwd.pdf'],
    ['a Windows path', 'C:\\Users\\amina\\..\\transcript.pdf', 'transcript.pdf'],
    ['a right-to-left override', 'invoice\u202Efdp.exe', 'invoicefdp.pdf'],
    ['only dots', '.....', 'document.pdf'],
    ['a mismatched extension', 'photo.jpg', 'photo.pdf'],
    ['1000 characters', `${'x'.repeat(1000)}.pdf`, `${'x'.repeat(251)}.pdf`],
  ])('stores and sends a name with %s safely', async (_, sent, kept) => {
    const student = await signInAs(testApp.app, 'student');
    const uploaded = await uploadFile(testApp.app, student.headers, 'transcript', sent, samplePdf('Transcript'));
    expect(uploaded.statusCode).toBe(204);
    expect(await storedName(student.id)).toBe(kept);

    const listed = StudentDocumentsSchema.parse(
      (await testApp.app.inject({ method: 'GET', url: LIST, headers: student.headers })).json().data,
    );
    expect(listed.find((d) => d.type === 'transcript')?.file_name).toBe(kept);

    const response = await download(student.headers);
    expect(response.statusCode).toBe(200);
    expectSafeDisposition(response.headers['content-disposition']);
    expect(response.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(kept)}`);
    expect(response.headers['content-security-policy']).toBe(DOWNLOAD_CSP);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('cleans a name stored before names were cleaned as it sends it', async () => {
    const student = await signInAs(testApp.app, 'student');
    await uploadFile(testApp.app, student.headers, 'transcript', 't.pdf', samplePdf('Transcript'));
    await testApp.database.db
      .update(files)
      .set({ original_name: '..\\evil"\r\n\u202Egnp.html' })
      .where(eq(files.owner_id, student.id));
    const response = await download(student.headers);
    expect(response.statusCode).toBe(200);
    expectSafeDisposition(response.headers['content-disposition']);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="evil_gnp.pdf"; filename*=UTF-8''evil_gnp.pdf`,
    );
  });
});
