import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import { samplePdf } from '../../seed/sample-files.ts';
import { openFileStores, type FileStores } from '../../lib/storage/index.ts';
import { testEnv } from '../../test/app.ts';
import { signInAs } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import { uploadFile } from '../uploads/test-helpers.ts';

/*
 * The data export streams stored files into a zip after the answer has started, so a file that fails then
 * can no longer become an error answer. Here every stored file disappears just before it is read, as if
 * the deletion worker or someone by hand removed it between the listing and its turn in the archive.
 */
let database: Database;
let stores: FileStores;
let app: App;

beforeAll(async () => {
  database = await createTestDatabase();
  const env = testEnv();
  stores = openFileStores(env);
  const { storage } = stores;
  const vanishing = {
    ...storage,
    async read(key: string) {
      await storage.delete(key);
      return storage.read(key);
    },
  };
  app = await buildApp({ database, env, logger: false, files: { ...stores, storage: vanishing } });
});

afterAll(async () => {
  await app.close();
  await stores.close();
  await database.close();
});

describe('a data export whose file vanishes while it streams', () => {
  it('cuts that download short and the api goes on serving', async () => {
    const student = await signInAs(app, 'student');
    const upload = await uploadFile(app, student.headers, 'transcript', 'transcript.pdf', samplePdf('transcript'));
    expect(upload.statusCode).toBe(204);

    const failures: unknown[] = [];
    const onFault = (error: unknown) => failures.push(error);
    process.on('uncaughtException', onFault);
    try {
      // Either the transfer fails or what arrived is not a whole archive (no end-of-directory record).
      let complete = false;
      try {
        const response = await app.inject({ url: '/api/v1/me/export', headers: student.headers });
        complete = response.rawPayload.subarray(-22, -18).toString('hex') === '504b0506';
      } catch {
        // the transfer was cut
      }
      expect(complete).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('uncaughtException', onFault);
    }
    expect(failures).toEqual([]);
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
  });
});
