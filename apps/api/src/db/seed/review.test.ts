import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { partnerSettings, submissions, users } from '../schema/index.ts';
import { openFileStores, type FileStores } from '../../lib/storage/index.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { seedDemoAccounts } from './accounts.ts';
import { seedDemoDocuments } from './demo-documents.ts';
import { seedIfEmpty } from './index.ts';
import { DEMO_APPLICANTS } from './review.data.ts';
import { seedDemoSubmissions } from './review.ts';

let database: Database;
let stores: FileStores;

beforeAll(async () => {
  database = await createTestDatabase();
  stores = openFileStores(testEnv());
  await seedIfEmpty(database.db);
  await seedDemoAccounts(database.db);
  await seedDemoDocuments(database.db, stores.storage);
});

afterAll(async () => {
  await database.close();
  await stores.close();
});

it('gives the demo institution one submission per demo applicant and the demo student, once', async () => {
  const [demoStaff] = await database.db
    .select({ partner_id: users.partner_id })
    .from(users)
    .where(eq(users.email, 'demo.staff@kaminuza.example'));
  const partnerId = demoStaff!.partner_id!;
  const seeded = await seedDemoSubmissions(database.db, stores.storage, partnerId, 'http://localhost:3000');
  expect(seeded?.submissions).toHaveLength(DEMO_APPLICANTS.length + 1);
  expect(await seedDemoSubmissions(database.db, stores.storage, partnerId, 'http://localhost:3000')).toBeNull();

  const rows = await database.db.select().from(submissions).where(eq(submissions.partner_id, partnerId));
  expect(rows).toHaveLength(DEMO_APPLICANTS.length + 1);
  expect(rows.filter((row) => row.submitted_by_staff)).toHaveLength(1);
  expect(rows.filter((row) => row.paid)).toHaveLength(DEMO_APPLICANTS.length);
  expect(new Set(rows.map((row) => row.applicant_name))).toContain('Amani Uwase');
  // Every student's submission answers the form's required file questions with the applicant's own documents.
  for (const row of rows.filter((r) => !r.submitted_by_staff)) {
    const own = (row.profile.documents as { document_id: string }[]).map((doc) => doc.document_id);
    expect(own).toContain(row.answers.transcript);
    expect(own).toContain(row.answers.passport);
  }
  const [settings] = await database.db.select().from(partnerSettings).where(eq(partnerSettings.partner_id, partnerId));
  expect(settings!.admissions.custom_stages.map((stage) => stage.id)).toEqual(['interview', 'committee']);
});
