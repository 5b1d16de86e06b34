import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  APPLICATION_MESSAGES as A,
  DRAFT_ANSWERS_MAX_BYTES,
  SETUP_MESSAGES,
  type ApplicationCard,
  type ApplicationDraft,
  type ApplyContext,
  type DraftSaved,
} from '@kaminuza/shared';
import { applications, cycles, forms, partners, savedPartners, students } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';
import { addDocument, closeCycle, readyInstitution, studentRow, type ReadyInstitution } from './test-helpers.ts';

const testApp = useTestApp();

type ErrorAnswer = { error: { status: string; message: string; details?: unknown } };

async function call(account: TestAccount, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  return testApp.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: account.headers,
    ...(payload ? { payload } : {}),
  });
}

async function start(student: TestAccount, institution: ReadyInstitution, body: object = {}) {
  const response = await call(student, 'POST', `/partners/${institution.partnerId}/application`, {
    program_id: institution.double.id,
    campus_id: institution.double.campusIds[0],
    ...body,
  });
  return { response, draft: (response.json() as { data: ApplicationDraft }).data };
}

describe('authorization', () => {
  it('lets only students in, and answers another student’s application with 404', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const owner = await signInAs(testApp.app, 'student');
    const { draft } = await start(owner, institution);
    const id = draft.id;
    const partner = institution.partnerId;
    const denied = { anonymous: 401, staff: 403, admin: 403 };
    await expectAccess(testApp.app, { method: 'GET', url: '/api/v1/applications' }, { ...denied, student: 200 });
    await expectAccess(
      testApp.app,
      { method: 'GET', url: `/api/v1/partners/${partner}/application` },
      { ...denied, student: 200 },
    );
    await expectAccess(
      testApp.app,
      {
        method: 'POST',
        url: `/api/v1/partners/${partner}/application`,
        payload: { program_id: institution.double.id, campus_id: institution.double.campusIds[0] },
      },
      { ...denied, student: 201 },
    );
    // A fresh student reaching the owner's application gets 404 for every verb, never 403.
    await expectAccess(testApp.app, { method: 'GET', url: `/api/v1/applications/${id}` }, { ...denied, student: 404 });
    await expectAccess(
      testApp.app,
      { method: 'PATCH', url: `/api/v1/applications/${id}`, payload: { version: 1, answers: {} } },
      { ...denied, student: 404 },
    );
    await expectAccess(
      testApp.app,
      { method: 'DELETE', url: `/api/v1/applications/${id}` },
      { ...denied, student: 404 },
    );
    await expectAccess(
      testApp.app,
      { method: 'POST', url: `/api/v1/applications/${id}/submit`, payload: { version: 1, answers: {} } },
      { ...denied, student: 404 },
    );
    await expectAccess(
      testApp.app,
      { method: 'GET', url: `/api/v1/applications/${id}/submission` },
      { ...denied, student: 404 },
    );
    // The owner's application is untouched by all of that.
    const after = (await call(owner, 'GET', `/applications/${id}`)).json() as { data: ApplicationDraft };
    expect(after.data.version).toBe(1);
  });

  it('answers 404 for an unknown, unpublished or unapproved institution', async () => {
    const student = await signInAs(testApp.app, 'student');
    expect((await call(student, 'GET', `/partners/${randomUUID()}/application`)).statusCode).toBe(404);
    const institution = await readyInstitution(testApp.app, testApp.db);
    await testApp.db.update(partners).set({ published: false }).where(eq(partners.id, institution.partnerId));
    const hidden = await call(student, 'GET', `/partners/${institution.partnerId}/application`);
    expect(hidden.statusCode).toBe(404);
    expect((hidden.json() as ErrorAnswer).error.message).toBe('Not found');
    expect((await start(student, institution)).response.statusCode).toBe(404);
    await testApp.db
      .update(partners)
      .set({ published: true, status: 'suspended' })
      .where(eq(partners.id, institution.partnerId));
    expect((await call(student, 'GET', `/partners/${institution.partnerId}/application`)).statusCode).toBe(404);
  });

  it('answers "Profile not found" to a student account without a student record', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    await testApp.db.delete(students).where(eq(students.user_id, student.id));
    const response = await start(student, institution);
    expect(response.response.statusCode).toBe(404);
    expect((response.response.json() as ErrorAnswer).error.message).toBe(A.student_required);
    const cards = (await call(student, 'GET', '/applications')).json() as { data: ApplicationCard[] };
    expect(cards.data).toEqual([]);
  });

  it('refuses malformed ids and bodies with 400', async () => {
    const student = await signInAs(testApp.app, 'student');
    expect((await call(student, 'GET', '/applications/not-a-uuid')).statusCode).toBe(400);
    const institution = await readyInstitution(testApp.app, testApp.db);
    const bad = await call(student, 'POST', `/partners/${institution.partnerId}/application`, { program_id: 'x' });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as ErrorAnswer).error.details).toEqual([{ path: 'program_id', message: A.program_not_open }]);
  });
});

