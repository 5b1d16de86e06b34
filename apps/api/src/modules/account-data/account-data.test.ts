import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, ne } from 'drizzle-orm';
import yauzl from 'yauzl';
import {
  ACCOUNT_DATA_MESSAGES,
  ACCOUNT_DELETION_GRACE_DAYS,
  AccountDeletionSchema,
  type AdmissionLetterIssued,
  type ApplicationDraft,
} from '@kaminuza/shared';
import { buildApp, type App } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import {
  accountDeletions,
  decisions,
  documents,
  emailOutbox,
  files,
  payments,
  reviewNotes,
  sessions,
  students,
  submissions,
  supportMessages,
  supportTickets,
  users,
} from '../../db/schema/index.ts';
import { samplePdf } from '../../seed/sample-files.ts';
import { DOWNLOAD_CSP } from '../../lib/file-download.ts';
import { openFileStores, type FileStores } from '../../lib/storage/index.ts';
import { testEnv } from '../../test/app.ts';
import { expectAccess, signInAs, TEST_PASSWORD, type TestAccount } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import { demoAnswers, markPaid, readyInstitution } from '../applications/test-helpers.ts';
import { uploadFile } from '../uploads/test-helpers.ts';
import { runDueDeletions } from './deletion.service.ts';

let database: Database;
let stores: FileStores;
let app: App;

beforeAll(async () => {
  database = await createTestDatabase();
  const env = testEnv();
  stores = openFileStores(env);
  app = await buildApp({ database, env, logger: false, files: stores });
});

afterAll(async () => {
  await app.close();
  await stores.close();
  await database.close();
});

/** The entries of a zip, name → bytes. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream?: Readable) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

async function studentId(account: TestAccount): Promise<string> {
  const [row] = await database.db.select({ id: students.id }).from(students).where(eq(students.user_id, account.id));
  return row!.id;
}

/** A student with a real uploaded transcript and passport (in storage), and a support conversation. */
async function applicant(label: string) {
  const account = await signInAs(app, 'student');
  await database.db
    .update(students)
    .set({ first_name: label, phone: '+250788000111' })
    .where(eq(students.user_id, account.id));
  const transcript = samplePdf(`${label} transcript`);
  const passport = samplePdf(`${label} passport`);
  expect((await uploadFile(app, account.headers, 'transcript', `${label}-transcript.pdf`, transcript)).statusCode).toBe(
    204,
  );
  expect((await uploadFile(app, account.headers, 'passport', `${label}-passport.pdf`, passport)).statusCode).toBe(204);
  const id = await studentId(account);
  const [ticket] = await database.db
    .insert(supportTickets)
    .values({ student_id: id, subject: `${label} needs help` })
    .returning({ id: supportTickets.id });
  await database.db.insert(supportMessages).values([
    { ticket_id: ticket!.id, sender_side: 'student', body: `Hello from ${label}` },
    { ticket_id: ticket!.id, sender_side: 'team', body: `Hello ${label}, how can we help?` },
  ]);
  return { account, id, transcript, passport };
}

const EXPORT = '/api/v1/me/export';
const DELETION = '/api/v1/me/deletion';

