import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  ANSWER_MESSAGES,
  APPLICATION_MESSAGES as A,
  VALIDATION_MESSAGES,
  type ApplicationCard,
  type ApplicationDraft,
  type SubmissionReceipt,
} from '@kaminuza/shared';
import type { App } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import { applications, emailOutbox, forms, students, submissions } from '../../db/schema/index.ts';
import { createTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import {
  closeCycle,
  demoAnswers,
  markPaid,
  readyInstitution,
  studentRow,
  type ReadyInstitution,
} from './test-helpers.ts';

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

type ErrorAnswer = { error: { status: string; message: string; details?: unknown } };
const REFERENCE = /^KZ-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

async function started(institution: ReadyInstitution, student?: TestAccount) {
  const account = student ?? (await signInAs(app, 'student'));
  const response = await app.inject({
    method: 'POST',
    url: `/api/v1/partners/${institution.partnerId}/application`,
    headers: account.headers,
    payload: { program_id: institution.single.id },
  });
  return { student: account, draft: (response.json() as { data: ApplicationDraft }).data };
}

function submit(student: TestAccount, id: string, body: object, key?: string) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/applications/${id}/submit`,
    headers: { ...student.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body,
  });
}

const body = (overrides: Record<string, unknown> = {}) => ({ version: 1, answers: demoAnswers(overrides) });

describe('submitting', () => {
  it('writes the submission under the application’s id, moves it to completed_applications and mails the receipt', async () => {
    const institution = await readyInstitution(app, database.db);
    const { student, draft } = await started(institution);
    await database.db.update(students).set({ language: 'fr' }).where(eq(students.user_id, student.id));
    const response = await submit(student, draft.id, body({ why_programme: '  Trimmed  ', nationality: '' }));
    expect(response.statusCode).toBe(201);
    const receipt = (response.json() as { data: SubmissionReceipt }).data;
    expect(receipt).toMatchObject({
      id: draft.id,
      partner_id: institution.partnerId,
      submitted_by_staff: false,
      applicant_name: 'Test Student',
      payment: { paid: false, amount: 0, currency: 'USD', payment_id: null },
    });
    expect(receipt.reference).toMatch(REFERENCE);

    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, draft.id));
    expect(row).toMatchObject({ student_id: expect.any(String), staff_id: null, submitted_by_staff: false });
    expect(row!.answers).toMatchObject({ why_programme: 'Trimmed', grade_average: 82 });
    expect(row!.answers).not.toHaveProperty('nationality');
    expect(row!.form_snapshot?.id).toBe(draft.form.id);
    expect(row!.profile).toMatchObject({
      first_name: 'Test',
      last_name: 'Student',
      email: student.email,
      documents: [],
    });

    const studentAfter = await studentRow(database.db, student);
    expect(studentAfter.current_applications).toEqual([]);
    expect(studentAfter.completed_applications).toEqual([draft.id]);
    const [application] = await database.db.select().from(applications).where(eq(applications.id, draft.id));
    expect(application!.status).toBe('submitted');

    const mails = await database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, student.email), eq(emailOutbox.template, 'submission_receipt')));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.language).toBe('fr');
    expect(mails[0]!.subject).toContain('Votre candidature');
    expect(mails[0]!.text).toContain(receipt.reference);
    expect(mails[0]!.text).toContain(`/partners/${institution.partnerId}/application/submitted`);

    const read = await app.inject({
      method: 'GET',
      url: `/api/v1/applications/${draft.id}/submission`,
      headers: student.headers,
    });
    expect((read.json() as { data: SubmissionReceipt }).data).toEqual(receipt);
    const cards = (
      (await app.inject({ method: 'GET', url: '/api/v1/applications', headers: student.headers })).json() as {
        data: ApplicationCard[];
      }
    ).data;
    expect(cards[0]).toMatchObject({ state: 'applied', application: { reference: receipt.reference } });
  });

  it('answers the same receipt (200) to the same key, and 409 to a submit without it', async () => {
    const institution = await readyInstitution(app, database.db);
    const { student, draft } = await started(institution);
    const key = `key-${randomUUID()}`;
    const first = await submit(student, draft.id, body(), key);
    const again = await submit(student, draft.id, body(), key);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const noKey = await submit(student, draft.id, body());
    expect(noKey.statusCode).toBe(409);
    expect((noKey.json() as ErrorAnswer).error.message).toBe(A.already_submitted);
    const otherKey = await submit(student, draft.id, body(), `key-${randomUUID()}`);
    expect((otherKey.json() as ErrorAnswer).error.message).toBe(A.already_submitted);
    // The key of this submission, sent with another application of the institution, is refused.
    const second = await started(institution);
    const reused = await submit(second.student, second.draft.id, body(), key);
    expect(reused.statusCode).toBe(409);
    expect((reused.json() as ErrorAnswer).error.message).toBe(A.idempotency_key_reused);
    expect(await database.db.$count(submissions, eq(submissions.partner_id, institution.partnerId))).toBe(1);
  });

  it('makes exactly one submission of ten concurrent submits with one key, all with one reference', async () => {
    const institution = await readyInstitution(app, database.db);
    const { student, draft } = await started(institution);
    const key = `double-click-${randomUUID()}`;
    const responses = await Promise.all(Array.from({ length: 10 }, () => submit(student, draft.id, body(), key)));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([...Array<number>(9).fill(200), 201]);
    const references = new Set(
      responses.map((response) => (response.json() as { data: SubmissionReceipt }).data.reference),
    );
    expect(references.size).toBe(1);
    expect(await database.db.$count(submissions, eq(submissions.id, draft.id))).toBe(1);
    expect(
      await database.db.$count(
        emailOutbox,
        and(eq(emailOutbox.to, student.email), eq(emailOutbox.template, 'submission_receipt')),
      ),
    ).toBe(1);
  });

  it('lets one of concurrent submits without a key through and refuses the others with 409', async () => {
    const institution = await readyInstitution(app, database.db);
    const { student, draft } = await started(institution);
    const responses = await Promise.all(Array.from({ length: 5 }, () => submit(student, draft.id, body())));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await database.db.$count(submissions, eq(submissions.id, draft.id))).toBe(1);
  });

  it('refuses a stale version, a closed cycle, a missing campus and invalid answers, changing nothing', async () => {
    const institution = await readyInstitution(app, database.db);
    const { student, draft } = await started(institution);
    const stale = await submit(student, draft.id, { ...body(), version: 2 });
    expect(stale.statusCode).toBe(409);
    expect((stale.json() as ErrorAnswer).error).toMatchObject({ message: A.stale_draft, details: { version: 1 } });

    const invalid = await submit(
      student,
      draft.id,
      body({ grade_average: 140, accurate: undefined, school_country: 'XX' }),
    );
    expect(invalid.statusCode).toBe(400);
    expect((invalid.json() as ErrorAnswer).error).toEqual({
      status: 'INVALID_ARGUMENT',
      message: VALIDATION_MESSAGES.general,
      details: expect.arrayContaining([
        { path: 'grade_average', message: ANSWER_MESSAGES.number_too_large },
        { path: 'school_country', message: ANSWER_MESSAGES.country_invalid },
        { path: 'accurate', message: ANSWER_MESSAGES.required },
      ]),
    });

    const noCampus = await started(institution);
    await database.db.update(applications).set({ campus_id: null }).where(eq(applications.id, noCampus.draft.id));
    const missing = await submit(noCampus.student, noCampus.draft.id, body());
    expect(missing.statusCode).toBe(400);
    expect((missing.json() as ErrorAnswer).error.message).toBe('Campus ID is required for submission');

    await closeCycle(database.db, institution.cycleId);
    const closed = await submit(student, draft.id, body());
    expect(closed.statusCode).toBe(409);
    expect((closed.json() as ErrorAnswer).error.message).toBe(A.cycle_closed);
    expect(await database.db.$count(submissions, eq(submissions.partner_id, institution.partnerId))).toBe(0);
    expect((await studentRow(database.db, student)).current_applications).toEqual([draft.id]);
  });

  it('answers "Form <id> not found" when the form was deleted under the draft', async () => {
    const institution = await readyInstitution(app, database.db);
    const { student, draft } = await started(institution);
    await database.db.delete(forms).where(eq(forms.id, draft.form.id));
    const response = await submit(student, draft.id, body());
    expect(response.statusCode).toBe(404);
    expect((response.json() as ErrorAnswer).error.message).toBe(`Form ${draft.form.id} not found`);
  });

  it('needs the fee paid first, then records the payment', async () => {
    const institution = await readyInstitution(app, database.db, { fee: 100 });
    const { student, draft } = await started(institution);
    const unpaid = await submit(student, draft.id, body());
    expect(unpaid.statusCode).toBe(409);
    expect((unpaid.json() as ErrorAnswer).error.message).toBe(A.payment_required);
    const paymentId = await markPaid(database.db, draft);
    // A paid draft cannot be discarded.
    const discard = await app.inject({
      method: 'DELETE',
      url: `/api/v1/applications/${draft.id}`,
      headers: student.headers,
    });
    expect(discard.statusCode).toBe(409);
    expect((discard.json() as ErrorAnswer).error.message).toBe(A.paid_draft);
    const paid = await submit(student, draft.id, body());
    expect(paid.statusCode).toBe(201);
    expect((paid.json() as { data: SubmissionReceipt }).data.payment).toEqual({
      paid: true,
      amount: 100,
      currency: 'USD',
      payment_id: paymentId,
    });
  });

  it('cannot be told the status, payment or who submitted by the client', async () => {
    const institution = await readyInstitution(app, database.db);
    const { student, draft } = await started(institution);
    const response = await submit(student, draft.id, {
      ...body(),
      paid: true,
      amount: 500,
      payment_id: randomUUID(),
      submitted_by_staff: true,
      staff_id: randomUUID(),
      student_id: randomUUID(),
      status: 'accepted',
    });
    expect(response.statusCode).toBe(201);
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, draft.id));
    expect(row).toMatchObject({
      paid: false,
      amount: 0,
      payment_id: null,
      submitted_by_staff: false,
      staff_id: null,
      status: 'submitted',
    });
  });

  it('has no receipt before submission, and refuses a bad Idempotency-Key', async () => {
    const institution = await readyInstitution(app, database.db);
    const { student, draft } = await started(institution);
    const none = await app.inject({
      method: 'GET',
      url: `/api/v1/applications/${draft.id}/submission`,
      headers: student.headers,
    });
    expect(none.statusCode).toBe(404);
    expect((await submit(student, draft.id, body(), 'bad key!')).statusCode).toBe(400);
    expect(await database.db.$count(submissions, eq(submissions.id, draft.id))).toBe(0);
  });
});