describe('the start screen and starting', () => {
  it('shows the institution, its open cycle, programs with campuses and the fee', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const student = await signInAs(testApp.app, 'student');
    const context = (await call(student, 'GET', `/partners/${institution.partnerId}/application`)).json() as {
      data: ApplyContext;
    };
    expect(context.data.cycle).toMatchObject({ id: institution.cycleId, accepting_applications: true });
    expect(context.data.programs).toHaveLength(5);
    expect(context.data.programs.find((program) => program.id === institution.double.id)?.campuses).toHaveLength(2);
    expect(context.data.fee).toEqual({ amount: 100, currency: 'USD' });
    expect(context.data.application).toBeNull();
  });

  it('starts with answers prefilled from the profile and documents, and lists it in current_applications', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    await testApp.db
      .update(students)
      .set({ phone: '+250788000111', nationality: 'KE', school_country: 'UG' })
      .where(eq(students.user_id, student.id));
    const transcript = await addDocument(testApp.db, student, 'transcript');
    const { response, draft } = await start(student, institution, { campus_id: institution.double.campusIds[1] });
    expect(response.statusCode).toBe(201);
    expect(draft).toMatchObject({
      status: 'in_progress',
      version: 1,
      campus_id: institution.double.campusIds[1],
      current_step: 0,
      current_section_index: 0,
      last_saved_at: null,
      reference: null,
      paid: false,
    });
    // The secondary school's country comes from the profile's school, not from where the student lives.
    expect(draft.answers).toEqual({ own_phone: '+250788000111', nationality: 'KE', school_country: 'UG', transcript });
    // Two of ten required questions are answered by the prefill (the school's country and the transcript).
    expect(draft.progress_percentage).toBe(20);
    expect(draft.documents).toEqual([{ id: transcript, type: 'transcript', name: 'transcript.pdf' }]);
    expect(draft.form.sections).toHaveLength(5);
    const row = await studentRow(testApp.db, student);
    expect(row.current_applications).toEqual([draft.id]);
    expect(row.last_activity).not.toBeNull();
  });

  it('answers the application the student already has (200), also when two tabs start at once', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    const both = await Promise.all([start(student, institution), start(student, institution)]);
    expect(both.map((one) => one.response.statusCode).sort()).toEqual([200, 201]);
    expect(both[0].draft.id).toBe(both[1].draft.id);
    const again = await start(student, institution, { program_id: institution.single.id });
    expect(again.response.statusCode).toBe(200);
    expect(again.draft.id).toBe(both[0].draft.id);
    expect((await studentRow(testApp.db, student)).current_applications).toEqual([both[0].draft.id]);
  });

  it('sets the only campus of a program, and has the applicant choose among several', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const one = await start(await signInAs(testApp.app, 'student'), institution, {
      program_id: institution.single.id,
      campus_id: undefined,
    });
    expect(one.response.statusCode).toBe(201);
    expect(one.draft.campus_id).toBe(institution.single.campusId);
    const chosen = await start(await signInAs(testApp.app, 'student'), institution, {
      campus_id: institution.double.campusIds[1],
    });
    expect(chosen.response.statusCode).toBe(201);
    expect(chosen.draft.campus_id).toBe(institution.double.campusIds[1]);
    expect(chosen.draft.campuses.map((campus) => campus.id).sort()).toEqual([...institution.double.campusIds].sort());
  });

  it('refuses a program taught at several campuses without a campus, or with another institution’s', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const elsewhere = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    for (const campus_id of [undefined, null]) {
      const missing = await start(student, institution, { campus_id });
      expect(missing.response.statusCode).toBe(400);
      expect((missing.response.json() as ErrorAnswer).error).toEqual({
        status: 'INVALID_ARGUMENT',
        message: 'Campus ID is required for submission',
      });
    }
    const foreign = await start(student, institution, { campus_id: elsewhere.double.campusIds[0] });
    expect(foreign.response.statusCode).toBe(400);
    expect((foreign.response.json() as ErrorAnswer).error.message).toBe(A.campus_not_offered);
    expect(await testApp.db.$count(applications, eq(applications.partner_id, institution.partnerId))).toBe(0);
    expect((await studentRow(testApp.db, student)).current_applications).toEqual([]);
  });

  it('refuses a program not open, a campus not offering it, a closed cycle and a cycle without form', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    const notOpen = await start(student, institution, { program_id: randomUUID() });
    expect(notOpen.response.statusCode).toBe(400);
    expect((notOpen.response.json() as ErrorAnswer).error.message).toBe(A.program_not_open);
    const otherCampus = institution.double.campusIds.find((id) => id !== institution.single.campusId)!;
    const wrongCampus = await start(student, institution, {
      program_id: institution.single.id,
      campus_id: otherCampus,
    });
    expect(wrongCampus.response.statusCode).toBe(400);
    expect((wrongCampus.response.json() as ErrorAnswer).error.message).toBe(A.campus_not_offered);

    await testApp.db.update(forms).set({ cycle_id: null }).where(eq(forms.partner_id, institution.partnerId));
    const noForm = await start(student, institution);
    expect(noForm.response.statusCode).toBe(409);
    expect((noForm.response.json() as ErrorAnswer).error).toEqual({
      status: 'ABORTED',
      message: A.no_form,
      reason: 'no_form',
    });

    await closeCycle(testApp.db, institution.cycleId);
    const closed = await start(student, institution);
    expect(closed.response.statusCode).toBe(409);
    expect((closed.response.json() as ErrorAnswer).error).toEqual({
      status: 'ABORTED',
      message: A.cycle_closed,
      reason: 'cycle_closed',
    });
    expect(await testApp.db.$count(applications, eq(applications.partner_id, institution.partnerId))).toBe(0);
  });
});

