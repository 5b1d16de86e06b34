import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { App } from '../../app.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { files } from '../../db/schema/index.ts';
import { samplePdf } from '../../seed/sample-files.ts';
import { openFileStores } from '../../lib/storage/index.ts';
import { createTestApp, testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { signInAs } from '../../test/auth.ts';
import { uploadMetadata } from './test-helpers.ts';

/**
 * An upload interrupted mid-way survives a restart of the api: the connection drops during a PATCH,
 * the api and its database are closed, a new api instance over the same data answers the offset it
 * holds, the client sends the rest, and the stored file is byte for byte the source.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'kaminuza-resume-test-'));
const env = testEnv({ DATA_DIR: dataDir });
const onServer = Boolean(process.env.TEST_DATABASE_URL);
/** On a PostgreSQL server the database outlives the api; embedded, it is reopened from disk. */
let serverDatabase: Database | undefined;

async function start(): Promise<{ app: App; database: Database; url: string }> {
  const database = onServer
    ? (serverDatabase ??= await createTestDatabase())
    : await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
  await database.migrate();
  const app = await createTestApp(database, env);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, database, url };
}

async function stop({ app, database }: { app: App; database: Database }) {
  await app.close();
  if (!onServer) await database.close();
}

afterAll(async () => {
  await serverDatabase?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('resumes an interrupted upload after an api restart and keeps the exact bytes', async () => {
  // ~3 MB: a real PDF padded with a comment, with a random title so every run uploads other bytes.
  const source = samplePdf(`Resumed transcript ${randomBytes(8).toString('hex')}`, 3 * 1024 * 1024);
  const expectedHash = createHash('sha256').update(source).digest('hex');

  let api = await start();
  const student = await signInAs(api.app, 'student');
  const tus = { ...student.headers, 'tus-resumable': '1.0.0' };

  const created = await fetch(`${api.url}/api/v1/uploads`, {
    method: 'POST',
    headers: {
      ...tus,
      'upload-length': String(source.length),
      'upload-metadata': uploadMetadata({ purpose: 'transcript', filename: 'transcript.pdf' }),
    },
  });
  expect(created.status).toBe(201);
  // tus writes its own responses: the security headers still go out on them.
  expect(created.headers.get('x-content-type-options')).toBe('nosniff');
  expect(created.headers.get('content-security-policy')).toContain("default-src 'self'");
  const location = created.headers.get('location')!;

  // Sends half of the file, then drops the connection in the middle of the request.
  const half = Math.floor(source.length / 2);
  const controller = new AbortController();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(stream) {
      if (sent >= half) {
        // Give the server a moment to write what it received, then cut the connection.
        await new Promise((resolve) => setTimeout(resolve, 200));
        controller.abort();
        return;
      }
      const piece = source.subarray(sent, Math.min(sent + 64 * 1024, half));
      sent += piece.length;
      stream.enqueue(piece);
    },
  });
  await expect(
    fetch(`${api.url}${location}`, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body,
      signal: controller.signal,
      duplex: 'half',
    } as RequestInit),
  ).rejects.toThrow();
  await new Promise((resolve) => setTimeout(resolve, 200));
  await stop(api);

  api = await start();
  const head = await fetch(`${api.url}${location}`, { method: 'HEAD', headers: tus });
  expect(head.status).toBe(200);
  const offset = Number(head.headers.get('upload-offset'));
  expect(offset).toBeGreaterThan(0);
  expect(offset).toBeLessThanOrEqual(half);

  const rest = await fetch(`${api.url}${location}`, {
    method: 'PATCH',
    headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    body: source.subarray(offset),
  });
  expect(rest.status).toBe(204);

  const [file] = await api.database.db.select().from(files).where(eq(files.owner_id, student.id));
  expect(file?.sha256).toBe(expectedHash);
  const stored = await buffer(await openFileStores(env).storage.read(file!.storage_key));
  expect(createHash('sha256').update(stored).digest('hex')).toBe(expectedHash);
  console.info(
    `resume test: interrupted at ${offset} of ${source.length} bytes; stored sha256 ${expectedHash} matches the source`,
  );
  await stop(api);
});
