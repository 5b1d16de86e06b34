import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  APPLICATION_MESSAGES as A,
  type OnBehalfForm,
  type OnBehalfSetup,
  type SubmissionReceipt,
} from '@kaminuza/shared';
import { applications, emailOutbox, partnerSettings, students, submissions, users } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { renderStored } from '../email/index.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { holdWrites } from '../../test/hold-writes.ts';
import { closeCycle, demoAnswers, readyInstitution, type ReadyInstitution } from '../applications/test-helpers.ts';

const testApp = useTestApp();

type ErrorAnswer = { error: { status: string; message: string; details?: unknown } };

const applicant = () => ({
  first_name: 'Amina',
  last_name: 'Uwase',
  email: `amina-${randomUUID().slice(0, 8)}@example.com`,
  phone: '+250788123456',
});

function answers() {
  const { transcript: _transcript, passport: _passport, ...rest } = demoAnswers();
  return rest;
}

function post(account: TestAccount, institution: ReadyInstitution, body: object, key?: string) {
  return testApp.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${institution.partnerId}/submissions`,
    headers: { ...account.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body,
  });
}

describe('submitting on behalf of an applicant', () => {
  it('needs submit_applications (403 without) and answers another institution with 404', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const other = await readyInstitution(testApp.app, testApp.db);
    const member = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['review_applications'],
    });
    const holder = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['submit_applications'],
    });
    const student = await signInAs(testApp.app, 'student');
    const urls = [
      `/api/v1/partners/${institution.partnerId}/submissions/programs`,
      `/api/v1/partners/${institution.partnerId}/submissions/form?program_id=${institution.single.id}`,
    ];
    for (const url of urls) {
      expect((await testApp.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      expect((await testApp.app.inject({ method: 'GET', url, headers: student.headers })).statusCode, url).toBe(403);
      expect((await testApp.app.inject({ method: 'GET', url, headers: member.headers })).statusCode, url).toBe(403);
      expect((await testApp.app.inject({ method: 'GET', url, headers: holder.headers })).statusCode, url).toBe(200);
      expect((await testApp.app.inject({ method: 'GET', url, headers: other.admin.headers })).statusCode, url).toBe(
        404,
      );
    }
    const body = {
      applicant: applicant(),
      program_id: institution.single.id,
      campus_id: institution.single.campusId,
      answers: answers(),
    };
    expect((await post(member, institution, body)).statusCode).toBe(403);
    expect((await post(other.admin, institution, body)).statusCode).toBe(404);
    expect(await testApp.db.$count(submissions, eq(submissions.partner_id, institution.partnerId))).toBe(0);
  });

  it('lists the open programs and the form without file questions', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const setup = (
      (
        await testApp.app.inject({
          method: 'GET',
          url: `/api/v1/partners/${institution.partnerId}/submissions/programs`,
          headers: institution.admin.headers,
        })
      ).json() as { data: OnBehalfSetup }
    ).data;
    expect(setup.cycle?.id).toBe(institution.cycleId);
    expect(setup.programs).toHaveLength(5);
    const form = (
      (
        await testApp.app.inject({
          method: 'GET',
          url: `/api/v1/partners/${institution.partnerId}/submissions/form?program_id=${institution.single.id}`,
          headers: institution.admin.headers,
        })
      ).json() as { data: OnBehalfForm }
    ).data;
    const types = form.form.sections.flatMap((section) => section.questions.map((question) => question.type));
    expect(types).not.toContain('file');
    expect(form.form.sections.map((section) => section.id)).not.toContain('documents');
    const notOpen = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${institution.partnerId}/submissions/form?program_id=${randomUUID()}`,
      headers: institution.admin.headers,
    });
    expect(notOpen.statusCode).toBe(400);
    expect((notOpen.json() as ErrorAnswer).error.message).toBe(A.program_not_open);
  });

  it('writes an unpaid submission by staff, idempotently, and mails the applicant in the institution’s language', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    await testApp.db
      .update(partnerSettings)
      .set({ general: { ...(await currentGeneral(institution.partnerId)), default_language: 'rw' } })
      .where(eq(partnerSettings.partner_id, institution.partnerId));
    const person = applicant();
    const body = {
      applicant: person,
      program_id: institution.double.id,
      campus_id: institution.double.campusIds[0],
      answers: answers(),
      // Never taken from the client.
      paid: true,
      student_id: randomUUID(),
      submitted_by_staff: false,
    };
    const key = `staff-${randomUUID()}`;
    const [first, second] = [
      await post(institution.admin, institution, body, key),
      await post(institution.admin, institution, body, key),
    ];
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    const receipt = (first.json() as { data: SubmissionReceipt }).data;
    expect(second.json()).toEqual(first.json());
    expect(receipt).toMatchObject({
      submitted_by_staff: true,
      applicant_name: 'Amina Uwase',
      payment: { paid: false, amount: 0, currency: 'USD', payment_id: null },
    });
    const [row] = await testApp.db.select().from(submissions).where(eq(submissions.id, receipt.id));
    expect(row).toMatchObject({ student_id: null, submitted_by_staff: true, paid: false, amount: 0, payment_id: null });
    expect(row!.staff_id).toEqual(expect.any(String));
    expect(row!.profile).toMatchObject({ first_name: 'Amina', email: person.email });
    const mails = await testApp.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, person.email), eq(emailOutbox.template, 'submission_receipt')));
    expect(mails.map((mail) => mail.language)).toEqual(['rw']);
  });

  it('makes one submission of concurrent requests with one key; the others replay it or answer 409', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const body = {
      applicant: applicant(),
      program_id: institution.single.id,
      campus_id: institution.single.campusId,
      answers: answers(),
    };
    const key = `staff-${randomUUID()}`;
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => post(institution.admin, institution, body, key)),
    );
    // PGlite serializes the transactions (all replays); on PostgreSQL the ones meeting the first in flight get 409.
    const codes = responses.map((response) => response.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(1);
    expect(codes.every((code) => code === 201 || code === 200 || code === 409)).toBe(true);
    for (const busy of responses.filter((response) => response.statusCode === 409)) {
      expect(busy.headers['retry-after']).toBe('1');
      expect((busy.json() as ErrorAnswer).error.message).toBe(A.idempotency_key_in_progress);
    }
    expect(await testApp.db.$count(submissions, eq(submissions.partner_id, institution.partnerId))).toBe(1);
  });

  it('answers 422 to a key sent again with another body or by another member, and the first answer to the same body in any order', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const body = {
      applicant: applicant(),
      program_id: institution.single.id,
      campus_id: institution.single.campusId,
      answers: answers(),
    };
    const key = `staff-${randomUUID()}`;
    const first = await post(institution.admin, institution, body, key);
    expect(first.statusCode).toBe(201);

    const reordered = {
      answers: Object.fromEntries(Object.entries(body.answers).reverse()),
      campus_id: body.campus_id,
      applicant: Object.fromEntries(Object.entries(body.applicant).reverse()),
      program_id: body.program_id,
    };
    const replay = await post(institution.admin, institution, reordered, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());

    const otherPerson = await post(institution.admin, institution, { ...body, applicant: applicant() }, key);
    expect(otherPerson.statusCode).toBe(422);
    expect(otherPerson.json()).toEqual({ error: { status: 'INVALID_ARGUMENT', message: A.idempotency_key_reused } });
    const colleague = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['submit_applications'],
    });
    const byColleague = await post(colleague, institution, body, key);
    expect(byColleague.statusCode).toBe(422);
    expect(await testApp.db.$count(submissions, eq(submissions.partner_id, institution.partnerId))).toBe(1);
    expect(
      await testApp.db.$count(
        emailOutbox,
        and(eq(emailOutbox.to, body.applicant.email), eq(emailOutbox.template, 'submission_receipt')),
      ),
    ).toBe(1);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'answers 409 with Retry-After while the key’s first request is in flight (PostgreSQL: PGlite has one connection, so requests never overlap)',
    async () => {
      const institution = await readyInstitution(testApp.app, testApp.db);
      const body = {
        applicant: applicant(),
        program_id: institution.single.id,
        campus_id: institution.single.campusId,
        answers: answers(),
      };
      const key = `staff-${randomUUID()}`;
      const held = await holdWrites(testApp.database.url!, 'submissions');
      const first = post(institution.admin, institution, body, key);
      await held.waitForBlocked();
      const busy = await post(institution.admin, institution, body, key);
      expect(busy.statusCode).toBe(409);
      expect(busy.headers['retry-after']).toBe('1');
      expect((busy.json() as ErrorAnswer).error).toEqual({
        status: 'ABORTED',
        message: A.idempotency_key_in_progress,
        reason: 'idempotency_key_in_progress',
      });
      await held.release();
      expect((await first).statusCode).toBe(201);
      const replay = await post(institution.admin, institution, body, key);
      expect(replay.statusCode).toBe(200);
      expect(await testApp.db.$count(submissions, eq(submissions.partner_id, institution.partnerId))).toBe(1);
    },
  );

  it('refuses a missing campus, invalid answers and a closed cycle', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const base = { applicant: applicant(), program_id: institution.double.id, answers: answers() };
    const noCampus = await post(institution.admin, institution, { ...base, campus_id: null });
    expect(noCampus.statusCode).toBe(400);
    expect((noCampus.json() as ErrorAnswer).error.message).toBe('Campus ID is required for submission');
    const invalid = await post(institution.admin, institution, {
      ...base,
      campus_id: institution.double.campusIds[0],
      answers: { ...answers(), grade_average: 500 },
    });
    expect(invalid.statusCode).toBe(400);
    expect((invalid.json() as ErrorAnswer).error.details).toEqual([
      { path: 'grade_average', message: expect.any(String) },
    ]);
    await closeCycle(testApp.db, institution.cycleId);
    const closed = await post(institution.admin, institution, { ...base, campus_id: institution.double.campusIds[0] });
    expect(closed.statusCode).toBe(409);
    expect((closed.json() as ErrorAnswer).error).toMatchObject({ message: A.cycle_closed, reason: 'cycle_closed' });
    expect(await testApp.db.$count(submissions, eq(submissions.partner_id, institution.partnerId))).toBe(0);
  });
});

