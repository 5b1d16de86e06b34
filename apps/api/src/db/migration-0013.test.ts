import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { App } from '../app.ts';
import { createTestApp } from '../test/app.ts';
import { signInAs } from '../test/auth.ts';
import { createTestDatabase } from '../test/database.ts';
import { MIGRATIONS_FOLDER, type Database } from './client.ts';
import { files } from './schema/index.ts';

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

/** The statements of migration 0013, as drizzle runs them. */
const statements = readFileSync(
  join(MIGRATIONS_FOLDER, '0013_idempotency_fingerprints_safe_file_names.sql'),
  'utf8',
).split('--> statement-breakpoint');

describe('migration 0013: stored file names', () => {
  it('cleans names stored before uploads cleaned them, leaving clean ones alone', async () => {
    const student = await signInAs(app, 'student');
    const rows: Array<[string, string, string]> = [
      ['report\r\nSet-Cookie: a=b.pdf', 'application/pdf', 'reportSet-Cookie_ a=b.pdf'],
      ['../../etc/passwd', 'application/pdf', 'passwd'],
      ['C:\\Users\\x\\scan.png', 'image/png', 'scan.png'],
      ['invoice\u202Efdp.exe', 'application/pdf', 'invoicefdp.exe'],
      ['my "final" <copy>?.pdf', 'application/pdf', 'my _final_ _copy__.pdf'],
      ['.hidden..name...pdf', 'application/pdf', 'hidden.name.pdf'],
      ['....', 'image/jpeg', 'document.jpg'],
      ['Rele\u0301ve\u0301.pdf', 'application/pdf', 'Rel\u00e9v\u00e9.pdf'],
      ['Relevé de notes.pdf', 'application/pdf', 'Relevé de notes.pdf'],
    ];
    const ids: string[] = [];
    for (const [name, mime] of rows) {
      const [row] = await database.db
        .insert(files)
        .values({
          owner_id: student.id,
          storage_key: `legacy/${crypto.randomUUID()}`,
          original_name: name,
          mime_type: mime,
          size: 1,
          sha256: '0'.repeat(64),
          purpose: 'document',
        })
        .returning({ id: files.id, updated_at: files.updated_at });
      ids.push(row!.id);
    }
    const [clean] = await database.db
      .select()
      .from(files)
      .where(eq(files.id, ids.at(-1)!));

    await database.db.execute(sql.raw(statements.at(-1)!));

    for (const [index, [, , expected]] of rows.entries()) {
      const [row] = await database.db.select().from(files).where(eq(files.id, ids[index]!));
      expect(row!.original_name).toBe(expected);
    }
    // A clean name is not rewritten (its updated_at stays).
    const [after] = await database.db
      .select()
      .from(files)
      .where(eq(files.id, ids.at(-1)!));
    expect(after).toEqual(clean);
  });
});
