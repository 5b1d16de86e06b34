import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { UPLOAD_MESSAGES } from '@kaminuza/shared';
import { buildApp, type App } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import { files } from '../../db/schema/index.ts';
import { openFileStores, type FileStores } from '../../lib/storage/index.ts';
import { samplePdf, samplePng } from '../../seed/sample-files.ts';
import { testEnv } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import { startS3Server, type S3Server } from '../../test/s3-server.ts';
import { createUpload, headUpload, patchUpload, uploadFile } from './test-helpers.ts';
import { openUploadArea } from './upload-area.ts';

/**
 * Uploads with STORAGE_DRIVER=s3, against a real S3 server started here (radosgw): two api instances
 * share the database and the bucket, each with its own empty local folder, as two machines behind a
 * load balancer would. On PostgreSQL (TEST_DATABASE_URL) they also share the upload lock.
 */
let s3: S3Server;
let database: Database & { url?: string };
const instances: { app: App; files: FileStores; dataDir: string }[] = [];
let client: S3Client;

/** The lock is shared through a PostgreSQL server; embedded PGlite is one process, with tus's own lock. */
const onDatabaseServer = () => Boolean(process.env.TEST_DATABASE_URL);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  s3 = await startS3Server();
  database = await createTestDatabase();
  for (let i = 0; i < 2; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'kz-uploads-s3-'));
    const env = testEnv({
      DATA_DIR: dataDir,
      ...s3.env,
      // The upload lock is shared through the database server when there is one.
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    });
    const files = openFileStores(env);
    instances.push({ app: await buildApp({ database, env, logger: false, files }), files, dataDir });
  }
  client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
}, 120_000);

afterAll(async () => {
  for (const { app, files, dataDir } of instances) {
    await app.close();
    await files.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  client?.destroy();
  await database?.close();
  await s3?.stop();
});

/** The instances' addresses, for requests over real sockets (a dropped or stalled connection). */
let urls: string[] | undefined;
async function listening(): Promise<string[]> {
  urls ??= await Promise.all(instances.map(({ app }) => app.listen({ port: 0, host: '127.0.0.1' })));
  return urls;
}

const appA = () => instances[0]!.app;
const appB = () => instances[1]!.app;

async function bucketKeys(): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

async function multipartUploads(): Promise<string[]> {
  const listed = await client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket }));
  return (listed.Uploads ?? []).map((upload) => upload.Key!);
}

async function fileRowsOf(account: TestAccount) {
  return database.db.select().from(files).where(eq(files.owner_id, account.id));
}

/** Nothing of any upload is ever written to an instance's local folder. */
function localLeftovers(): string[] {
  return instances.flatMap(({ dataDir }) => readdirSync(dataDir, { recursive: true }) as string[]);
}