async function currentGeneral(partnerId: string) {
  const [row] = await testApp.db
    .select({ general: partnerSettings.general })
    .from(partnerSettings)
    .where(eq(partnerSettings.partner_id, partnerId));
  return row!.general;
}

describe('an applicant who has a Kaminuza account', () => {
  const receiptKeys = (response: { json(): unknown }) =>
    Object.keys((response.json() as { data: SubmissionReceipt }).data).sort();

  it('attaches the submission to the verified student whose email it names: their applications list it and they are emailed in their language', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    const [record] = await testApp.db.select().from(students).where(eq(students.user_id, student.id));
    await testApp.db.update(students).set({ language: 'fr' }).where(eq(students.id, record!.id));
    const body = {
      // Typed by a member: another case than the account's.
      applicant: { ...applicant(), email: student.email.toUpperCase() },
      program_id: institution.single.id,
      campus_id: institution.single.campusId,
      answers: answers(),
    };
    const response = await post(institution.admin, institution, body);
    expect(response.statusCode, response.body).toBe(201);
    const receipt = (response.json() as { data: SubmissionReceipt }).data;

    const [row] = await testApp.db.select().from(submissions).where(eq(submissions.id, receipt.id));
    expect(row).toMatchObject({ student_id: record!.id, submitted_by_staff: true, paid: false });
    // The student's applications area lists it as applied, with its reference.
    const cards = (
      (await testApp.app.inject({ method: 'GET', url: '/api/v1/applications', headers: student.headers })).json() as {
        data: Array<{
          partner_id: string;
          state: string;
          application: { id: string; reference: string | null } | null;
        }>;
      }
    ).data;
    expect(cards.find((card) => card.partner_id === institution.partnerId)).toMatchObject({
      state: 'applied',
      application: { id: receipt.id, reference: receipt.reference },
    });
    const own = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/applications/${receipt.id}/submission`,
      headers: student.headers,
    });
    expect(own.statusCode).toBe(200);
    expect((own.json() as { data: SubmissionReceipt }).data.reference).toBe(receipt.reference);
    const [after] = await testApp.db.select().from(students).where(eq(students.id, record!.id));
    expect(after!.completed_applications).toContain(receipt.id);

    // Told by email, in their language, through the outbox; not the anonymous receipt.
    const mails = (await testApp.db.select().from(emailOutbox).where(eq(emailOutbox.to, student.email))).filter(
      (mail) => mail.template !== 'new_device_sign_in',
    );
    expect(mails.map((mail) => [mail.template, mail.language])).toEqual([['submitted_on_behalf', 'fr']]);
    const sent = renderStored(mails[0]!);
    expect(sent.text).toContain(receipt.reference);
    expect(sent.text).toContain('/application/submitted');
  });

  it('keeps the submission on its own for an unverified account, a staff account, and a student who already applied this cycle; staff are told the same in every case', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const unverified = await signInAs(testApp.app, 'student');
    await testApp.db.update(users).set({ contact_verified: false }).where(eq(users.id, unverified.id));
    const member = await signInAs(testApp.app, 'staff');
    const applied = await signInAs(testApp.app, 'student');
    const started = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/partners/${institution.partnerId}/application`,
      headers: applied.headers,
      payload: { program_id: institution.single.id },
    });
    expect(started.statusCode).toBe(201);
    const draftId = (started.json() as { data: { id: string } }).data.id;
    const attached = await signInAs(testApp.app, 'student');
    const nobody = `nobody-${randomUUID().slice(0, 8)}@example.com`;

    const answersBy = new Map<string, { statusCode: number; json(): unknown }>();
    for (const email of [unverified.email, member.email, applied.email, nobody, attached.email]) {
      const response = await post(institution.admin, institution, {
        applicant: { ...applicant(), email },
        program_id: institution.single.id,
        campus_id: institution.single.campusId,
        answers: answers(),
      });
      expect(response.statusCode, email).toBe(201);
      answersBy.set(email, response);
    }
    // The same answer whether or not an account was found: nothing tells staff one exists.
    const shapes = [...answersBy.values()].map(receiptKeys);
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);
    const stripped = [...answersBy.values()].map((response) => {
      const {
        id: _id,
        reference: _reference,
        submitted_at: _at,
        ...rest
      } = (response.json() as { data: SubmissionReceipt }).data;
      return rest;
    });
    for (const rest of stripped) expect(rest).toEqual(stripped[0]);

    const studentOf = async (email: string) => {
      const id = (answersBy.get(email)!.json() as { data: SubmissionReceipt }).data.id;
      const [row] = await testApp.db.select().from(submissions).where(eq(submissions.id, id));
      return row!.student_id;
    };
    expect(await studentOf(unverified.email)).toBeNull();
    expect(await studentOf(member.email)).toBeNull();
    expect(await studentOf(applied.email)).toBeNull();
    expect(await studentOf(nobody)).toBeNull();
    expect(await studentOf(attached.email)).not.toBeNull();
    // The student who had started keeps their own draft, untouched.
    const [draft] = await testApp.db.select().from(applications).where(eq(applications.id, draftId));
    expect(draft).toMatchObject({ status: 'in_progress' });
    // The others get the receipt as anyone entered by staff does.
    for (const email of [unverified.email, member.email, applied.email, nobody]) {
      const mails = (await testApp.db.select().from(emailOutbox).where(eq(emailOutbox.to, email))).filter(
        (mail) => mail.template !== 'new_device_sign_in',
      );
      expect(
        mails.map((mail) => mail.template),
        email,
      ).toEqual(['submission_receipt']);
    }
  });
});
