import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { files, users } from '../db/schema/index.ts';
import { openFileStores, type FileStores } from '../lib/storage/index.ts';
import { listDocuments } from '../modules/documents/documents.service.ts';
import { sniffMimeType } from '../modules/uploads/sniff.ts';
import { testEnv } from '../test/app.ts';
import { createTestDatabase } from '../test/database.ts';
import { seedDemoAccounts } from './accounts.ts';
import { seedDemoDocuments } from './demo-documents.ts';
import { seedIfEmpty } from './index.ts';

let database: Database;
let stores: FileStores;

beforeAll(async () => {
  database = await createTestDatabase();
  stores = openFileStores(testEnv());
});

afterAll(async () => {
  await database.close();
  await stores.close();
});

it('gives the demo student real stored documents in each state, once', async () => {
  await seedIfEmpty(database.db);
  await seedDemoAccounts(database.db);
  await seedDemoDocuments(database.db, stores.storage);
  await seedDemoDocuments(database.db, stores.storage);

  const [student] = await database.db.select().from(users).where(eq(users.email, 'demo.student@kaminuza.example'));
  const list = await listDocuments(database.db, student!.id);
  expect(Object.fromEntries(list.map((d) => [d.type, d.status]))).toEqual({
    transcript: 'verified',
    test_scores: 'rejected',
    recommendation_letter: 'not_uploaded',
    personal_statement: 'not_uploaded',
    passport: 'pending',
  });

  const rows = await database.db.select().from(files).where(eq(files.owner_id, student!.id));
  expect(rows).toHaveLength(3);
  for (const row of rows) {
    const bytes = await buffer(await stores.storage.read(row.storage_key));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(row.sha256);
    expect(sniffMimeType(bytes)).toBe(row.mime_type);
  }
});
