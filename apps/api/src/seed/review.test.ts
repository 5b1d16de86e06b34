import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { decisions, emailOutbox, partners, reviewNotes, submissions, users } from '../db/schema/index.ts';
import { openFileStores, type FileStores } from '../lib/storage/index.ts';
import { listStudentDecisions } from '../modules/decisions/decisions.service.ts';
import { getSettings } from '../modules/partner-settings/partner-settings.service.ts';
import { testEnv } from '../test/app.ts';
import { createTestDatabase } from '../test/database.ts';
import { seedDemoAccounts } from './accounts.ts';
import { seedDemoDocuments } from './demo-documents.ts';
import { seedIfEmpty } from './index.ts';
import { DEMO_APPLICANTS } from './review.data.ts';
import { seedDemoReview } from './review.ts';

const PUBLIC_URL = 'http://localhost:3000';
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

it('gives the demo institution a working review queue and the demo student an offer, once', async () => {
  const { db } = database;
  const [staffUser] = await db.select().from(users).where(eq(users.email, 'demo.staff@kaminuza.example'));
  const partnerId = staffUser!.partner_id!;
  // A real institution the demo member happens to belong to never receives demo applications.
  await db.update(partners).set({ is_demo: false }).where(eq(partners.id, partnerId));
  expect(await seedDemoReview(db, stores.storage, PUBLIC_URL)).toBe(false);
  expect(await db.$count(submissions, eq(submissions.partner_id, partnerId))).toBe(0);
  await db.update(partners).set({ is_demo: true }).where(eq(partners.id, partnerId));

  expect(await seedDemoReview(db, stores.storage, PUBLIC_URL)).toBe(true);
  expect(await seedDemoReview(db, stores.storage, PUBLIC_URL)).toBe(false);
  const rows = await db.select().from(submissions).where(eq(submissions.partner_id, partnerId));
  expect(rows).toHaveLength(DEMO_APPLICANTS.length + 1);
  const count = (status: string) => rows.filter((row) => row.status === status).length;
  expect({
    submitted: count('submitted'),
    under_review: count('under_review'),
    accepted: count('accepted'),
    rejected: count('rejected'),
    waitlisted: count('waitlisted'),
  }).toEqual({ submitted: 3, under_review: 6, accepted: 2, rejected: 1, waitlisted: 1 });
  expect(rows.filter((row) => row.submitted_by_staff)).toHaveLength(1);
  expect(rows.filter((row) => row.stage_id !== null).map((row) => row.stage_id)).toEqual(
    expect.arrayContaining(['interview', 'committee']),
  );
  // Two members scored the decided applications; the queue's average is kept on the submission.
  for (const row of rows.filter((r) => ['accepted', 'rejected', 'waitlisted'].includes(r.status))) {
    expect(row.score_count).toBe(2);
    expect(row.score_average).not.toBeNull();
  }
  expect(await db.$count(reviewNotes, eq(reviewNotes.partner_id, partnerId))).toBeGreaterThan(5);

  const all = await db.select().from(decisions).where(eq(decisions.partner_id, partnerId));
  expect(all.filter((d) => d.released_at)).toHaveLength(4);
  expect(all.filter((d) => !d.released_at)).toHaveLength(2);
  expect(all.filter((d) => d.letter).map((d) => d.state)).toEqual(['accepted', 'accepted']);

  // The demo student sees their released offer, with its letter, and was emailed about it.
  const [studentUser] = await db.select().from(users).where(eq(users.email, 'demo.student@kaminuza.example'));
  const [offer, ...others] = await listStudentDecisions(db, studentUser!.id);
  expect(others).toHaveLength(0);
  expect(offer).toMatchObject({ state: 'accepted', has_letter: true, response: null });
  const mail = await db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, 'demo.student@kaminuza.example'), eq(emailOutbox.template, 'decision_released')));
  expect(mail).toHaveLength(1);

  const settings = await getSettings(db, partnerId);
  expect(settings.admissions.custom_stages.map((stage) => stage.id)).toEqual(['interview', 'committee']);
  expect(settings.admissions.rubric).toHaveLength(3);
  expect(await db.$count(decisions, and(eq(decisions.partner_id, partnerId), isNotNull(decisions.response)))).toBe(0);
});