describe('downloading my data', () => {
  it('streams a zip with data.json and the caller’s files, and nothing of another student', async () => {
    const alice = await applicant('Alicia');
    const bruno = await applicant('Brunoh');
    const response = await app.inject({ method: 'GET', url: EXPORT, headers: alice.account.headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="kaminuza-data-\d{4}-\d{2}-\d{2}\.zip"; filename\*=UTF-8''kaminuza-data-\d{4}-\d{2}-\d{2}\.zip$/,
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe(DOWNLOAD_CSP);
    const entries = await unzip(response.rawPayload);

    const data = JSON.parse(entries.get('data.json')!.toString('utf8')) as {
      account: { email: string };
      profile: Record<string, unknown>;
      documents: { type: string }[];
      support_tickets: unknown[];
    };
    expect(data.account.email).toBe(alice.account.email);
    expect(data.profile).toMatchObject({ first_name: 'Alicia', phone: '+250788000111' });
    expect(data.documents.map((d) => d.type).sort()).toEqual(['passport', 'transcript']);
    expect(data.support_tickets).toEqual([
      expect.objectContaining({
        subject: 'Alicia needs help',
        messages: [
          expect.objectContaining({ from: 'student', body: 'Hello from Alicia' }),
          expect.objectContaining({ from: 'team', body: 'Hello Alicia, how can we help?' }),
        ],
      }),
    ]);
    const stored = [...entries.keys()].filter((name) => name.startsWith('files/'));
    expect(stored).toHaveLength(2);
    const contents = stored.map((name) => entries.get(name)!);
    expect(contents.some((bytes) => bytes.equals(alice.transcript))).toBe(true);
    expect(contents.some((bytes) => bytes.equals(alice.passport))).toBe(true);
    // No secret and nothing of the other student anywhere in the archive.
    const everything = Buffer.concat([...entries.values()]).toString('latin1');
    for (const foreign of ['Brunoh', bruno.account.email, bruno.account.id, bruno.id]) {
      expect(everything).not.toContain(foreign);
    }
    expect(everything).not.toContain('$argon2');
  });

  it('is for signed-in users, staff and admins included, and rate limited', async () => {
    await expectAccess(app, { method: 'GET', url: EXPORT }, { anonymous: 401, student: 200, staff: 200, admin: 200 });
    const student = await signInAs(app, 'student');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await app.inject({ method: 'GET', url: EXPORT, headers: student.headers })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

/** The mail to the address other than the notice of the sign-in that made the test account. */
const deletionMails = (to: string) =>
  database.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, to), ne(emailOutbox.template, 'new_device_sign_in')));

describe('deleting my account', () => {
  it('schedules with the password, emails when and how to cancel, reports, cancels and schedules again', async () => {
    const student = await signInAs(app, 'student');
    const wrong = await app.inject({
      method: 'POST',
      url: DELETION,
      headers: student.headers,
      payload: { password: 'nope' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(ACCOUNT_DATA_MESSAGES.wrong_password);
    expect(wrong.json().error.reason).toBe('wrong_password');
    const before = Date.now();
    const scheduled = await app.inject({
      method: 'POST',
      url: DELETION,
      headers: student.headers,
      payload: { password: TEST_PASSWORD },
    });
    expect(scheduled.statusCode).toBe(200);
    const when = Date.parse(AccountDeletionSchema.parse(scheduled.json().data).scheduled_for!);
    const grace = ACCOUNT_DELETION_GRACE_DAYS * 86_400_000;
    expect(when).toBeGreaterThanOrEqual(before + grace);
    expect(when).toBeLessThan(Date.now() + grace + 1000);
    const mails = await deletionMails(student.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('http://localhost:3000/settings');
    expect(mails[0]!.text).toContain(String(ACCOUNT_DELETION_GRACE_DAYS));

    // Asking again changes nothing and sends nothing more.
    const again = await app.inject({
      method: 'POST',
      url: DELETION,
      headers: student.headers,
      payload: { password: TEST_PASSWORD },
    });
    expect(again.json().data).toEqual(scheduled.json().data);
    expect(await deletionMails(student.email)).toHaveLength(1);

    const reported = await app.inject({ method: 'GET', url: DELETION, headers: student.headers });
    expect(reported.json().data).toEqual(scheduled.json().data);
    const cancelled = await app.inject({ method: 'DELETE', url: DELETION, headers: student.headers });
    expect(cancelled.json().data).toEqual({ scheduled_for: null });
    expect((await app.inject({ method: 'GET', url: DELETION, headers: student.headers })).json().data).toEqual({
      scheduled_for: null,
    });
    const rescheduled = await app.inject({
      method: 'POST',
      url: DELETION,
      headers: student.headers,
      payload: { password: TEST_PASSWORD },
    });
    expect(rescheduled.statusCode).toBe(200);
    expect(await deletionMails(student.email)).toHaveLength(2);
  });

  it('refuses visitors, other account types and a missing password', async () => {
    const payload = { password: TEST_PASSWORD };
    await expectAccess(
      app,
      { method: 'POST', url: DELETION, payload },
      { anonymous: 401, student: 200, staff: 403, admin: 403 },
    );
    await expectAccess(
      app,
      { method: 'DELETE', url: DELETION },
      { anonymous: 401, student: 200, staff: 403, admin: 403 },
    );
    await expectAccess(app, { method: 'GET', url: DELETION }, { anonymous: 401, student: 200, staff: 200, admin: 200 });
    const student = await signInAs(app, 'student');
    expect(
      (await app.inject({ method: 'POST', url: DELETION, headers: student.headers, payload: {} })).statusCode,
    ).toBe(400);
    expect(await database.db.select().from(accountDeletions).where(eq(accountDeletions.user_id, student.id))).toEqual(
      [],
    );
  });

  it('is open to an applicant who has not finished onboarding: export, then deletion', async () => {
    const student = await signInAs(app, 'student');
    const [record] = await database.db.select().from(students).where(eq(students.user_id, student.id));
    expect(record).toMatchObject({ is_complete: false, onboarding_step: 0 });

    const exported = await app.inject({ method: 'GET', url: EXPORT, headers: student.headers });
    expect(exported.statusCode).toBe(200);
    const data = JSON.parse((await unzip(exported.rawPayload)).get('data.json')!.toString('utf8')) as {
      account: { email: string };
    };
    expect(data.account.email).toBe(student.email);

    const scheduled = await app.inject({
      method: 'POST',
      url: DELETION,
      headers: student.headers,
      payload: { password: TEST_PASSWORD },
    });
    expect(scheduled.statusCode).toBe(200);
    expect(AccountDeletionSchema.parse(scheduled.json().data).scheduled_for).not.toBeNull();
  });

  it('runs after the grace period: personal data and files go, submissions stay anonymised, others untouched', async () => {
    const institution = await readyInstitution(app, database.db, { fee: 50 });
    const alice = await applicant('Alicia');
    const bruno = await applicant('Brunoh');
    const aliceKeys = (
      await database.db.select({ key: files.storage_key }).from(files).where(eq(files.owner_id, alice.account.id))
    ).map((r) => r.key);
    const brunoKeys = (
      await database.db.select({ key: files.storage_key }).from(files).where(eq(files.owner_id, bruno.account.id))
    ).map((r) => r.key);
    expect(aliceKeys).toHaveLength(2);
    for (const key of [...aliceKeys, ...brunoKeys]) expect(await stores.storage.exists(key)).toBe(true);

    // Alice applies, pays, submits and gets a released decision with a letter; staff wrote a note.
    const started = await app.inject({
      method: 'POST',
      url: `/api/v1/partners/${institution.partnerId}/application`,
      headers: alice.account.headers,
      payload: { program_id: institution.single.id },
    });
    const draft = started.json().data as ApplicationDraft;
    await markPaid(database.db, draft, 50);
    const aliceDocs = await database.db
      .select({ id: documents.id, type: documents.type })
      .from(documents)
      .where(eq(documents.student_id, alice.id));
    const submitted = await app.inject({
      method: 'POST',
      url: `/api/v1/applications/${draft.id}/submit`,
      headers: alice.account.headers,
      payload: {
        version: 1,
        answers: demoAnswers({
          transcript: aliceDocs.find((d) => d.type === 'transcript')!.id,
          passport: aliceDocs.find((d) => d.type === 'passport')!.id,
          emergency_name: 'Alicia Mother',
        }),
      },
    });
    expect(submitted.statusCode).toBe(201);
    const code = `KZ${randomUUID().slice(0, 8)}`;
    await database.db.insert(decisions).values({
      submission_id: draft.id,
      partner_id: institution.partnerId,
      student_id: alice.id,
      state: 'accepted',
      program_name: 'BSc Computing',
      university_name: 'Test University',
      released_at: new Date().toISOString(),
      verification_code: code,
      letter: { student_name: 'Alicia Student', verification_code: code } as unknown as AdmissionLetterIssued,
    });
    await database.db
      .insert(reviewNotes)
      .values({ submission_id: draft.id, partner_id: institution.partnerId, body: 'Alicia seems strong' });

    for (const who of [alice, bruno]) {
      const response = await app.inject({
        method: 'POST',
        url: DELETION,
        headers: who.account.headers,
        payload: { password: TEST_PASSWORD },
      });
      expect(response.statusCode).toBe(200);
    }
    // Nothing runs before its time.
    expect(await runDueDeletions(database.db, stores.storage)).toBe(0);
    // Alice's grace period is over; Bruno's is not.
    await database.db
      .update(accountDeletions)
      .set({ scheduled_for: new Date(Date.now() - 1000).toISOString() })
      .where(eq(accountDeletions.user_id, alice.account.id));
    expect(await runDueDeletions(database.db, stores.storage)).toBe(1);
    expect(await runDueDeletions(database.db, stores.storage)).toBe(0);

    expect(await database.db.select().from(users).where(eq(users.id, alice.account.id))).toEqual([]);
    expect(await database.db.select().from(students).where(eq(students.id, alice.id))).toEqual([]);
    expect(await database.db.select().from(sessions).where(eq(sessions.user_id, alice.account.id))).toEqual([]);
    expect(await database.db.select().from(files).where(eq(files.owner_id, alice.account.id))).toEqual([]);
    expect(await database.db.select().from(supportTickets).where(eq(supportTickets.student_id, alice.id))).toEqual([]);
    expect(await database.db.select().from(emailOutbox).where(eq(emailOutbox.to, alice.account.email))).toEqual([]);
    for (const key of aliceKeys) expect(await stores.storage.exists(key)).toBe(false);
    expect((await app.inject({ method: 'GET', url: DELETION, headers: alice.account.headers })).statusCode).toBe(401);

    const [submission] = await database.db.select().from(submissions).where(eq(submissions.id, draft.id));
    expect(submission).toMatchObject({
      student_id: null,
      profile: { anonymised: true },
      answers: {},
      applicant_name: '',
      partner_id: institution.partnerId,
      program_id: institution.single.id,
      paid: true,
      amount: 50,
    });
    expect(JSON.stringify(submission)).not.toContain('Alicia');
    const [decision] = await database.db.select().from(decisions).where(eq(decisions.submission_id, draft.id));
    expect(decision).toMatchObject({
      student_id: null,
      state: 'accepted',
      program_name: 'BSc Computing',
      university_name: 'Test University',
      letter: null,
      verification_code: null,
    });
    expect(await database.db.select().from(reviewNotes).where(eq(reviewNotes.submission_id, draft.id))).toEqual([]);
    expect(await database.db.select().from(payments).where(eq(payments.application_id, draft.id))).toEqual([]);

    // Bruno is untouched, his deletion still waiting.
    expect(await database.db.select().from(users).where(eq(users.id, bruno.account.id))).toHaveLength(1);
    expect(await database.db.select().from(documents).where(eq(documents.student_id, bruno.id))).toHaveLength(2);
    for (const key of brunoKeys) expect(await stores.storage.exists(key)).toBe(true);
    expect(
      await database.db.select().from(accountDeletions).where(eq(accountDeletions.user_id, bruno.account.id)),
    ).toHaveLength(1);
  });
});