describe('tus uploads kept in the bucket (STORAGE_DRIVER=s3)', () => {
  it('begins an upload through one instance and finishes it through the other, byte for byte', async () => {
    // ~7 MB: more than one S3 part (5 MB), sent as a browser does, in growing chunks.
    const source = samplePdf(`Transcript ${randomBytes(8).toString('hex')}`, 7 * 1024 * 1024);
    const expected = sha256(source);
    const student = await signInAs(appA(), 'student');

    const { response, location } = await createUpload(appA(), student.headers, {
      purpose: 'transcript',
      filename: 'transcript.pdf',
      length: source.length,
    });
    expect(response.statusCode).toBe(201);
    // Two chunks through the first instance: 256 KB (kept as an incomplete part), then 3 MB.
    let offset = 0;
    for (const size of [256 * 1024, 3 * 1024 * 1024]) {
      const patched = await patchUpload(
        appA(),
        student.headers,
        location!,
        offset,
        source.subarray(offset, offset + size),
      );
      expect(patched.statusCode).toBe(204);
      offset += size;
    }

    // The second instance has never seen this upload: it reads the offset from the bucket.
    const head = await headUpload(appB(), student.headers, location!);
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['upload-offset'])).toBe(offset);
    const rest = await patchUpload(appB(), student.headers, location!, offset, source.subarray(offset));
    expect(rest.statusCode).toBe(204);
    const fileId = rest.headers['x-file-id'];

    const [file] = await fileRowsOf(student);
    expect(file).toMatchObject({ id: fileId, sha256: expected, size: source.length, mime_type: 'application/pdf' });
    // Read back through the other instance's storage: the same object, the same bytes.
    const stored = await buffer(await instances[0]!.files.storage.read(file!.storage_key));
    expect(sha256(stored)).toBe(expected);
    // Only the stored file is left in the bucket: the upload's object, info and part are gone.
    expect(await bucketKeys()).toEqual([file!.storage_key]);
    expect(await multipartUploads()).toEqual([]);
    expect(localLeftovers()).toEqual([]);
    console.info(`s3 uploads: ${source.length} bytes begun on one instance, finished on the other; sha256 ${expected}`);
  });

  it('resumes through the other instance an upload whose connection dropped mid-request', async () => {
    const urls = await listening();
    const source = samplePdf(`Dropped ${randomBytes(8).toString('hex')}`, 6 * 1024 * 1024);
    const student = await signInAs(appA(), 'student');
    const tus = { ...student.headers, 'tus-resumable': '1.0.0' };
    const { location } = await createUpload(appA(), student.headers, {
      purpose: 'transcript',
      filename: 'dropped.pdf',
      length: source.length,
    });
    // Half of the file to the first instance, then the connection is cut in the middle of the request.
    const half = 3 * 1024 * 1024;
    const controller = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        if (sent >= half) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          controller.abort();
          return;
        }
        const piece = source.subarray(sent, sent + 64 * 1024);
        sent += piece.length;
        stream.enqueue(piece);
      },
    });
    await expect(
      fetch(`${urls[0]}${location}`, {
        method: 'PATCH',
        headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body,
        signal: controller.signal,
        duplex: 'half',
      } as RequestInit),
    ).rejects.toThrow();
    // What the first instance received is in the bucket once its request has wound down (on PostgreSQL
    // the shared lock makes the HEAD wait for that; embedded, the offset is read until it stops moving).
    let offset = -1;
    await expect
      .poll(
        async () => {
          const head = await fetch(`${urls[1]}${location}`, { method: 'HEAD', headers: tus });
          const previous = offset;
          offset = Number(head.headers.get('upload-offset'));
          return offset > 0 && offset === previous;
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe(true);
    expect(offset).toBeLessThanOrEqual(half);
    const rest = await fetch(`${urls[1]}${location}`, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: source.subarray(offset),
    });
    expect(rest.status).toBe(204);
    const [file] = await fileRowsOf(student);
    expect(file?.sha256).toBe(sha256(source));
    expect(sha256(await buffer(await instances[1]!.files.storage.read(file!.storage_key)))).toBe(sha256(source));
    console.info(`s3 uploads: cut at ${offset} of ${source.length} bytes on one instance, finished on the other`);
  });

  it('takes a small file in the creation request itself', async () => {
    const student = await signInAs(appB(), 'student');
    const png = samplePng(4, [10, 20, 30]);
    const { response } = await createUpload(appB(), student.headers, {
      purpose: 'passport',
      filename: 'passport.png',
      length: png.length,
      body: png,
    });
    expect(response.statusCode).toBe(201);
    const [file] = await fileRowsOf(student);
    expect(file).toMatchObject({ mime_type: 'image/png', sha256: sha256(png) });
    expect(sha256(await buffer(await instances[1]!.files.storage.read(file!.storage_key)))).toBe(sha256(png));
  });

  it('refuses an HTML file named .pdf by its bytes read from the bucket, and deletes them', async () => {
    const student = await signInAs(appA(), 'student');
    const before = await bucketKeys();
    const html = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
    const response = await uploadFile(appA(), student.headers, 'transcript', 'transcript.pdf', html);
    expect(response.statusCode).toBe(415);
    expect(JSON.parse(response.body)).toMatchObject({ error: { message: UPLOAD_MESSAGES.file_type_not_allowed } });
    expect(await fileRowsOf(student)).toEqual([]);
    expect(await bucketKeys()).toEqual(before);
  });

  it('lets the creator cancel an upload in progress through either instance, leaving nothing in the bucket', async () => {
    const owner = await signInAs(appA(), 'student');
    const before = await bucketKeys();
    const pdf = samplePdf('cancelled');
    const { location } = await createUpload(appA(), owner.headers, {
      purpose: 'passport',
      filename: 'p.pdf',
      length: pdf.length,
    });
    expect((await patchUpload(appA(), owner.headers, location!, 0, pdf.subarray(0, 100))).statusCode).toBe(204);
    // Someone else sees nothing of it, on either instance.
    const other = await signInAs(appB(), 'student');
    expect((await headUpload(appB(), other.headers, location!)).statusCode).toBe(404);
    const response = await appB().inject({
      method: 'DELETE',
      url: location!,
      headers: { ...owner.headers, 'tus-resumable': '1.0.0' },
    });
    expect(response.statusCode).toBe(204);
    expect((await headUpload(appA(), owner.headers, location!)).statusCode).toBe(404);
    expect(await bucketKeys()).toEqual(before);
    expect(await multipartUploads()).toEqual([]);
  });

  it('an upload left unfinished past its expiry is removed by the clean-up, with its multipart upload', async () => {
    const owner = await signInAs(appA(), 'student');
    const before = await bucketKeys();
    const pdf = samplePdf('abandoned');
    const { location } = await createUpload(appA(), owner.headers, {
      purpose: 'passport',
      filename: 'p.pdf',
      length: pdf.length,
    });
    expect((await patchUpload(appA(), owner.headers, location!, 0, pdf.subarray(0, 100))).statusCode).toBe(204);
    const id = location!.split('/').at(-1)!;
    expect(await multipartUploads()).toContain(id);
    // With the real expiry (days) nothing is due yet.
    const area = openUploadArea(instances[0]!.files.uploads);
    try {
      expect(await area.deleteExpired()).toBe(0);
    } finally {
      area.close();
    }
    expect(await multipartUploads()).toContain(id);
    // An expiry of a moment: the bucket stamps a multipart upload to the second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const expired = openUploadArea(instances[0]!.files.uploads, { expiryMs: 1 });
    try {
      expect(await expired.deleteExpired()).toBeGreaterThan(0);
    } finally {
      expired.close();
    }
    expect(await multipartUploads()).toEqual([]);
    expect(await bucketKeys()).toEqual(before);
    expect((await headUpload(appB(), owner.headers, location!)).statusCode).toBe(404);
  });

  it('replacing a document deletes the old object from the bucket', async () => {
    const student = await signInAs(appA(), 'student');
    expect((await uploadFile(appA(), student.headers, 'transcript', 'a.pdf', samplePdf('first'))).statusCode).toBe(204);
    const [old] = await fileRowsOf(student);
    expect((await uploadFile(appB(), student.headers, 'transcript', 'b.pdf', samplePdf('second'))).statusCode).toBe(
      204,
    );
    const keys = await bucketKeys();
    expect(keys).not.toContain(old!.storage_key);
    const [current] = await fileRowsOf(student);
    expect(keys).toContain(current!.storage_key);
  });

  it.skipIf(!onDatabaseServer())(
    'a resume through one instance stops a stalled request on the other before touching the upload (the shared lock)',
    async () => {
      const urls = await listening();
      const source = samplePdf(`Stalled ${randomBytes(8).toString('hex')}`, 2 * 1024 * 1024);
      const student = await signInAs(appA(), 'student');
      const tus = { ...student.headers, 'tus-resumable': '1.0.0' };
      const { location } = await createUpload(appA(), student.headers, {
        purpose: 'transcript',
        filename: 'stalled.pdf',
        length: source.length,
      });

      // A PATCH to the first instance sends 512 KB, then stalls with its connection open, as a phone
      // that lost its network does: the first instance holds the upload's lock while it waits.
      const events: string[] = [];
      let stalled!: () => void;
      const stall = new Promise<void>((resolve) => (stalled = resolve));
      const body = new ReadableStream<Uint8Array>({
        start(stream) {
          stream.enqueue(source.subarray(0, 512 * 1024));
          stalled();
        },
      });
      const first = fetch(`${urls[0]}${location}`, {
        method: 'PATCH',
        headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body,
        duplex: 'half',
      } as RequestInit).then(
        (response) => events.push(`stalled request ended (${response.status})`),
        () => events.push('stalled request ended (connection closed)'),
      );
      await stall;
      await new Promise((resolve) => setTimeout(resolve, 300));

      // The client resumes through the second instance: it asks the first to let go and waits for it.
      const head = await fetch(`${urls[1]}${location}`, { method: 'HEAD', headers: tus });
      events.push(`resume answered (${head.status})`);
      await first;
      expect(events[0]).toMatch(/^stalled request ended/);
      expect(events[1]).toBe('resume answered (200)');
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBeLessThanOrEqual(512 * 1024);

      const rest = await fetch(`${urls[1]}${location}`, {
        method: 'PATCH',
        headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: source.subarray(offset),
      });
      expect(rest.status).toBe(204);
      const [file] = await fileRowsOf(student);
      expect(sha256(await buffer(await instances[0]!.files.storage.read(file!.storage_key)))).toBe(sha256(source));
    },
    60_000,
  );
});