describe('autosave', () => {
  it('saves the answers with the version, drops unknown questions and empties, and tracks progress', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    const { draft } = await start(student, institution);
    const response = await call(student, 'PATCH', `/applications/${draft.id}`, {
      version: 1,
      answers: { why_programme: 'Because.', grade_average: 80, unknown_question: 'x', emergency_name: '  ' },
      current_step: 0,
      current_section_index: 2,
      campus_id: institution.double.campusIds[0],
      // A client cannot set these: the schema has no such fields, so they do nothing.
      status: 'submitted',
      version_bump: 10,
      student_id: randomUUID(),
      submitted_by_staff: true,
    });
    expect(response.statusCode).toBe(200);
    const saved = (response.json() as { data: DraftSaved }).data;
    expect(saved.version).toBe(2);
    expect(saved.progress_percentage).toBe(20);
    const reopened = ((await call(student, 'GET', `/applications/${draft.id}`)).json() as { data: ApplicationDraft })
      .data;
    expect(reopened).toMatchObject({
      status: 'in_progress',
      version: 2,
      current_section_index: 2,
      campus_id: institution.double.campusIds[0],
      answers: { why_programme: 'Because.', grade_average: 80 },
    });
    expect(reopened.answers).not.toHaveProperty('unknown_question');
    expect(reopened.last_saved_at).not.toBeNull();

    // A save without a position or campus keeps them; each save stamps its own time.
    const stamp = async () =>
      (
        await testApp.db
          .select({ updated_at: applications.updated_at, last_saved_at: applications.last_saved_at })
          .from(applications)
          .where(eq(applications.id, draft.id))
      )[0]!;
    const before = await stamp();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await call(student, 'PATCH', `/applications/${draft.id}`, {
      version: 2,
      answers: { why_programme: 'Because, again.' },
    });
    expect(again.statusCode).toBe(200);
    const after = await stamp();
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(Date.parse(after.last_saved_at!)).toBeGreaterThan(Date.parse(before.last_saved_at!));
    const kept = ((await call(student, 'GET', `/applications/${draft.id}`)).json() as { data: ApplicationDraft }).data;
    expect(kept).toMatchObject({ version: 3, current_section_index: 2, campus_id: institution.double.campusIds[0] });
  });

  it('refuses a stale version with 409 and what the server holds, never overwriting', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    const { draft } = await start(student, institution);
    await call(student, 'PATCH', `/applications/${draft.id}`, { version: 1, answers: { why_programme: 'Tab one' } });
    const stale = await call(student, 'PATCH', `/applications/${draft.id}`, {
      version: 1,
      answers: { why_programme: 'Tab two' },
    });
    expect(stale.statusCode).toBe(409);
    const error = (stale.json() as ErrorAnswer).error as { status: string; message: string; details: object };
    expect(error.status).toBe('ABORTED');
    expect(error).toMatchObject({ message: A.stale_draft, reason: 'stale_draft' });
    expect(error.details).toMatchObject({ version: 2 });
    expect((error.details as { last_saved_at: string | null }).last_saved_at).toBeTruthy();
    const now = ((await call(student, 'GET', `/applications/${draft.id}`)).json() as { data: ApplicationDraft }).data;
    expect(now.answers.why_programme).toBe('Tab one');
  });

  it('lets only one of two concurrent saves on one version through', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    const { draft } = await start(student, institution);
    const results = await Promise.all(
      ['a', 'b', 'c'].map((text) =>
        call(student, 'PATCH', `/applications/${draft.id}`, { version: 1, answers: { why_programme: text } }),
      ),
    );
    expect(results.map((result) => result.statusCode).sort()).toEqual([200, 409, 409]);
  });

  it('refuses answers too large, a campus not offering the program and a closed cycle', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    const { draft } = await start(student, institution);
    const essay = 'word '.repeat(9_000);
    const answers = Object.fromEntries(
      Array.from({ length: Math.ceil(DRAFT_ANSWERS_MAX_BYTES / essay.length) + 1 }, (_, i) => [`q${i}`, essay]),
    );
    const tooLarge = await call(student, 'PATCH', `/applications/${draft.id}`, { version: 1, answers });
    expect(tooLarge.statusCode).toBe(400);
    expect((tooLarge.json() as ErrorAnswer).error.message).toBe(A.answers_too_large);

    const wrongCampus = await call(student, 'PATCH', `/applications/${draft.id}`, {
      version: 1,
      answers: {},
      campus_id: randomUUID(),
    });
    expect(wrongCampus.statusCode).toBe(400);
    expect((wrongCampus.json() as ErrorAnswer).error.message).toBe(A.campus_not_offered);

    await closeCycle(testApp.db, institution.cycleId);
    const closed = await call(student, 'PATCH', `/applications/${draft.id}`, { version: 1, answers: {} });
    expect(closed.statusCode).toBe(409);
    expect((closed.json() as ErrorAnswer).error).toMatchObject({ message: A.cycle_closed, reason: 'cycle_closed' });
    // Reading stays allowed, and says the cycle no longer takes applications.
    const read = (await call(student, 'GET', `/applications/${draft.id}`)).json() as { data: ApplicationDraft };
    expect(read.data.version).toBe(1);
    expect(read.data.cycle.accepting_applications).toBe(false);
  });
});

