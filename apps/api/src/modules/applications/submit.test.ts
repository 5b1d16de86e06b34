import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  ANSWER_MESSAGES,
  APPLICATION_MESSAGES as A,
  VALIDATION_MESSAGES,
  type ApplicationCard,
  type ApplicationDraft,
  type SubmissionReceipt,
} from '@kaminuza/shared';
import { applications, emailOutbox, forms, programCampuses, students, submissions } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { renderStored } from '../email/index.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { holdWrites } from '../../test/hold-writes.ts';
import {
  addDocument,
  closeCycle,
  demoAnswers,
  markPaid,
  readyInstitution,
  studentRow,
  type ReadyInstitution,
} from './test-helpers.ts';

const testApp = useTestApp();

type ErrorAnswer = { error: { status: string; message: string; details?: unknown } };
const REFERENCE = /^KZ-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** A student with the two documents the demo form asks for, and their application started. */
async function started(
  institution: ReadyInstitution,
  student?: TestAccount,
  program: { program_id: string; campus_id?: string } = { program_id: institution.single.id },
) {
  const account = student ?? (await signInAs(testApp.app, 'student'));
  documentsOf.set(account.id, {
    transcript: await addDocument(testApp.db, account, 'transcript'),
    passport: await addDocument(testApp.db, account, 'passport'),
  });
  const response = await testApp.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${institution.partnerId}/application`,
    headers: account.headers,
    payload: program,
  });
  return { student: account, draft: (response.json() as { data: ApplicationDraft }).data };
}

function submit(student: TestAccount, id: string, body: object, key?: string) {
  return testApp.app.inject({
    method: 'POST',
    url: `/api/v1/applications/${id}/submit`,
    headers: { ...student.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body,
  });
}

const documentsOf = new Map<string, { transcript: string; passport: string }>();
/** The demo form's answers, the file questions answered with the student's own documents. */
const body = (student: TestAccount, overrides: Record<string, unknown> = {}) => ({
  version: 1,
  answers: demoAnswers({ ...documentsOf.get(student.id), ...overrides }),
});

describe('submitting', () => {
  it('writes the submission under the application’s id, moves it to completed_applications and mails the receipt', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { student, draft } = await started(institution);
    await testApp.db.update(students).set({ language: 'fr' }).where(eq(students.user_id, student.id));
    const response = await submit(student, draft.id, body(student, { why_programme: '  Trimmed  ', nationality: '' }));
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

    const [row] = await testApp.db.select().from(submissions).where(eq(submissions.id, draft.id));
    expect(row).toMatchObject({ student_id: expect.any(String), staff_id: null, submitted_by_staff: false });
    expect(row!.answers).toMatchObject({ why_programme: 'Trimmed', grade_average: 82 });
    expect(row!.answers).not.toHaveProperty('nationality');
    expect(row!.form_snapshot?.id).toBe(draft.form.id);
    expect(row!.profile).toMatchObject({
      first_name: 'Test',
      last_name: 'Student',
      email: student.email,
    });
    expect(row!.profile.documents).toEqual(
      expect.arrayContaining([
        {
          type: 'transcript',
          document_id: documentsOf.get(student.id)!.transcript,
          file_id: expect.any(String),
          file_name: 'transcript.pdf',
          status: 'pending',
        },
      ]),
    );

    const studentAfter = await studentRow(testApp.db, student);
    expect(studentAfter.current_applications).toEqual([]);
    expect(studentAfter.completed_applications).toEqual([draft.id]);
    const [application] = await testApp.db.select().from(applications).where(eq(applications.id, draft.id));
    expect(application!.status).toBe('submitted');

    const mails = await testApp.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, student.email), eq(emailOutbox.template, 'submission_receipt')));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.language).toBe('fr');
    // Written unrendered in the submit's statement; what its delivery renders and sends (ADR 048):
    expect(mails[0]!.html).toBeNull();
    const sent = renderStored(mails[0]!);
    expect(sent.subject).toContain('Votre candidature');
    expect(sent.text).toContain(receipt.reference);
    expect(sent.text).toContain(`/partners/${institution.partnerId}/application/submitted`);

    const read = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/applications/${draft.id}/submission`,
      headers: student.headers,
    });
    expect((read.json() as { data: SubmissionReceipt }).data).toEqual(receipt);
    const cards = (
      (await testApp.app.inject({ method: 'GET', url: '/api/v1/applications', headers: student.headers })).json() as {
        data: ApplicationCard[];
      }
    ).data;
    expect(cards[0]).toMatchObject({ state: 'applied', application: { reference: receipt.reference } });
  });

  it('answers the same receipt (200) to the same key and body in any key order, and 409 to a submit without it', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { student, draft } = await started(institution);
    const key = `key-${randomUUID()}`;
    const sent = body(student);
    const first = await submit(student, draft.id, sent, key);
    // The same answers in another order are the same request (canonical JSON).
    const reordered = { answers: Object.fromEntries(Object.entries(sent.answers).reverse()), version: sent.version };
    expect(JSON.stringify(reordered.answers)).not.toBe(JSON.stringify(sent.answers));
    const again = await submit(student, draft.id, reordered, key);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const noKey = await submit(student, draft.id, body(student));
    expect(noKey.statusCode).toBe(409);
    expect((noKey.json() as ErrorAnswer).error).toMatchObject({
      message: A.already_submitted,
      reason: 'already_submitted',
    });
    const otherKey = await submit(student, draft.id, body(student), `key-${randomUUID()}`);
    expect((otherKey.json() as ErrorAnswer).error).toMatchObject({
      message: A.already_submitted,
      reason: 'already_submitted',
    });
  });

  it('answers 422 to the key of a submission sent with another body or for another application, changing nothing', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { student, draft } = await started(institution);
    const key = `key-${randomUUID()}`;
    const first = await submit(student, draft.id, body(student), key);
    expect(first.statusCode).toBe(201);
    const stored = async () =>
      (await testApp.db.select().from(submissions).where(eq(submissions.partner_id, institution.partnerId)))[0];
    const before = await stored();

    const changed = await submit(student, draft.id, body(student, { why_programme: 'Another reason' }), key);
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toEqual({ error: { status: 'INVALID_ARGUMENT', message: A.idempotency_key_reused } });
    const otherVersion = await submit(student, draft.id, { ...body(student), version: 2 }, key);
    expect(otherVersion.statusCode).toBe(422);

    // The key of this submission, sent with another application of the institution, is refused too.
    const second = await started(institution);
    const reused = await submit(second.student, second.draft.id, body(second.student), key);
    expect(reused.statusCode).toBe(422);
    expect((reused.json() as ErrorAnswer).error.message).toBe(A.idempotency_key_reused);

    expect(await testApp.db.$count(submissions, eq(submissions.partner_id, institution.partnerId))).toBe(1);
    expect(await stored()).toEqual(before);
    const [other] = await testApp.db
      .select({ status: applications.status })
      .from(applications)
      .where(eq(applications.id, second.draft.id));
    expect(other?.status).toBe('in_progress');
    // The refused key does not stand in the way of that application's own submit.
    expect(
      (await submit(second.student, second.draft.id, body(second.student), `key-${randomUUID()}`)).statusCode,
    ).toBe(201);
  });

  it('makes exactly one submission of ten concurrent submits with one key; the others replay it or answer 409', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { student, draft } = await started(institution);
    const key = `double-click-${randomUUID()}`;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => submit(student, draft.id, body(student), key)),
    );
    // PGlite runs the transactions one after another (all replays); PostgreSQL runs them side by side, and
    // those arriving while the first holds the key answer 409 with Retry-After instead of waiting.
    const codes = responses.map((response) => response.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(1);
    expect(codes.every((code) => code === 201 || code === 200 || code === 409)).toBe(true);
    for (const busy of responses.filter((response) => response.statusCode === 409)) {
      expect(busy.headers['retry-after']).toBe('1');
      expect((busy.json() as ErrorAnswer).error).toEqual({
        status: 'ABORTED',
        message: A.idempotency_key_in_progress,
        reason: 'idempotency_key_in_progress',
      });
    }
    const retried = await submit(student, draft.id, body(student), key);
    expect(retried.statusCode).toBe(200);
    const references = new Set(
      [...responses.filter((response) => response.statusCode < 300), retried].map(
        (response) => (response.json() as { data: SubmissionReceipt }).data.reference,
      ),
    );
    expect(references.size).toBe(1);
    expect(await testApp.db.$count(submissions, eq(submissions.id, draft.id))).toBe(1);
    expect(
      await testApp.db.$count(
        emailOutbox,
        and(eq(emailOutbox.to, student.email), eq(emailOutbox.template, 'submission_receipt')),
      ),
    ).toBe(1);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'answers 409 with Retry-After to the key of a submit still in flight, then the first answer (PostgreSQL: PGlite has one connection, so no request is ever in flight beside another)',
    async () => {
      const institution = await readyInstitution(testApp.app, testApp.db);
      const { student, draft } = await started(institution);
      const key = `slow-${randomUUID()}`;
      const held = await holdWrites(testApp.database.url!, 'submissions');
      const first = submit(student, draft.id, body(student), key);
      await held.waitForBlocked();
      const busy = await submit(student, draft.id, body(student), key);
      expect(busy.statusCode).toBe(409);
      expect(busy.headers['retry-after']).toBe('1');
      expect((busy.json() as ErrorAnswer).error).toEqual({
        status: 'ABORTED',
        message: A.idempotency_key_in_progress,
        reason: 'idempotency_key_in_progress',
      });
      // Even with another body: the first request has not finished, so nothing can be compared yet.
      const busyOther = await submit(student, draft.id, body(student, { why_programme: 'Other' }), key);
      expect(busyOther.statusCode).toBe(409);
      await held.release();
      const done = await first;
      expect(done.statusCode).toBe(201);
      const replay = await submit(student, draft.id, body(student), key);
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual(done.json());
    },
  );

  it('lets one of concurrent submits without a key through and refuses the others with 409', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { student, draft } = await started(institution);
    const responses = await Promise.all(Array.from({ length: 5 }, () => submit(student, draft.id, body(student))));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await testApp.db.$count(submissions, eq(submissions.id, draft.id))).toBe(1);
  });

  it('refuses a stale version, a closed cycle, a missing campus and invalid answers, changing nothing', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { student, draft } = await started(institution);
    const stale = await submit(student, draft.id, { ...body(student), version: 2 });
    expect(stale.statusCode).toBe(409);
    expect((stale.json() as ErrorAnswer).error).toMatchObject({
      message: A.stale_draft,
      reason: 'stale_draft',
      details: { version: 1 },
    });

    const invalid = await submit(
      student,
      draft.id,
      body(student, { grade_average: 140, accurate: undefined, school_country: 'XX' }),
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
    await testApp.db.update(applications).set({ campus_id: null }).where(eq(applications.id, noCampus.draft.id));
    const missing = await submit(noCampus.student, noCampus.draft.id, body(noCampus.student));
    expect(missing.statusCode).toBe(400);
    expect((missing.json() as ErrorAnswer).error.message).toBe('Campus ID is required for submission');

    await closeCycle(testApp.db, institution.cycleId);
    const closed = await submit(student, draft.id, body(student));
    expect(closed.statusCode).toBe(409);
    expect((closed.json() as ErrorAnswer).error).toMatchObject({ message: A.cycle_closed, reason: 'cycle_closed' });
    expect(await testApp.db.$count(submissions, eq(submissions.partner_id, institution.partnerId))).toBe(0);
    expect((await studentRow(testApp.db, student)).current_applications).toEqual([draft.id]);
  });

  it('refuses a campus that no longer offers the program, changing nothing', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const [campusId, otherCampus] = institution.double.campusIds as [string, string];
    const { student, draft } = await started(institution, undefined, {
      program_id: institution.double.id,
      campus_id: campusId,
    });
    expect(draft.campus_id).toBe(campusId);
    // The institution stopped teaching the program there after the student chose it.
    await testApp.db
      .delete(programCampuses)
      .where(and(eq(programCampuses.program_id, institution.double.id), eq(programCampuses.campus_id, campusId)));
    const response = await submit(student, draft.id, body(student));
    expect(response.statusCode).toBe(400);
    expect((response.json() as ErrorAnswer).error).toEqual({
      status: 'INVALID_ARGUMENT',
      message: A.campus_not_offered,
    });
    expect(await testApp.db.$count(submissions, eq(submissions.id, draft.id))).toBe(0);
    // Choosing a campus that still offers it lets the submission through.
    const saved = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/v1/applications/${draft.id}`,
      headers: student.headers,
      payload: { version: 1, answers: {}, campus_id: otherCampus },
    });
    expect(saved.statusCode).toBe(200);
    expect((await submit(student, draft.id, { ...body(student), version: 2 })).statusCode).toBe(201);
  });

  it('refuses a file answer that is not one of the applicant’s documents', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { student, draft } = await started(institution);
    const other = await started(institution);
    const response = await submit(
      student,
      draft.id,
      body(student, { passport: documentsOf.get(other.student.id)!.passport }),
    );
    expect(response.statusCode).toBe(400);
    expect((response.json() as ErrorAnswer).error.details).toEqual([
      { path: 'passport', message: ANSWER_MESSAGES.document_invalid },
    ]);
    expect(await testApp.db.$count(submissions, eq(submissions.id, draft.id))).toBe(0);
  });

  it('answers "Form <id> not found" when the form was deleted under the draft', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { student, draft } = await started(institution);
    await testApp.db.delete(forms).where(eq(forms.id, draft.form.id));
    const response = await submit(student, draft.id, body(student));
    expect(response.statusCode).toBe(404);
    expect((response.json() as ErrorAnswer).error.message).toBe(`Form ${draft.form.id} not found`);
  });

  it('needs the fee paid first, then records the payment', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const { student, draft } = await started(institution);
    const unpaid = await submit(student, draft.id, body(student));
    expect(unpaid.statusCode).toBe(409);
    expect((unpaid.json() as ErrorAnswer).error.message).toBe(A.payment_required);
    const paymentId = await markPaid(testApp.db, draft);
    // A paid draft cannot be discarded.
    const discard = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/v1/applications/${draft.id}`,
      headers: student.headers,
    });
    expect(discard.statusCode).toBe(409);
    expect((discard.json() as ErrorAnswer).error.message).toBe(A.paid_draft);
    const paid = await submit(student, draft.id, body(student));
    expect(paid.statusCode).toBe(201);
    expect((paid.json() as { data: SubmissionReceipt }).data.payment).toEqual({
      paid: true,
      amount: 100,
      currency: 'USD',
      payment_id: paymentId,
      waived: false,
    });
  });

  it('cannot be told the status, payment or who submitted by the client', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { student, draft } = await started(institution);
    const response = await submit(student, draft.id, {
      ...body(student),
      paid: true,
      amount: 500,
      payment_id: randomUUID(),
      submitted_by_staff: true,
      staff_id: randomUUID(),
      student_id: randomUUID(),
      status: 'accepted',
    });
    expect(response.statusCode).toBe(201);
    const [row] = await testApp.db.select().from(submissions).where(eq(submissions.id, draft.id));
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
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { student, draft } = await started(institution);
    const none = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/applications/${draft.id}/submission`,
      headers: student.headers,
    });
    expect(none.statusCode).toBe(404);
    expect((await submit(student, draft.id, body(student), 'bad key!')).statusCode).toBe(400);
    expect(await testApp.db.$count(submissions, eq(submissions.id, draft.id))).toBe(0);
  });
});

describe('the OpenAPI document', () => {
  it('tells every route taking an Idempotency-Key how a key is answered: replay, 422 and 409 with Retry-After', async () => {
    const doc = (await testApp.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { description?: string; parameters?: Array<{ name: string; in: string }> }>>;
    };
    const keyed = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, route]) => route.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key'))
        .map(([method, route]) => ({ at: `${method} ${path}`, description: route.description ?? '' })),
    );
    expect(keyed.map((route) => route.at).sort()).toEqual([
      'post /api/v1/applications/{id}/payment',
      'post /api/v1/applications/{id}/submit',
      'post /api/v1/partners/{partnerId}/submissions',
    ]);
    for (const { description } of keyed) {
      expect(description).toContain('draft-ietf-httpapi-idempotency-key-header');
      expect(description).toMatch(/422/);
      expect(description).toMatch(/409 \(ABORTED\) with Retry-After/);
    }
  });
});
