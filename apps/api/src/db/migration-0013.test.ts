import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { useTestApp } from '../test/app.ts';
import { signInAs } from '../test/auth.ts';
import { MIGRATIONS_FOLDER } from './client.ts';
import { files, payments, students } from './schema/index.ts';
import { readyInstitution } from '../modules/applications/test-helpers.ts';

const testApp = useTestApp();

/** The statements of migration 0013, as drizzle runs them. */
const statements = readFileSync(
  join(MIGRATIONS_FOLDER, '0013_idempotency_fingerprints_safe_file_names.sql'),
  'utf8',
).split('--> statement-breakpoint');

describe('migration 0013: stored file names', () => {
  it('cleans names stored before uploads cleaned them, leaving clean ones alone', async () => {
    const student = await signInAs(testApp.app, 'student');
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
      const [row] = await testApp.database.db
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
    const [clean] = await testApp.database.db
      .select()
      .from(files)
      .where(eq(files.id, ids.at(-1)!));

    await testApp.database.db.execute(sql.raw(statements.at(-1)!));

    for (const [index, [, , expected]] of rows.entries()) {
      const [row] = await testApp.database.db.select().from(files).where(eq(files.id, ids[index]!));
      expect(row!.original_name).toBe(expected);
    }
    // A clean name is not rewritten (its updated_at stays).
    const [after] = await testApp.database.db
      .select()
      .from(files)
      .where(eq(files.id, ids.at(-1)!));
    expect(after).toEqual(clean);
  });
});

describe('migration 0013: checkout keys unique per student', () => {
  it('keeps a key repeated across one student’s applications on the earliest payment only', async () => {
    const student = await signInAs(testApp.app, 'student');
    const [studentRow] = await testApp.database.db.select().from(students).where(eq(students.user_id, student.id));
    const drafts = [];
    for (let i = 0; i < 2; i += 1) {
      const institution = await readyInstitution(testApp.app, testApp.database.db);
      const response = await testApp.app.inject({
        method: 'POST',
        url: `/api/v1/partners/${institution.partnerId}/application`,
        headers: student.headers,
        payload: { program_id: institution.single.id },
      });
      drafts.push((response.json() as { data: { id: string; partner_id: string } }).data);
    }
    // As the table stood before: keys unique per application only.
    await testApp.database.db.execute(sql`drop index "payments_student_idempotency_unique"`);
    const pay = async (draft: { id: string; partner_id: string }, key: string, createdAt: string) => {
      const [row] = await testApp.database.db
        .insert(payments)
        .values({
          application_id: draft.id,
          student_id: studentRow!.id,
          partner_id: draft.partner_id,
          provider: 'sandbox',
          reference: `pay_${crypto.randomUUID()}`,
          amount: 10,
          currency: 'USD',
          status: 'failed',
          idempotency_key: key,
          created_at: createdAt,
        })
        .returning({ id: payments.id });
      return row!.id;
    };
    const first = await pay(drafts[0]!, 'key-repeated-1', '2026-01-01T00:00:00Z');
    const second = await pay(drafts[1]!, 'key-repeated-1', '2026-01-02T00:00:00Z');
    const other = await pay(drafts[1]!, 'key-other-2', '2026-01-03T00:00:00Z');

    const [forget, index] = statements.filter((statement) => /payments/.test(statement)).slice(-2);
    expect(forget).toMatch(/^\s*-- Checkout keys[\s\S]*UPDATE "payments"/);
    expect(index).toMatch(/CREATE UNIQUE INDEX "payments_student_idempotency_unique"/);
    await testApp.database.db.execute(sql.raw(forget!));
    await testApp.database.db.execute(sql.raw(index!));

    const keyOf = async (id: string) =>
      (await testApp.database.db.select({ key: payments.idempotency_key }).from(payments).where(eq(payments.id, id)))[0]
        ?.key;
    expect(await keyOf(first)).toBe('key-repeated-1');
    expect(await keyOf(second)).toBeNull();
    expect(await keyOf(other)).toBe('key-other-2');
  });
});