describe('discarding', () => {
  it('deletes the draft and takes it out of current_applications', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    const { draft } = await start(student, institution);
    const response = await call(student, 'DELETE', `/applications/${draft.id}`);
    expect(response.statusCode).toBe(204);
    expect((await call(student, 'GET', `/applications/${draft.id}`)).statusCode).toBe(404);
    expect((await studentRow(testApp.db, student)).current_applications).toEqual([]);
    expect((await start(student, institution)).response.statusCode).toBe(201);
  });

  it('refuses to discard a submitted application, and leaves another student’s draft alone', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    const { draft } = await start(student, institution);
    await testApp.db
      .update(applications)
      .set({ status: 'submitted', submitted_at: new Date().toISOString() })
      .where(eq(applications.id, draft.id));
    const submitted = await call(student, 'DELETE', `/applications/${draft.id}`);
    expect(submitted.statusCode).toBe(409);
    expect((submitted.json() as ErrorAnswer).error).toMatchObject({
      message: A.already_submitted,
      reason: 'already_submitted',
    });

    const owner = await signInAs(testApp.app, 'student');
    const other = await start(owner, institution);
    const intruder = await call(student, 'DELETE', `/applications/${other.draft.id}`);
    expect(intruder.statusCode).toBe(404);
    expect((await call(owner, 'GET', `/applications/${other.draft.id}`)).statusCode).toBe(200);
    expect((await studentRow(testApp.db, owner)).current_applications).toEqual([other.draft.id]);
  });
});

describe('the applications area', () => {
  it('shows saved institutions as Apply, then In Progress, and only published ones', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const hidden = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    const { id: studentId } = await studentRow(testApp.db, student);
    await testApp.db
      .insert(savedPartners)
      .values([
        { student_id: studentId, partner_id: institution.partnerId },
        { student_id: studentId, partner_id: hidden.partnerId },
      ])
      .onConflictDoNothing();
    await testApp.db.update(partners).set({ published: false }).where(eq(partners.id, hidden.partnerId));
    const before = ((await call(student, 'GET', '/applications')).json() as { data: ApplicationCard[] }).data;
    expect(before.map((card) => [card.partner_id, card.state])).toEqual([[institution.partnerId, 'apply']]);
    const { draft } = await start(student, institution);
    const after = ((await call(student, 'GET', '/applications')).json() as { data: ApplicationCard[] }).data;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ state: 'in_progress', application: { id: draft.id } });
  });
});

describe('setup in use by applications in progress', () => {
  it('refuses deleting the campus, program or cycle a draft names', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const student = await signInAs(testApp.app, 'student');
    const { draft } = await start(student, institution, { program_id: institution.single.id });
    const base = `/partners/${institution.partnerId}`;
    for (const url of [
      `${base}/programs/${institution.single.id}`,
      `${base}/campuses/${draft.campus_id}`,
      `${base}/cycles/${institution.cycleId}`,
    ]) {
      const response = await call(institution.admin, 'DELETE', url);
      expect(response.statusCode, url).toBe(409);
      expect((response.json() as ErrorAnswer).error.message, url).toBe(SETUP_MESSAGES.in_use_drafts);
    }
    expect(await testApp.db.$count(cycles, eq(cycles.id, institution.cycleId))).toBe(1);
  });
});
