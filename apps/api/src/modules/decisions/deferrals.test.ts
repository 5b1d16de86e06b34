import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  DECISION_MESSAGES as D,
  SETUP_MESSAGES,
  type AdmissionLetterIssued,
  type ApplicationDraft,
  type DeferralCycle,
  type LetterVerification,
  type PlacesRow,
  type ReviewApplication,
  type ReviewDecision,
  type StudentDecision,
  type SubmissionReceipt,
  type WaitingListEntry,
} from '@kaminuza/shared';
import {
  cyclePrograms,
  cycles,
  decisions,
  deferralRequests,
  emailOutbox,
  notifications,
  reviewEvents,
  submissions,
} from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { addDocument, demoAnswers, readyInstitution, type ReadyInstitution } from '../applications/test-helpers.ts';

/* Deferral of an accepted offer (ADR 053), through the api as the applicant and staff use it. */

const testApp = useTestApp();

type ErrorAnswer = { error: { status: string; message: string; reason?: string; details?: unknown } };
const errorOf = (response: { json: () => unknown }) => (response.json() as ErrorAnswer).error;
const dataOf = <T>(response: { json: () => unknown }) => (response.json() as { data: T }).data;

const DAY_MS = 86_400_000;

async function submitted(institution: ReadyInstitution) {
  const student = await signInAs(testApp.app, 'student');
  const documents = {
    transcript: await addDocument(testApp.db, student, 'transcript'),
    passport: await addDocument(testApp.db, student, 'passport'),
  };
  const started = await testApp.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${institution.partnerId}/application`,
    headers: student.headers,
    payload: { program_id: institution.single.id },
  });
  const response = await testApp.app.inject({
    method: 'POST',
    url: `/api/v1/applications/${dataOf<ApplicationDraft>(started).id}/submit`,
    headers: student.headers,
    payload: { version: 1, answers: demoAnswers(documents) },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { student, id: dataOf<SubmissionReceipt>(response).id };
}

const decisionUrl = (institution: ReadyInstitution, submissionId: string) =>
  `/api/v1/partners/${institution.partnerId}/review/submissions/${submissionId}/decision`;

async function decide(institution: ReadyInstitution, submissionId: string, state: string) {
  const drafted = await testApp.app.inject({
    method: 'PUT',
    url: decisionUrl(institution, submissionId),
    headers: institution.admin.headers,
    payload: { state },
  });
  expect(drafted.statusCode, drafted.body).toBe(200);
}

async function releaseAll(institution: ReadyInstitution, ids: string[]) {
  const released = await testApp.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${institution.partnerId}/decisions/release`,
    headers: institution.admin.headers,
    payload: { submission_ids: ids, when: 'now', override_capacity: true },
  });
  expect(released.statusCode, released.body).toBe(200);
}

function respond(student: TestAccount, id: string, response: 'accepted' | 'declined') {
  return testApp.app.inject({
    method: 'POST',
    url: `/api/v1/applications/${id}/decision/response`,
    headers: student.headers,
    payload: { response },
  });
}

/** An applicant holding an accepted offer. */
async function acceptedOffer(institution: ReadyInstitution) {
  const applicant = await submitted(institution);
  await decide(institution, applicant.id, 'accepted');
  await releaseAll(institution, [applicant.id]);
  expect((await respond(applicant.student, applicant.id, 'accepted')).statusCode).toBe(200);
  return applicant;
}

/** Another cycle of the institution, `days` after the current one opened, offering the program or not. */
async function addCycle(institution: ReadyInstitution, name: string, days: number, { offers = true } = {}) {
  const [current] = await testApp.db
    .select({ opens_on: cycles.opens_on })
    .from(cycles)
    .where(eq(cycles.id, institution.cycleId));
  const opens = new Date(Date.parse(current!.opens_on) + days * DAY_MS);
  const [cycle] = await testApp.db
    .insert(cycles)
    .values({
      partner_id: institution.partnerId,
      name,
      opens_on: opens.toISOString().slice(0, 10),
      closes_on: new Date(opens.getTime() + 120 * DAY_MS).toISOString().slice(0, 10),
      status: 'draft',
    })
    .returning({ id: cycles.id });
  if (offers) await testApp.db.insert(cyclePrograms).values({ cycle_id: cycle!.id, program_id: institution.single.id });
  return cycle!.id;
}

const cyclesOf = (student: TestAccount, id: string) =>
  testApp.app.inject({
    method: 'GET',
    url: `/api/v1/applications/${id}/decision/deferral/cycles`,
    headers: student.headers,
  });

const ask = (student: TestAccount, id: string, payload: Record<string, unknown>) =>
  testApp.app.inject({
    method: 'POST',
    url: `/api/v1/applications/${id}/decision/deferral`,
    headers: student.headers,
    payload,
  });

const withdraw = (student: TestAccount, id: string) =>
  testApp.app.inject({
    method: 'DELETE',
    url: `/api/v1/applications/${id}/decision/deferral`,
    headers: student.headers,
  });

const answer = (
  institution: ReadyInstitution,
  id: string,
  payload: Record<string, unknown>,
  member: TestAccount = institution.admin,
) =>
  testApp.app.inject({
    method: 'POST',
    url: `${decisionUrl(institution, id)}/deferral`,
    headers: member.headers,
    payload,
  });

async function reviewOf(institution: ReadyInstitution, id: string) {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/api/v1/partners/${institution.partnerId}/review/submissions/${id}`,
    headers: institution.admin.headers,
  });
  expect(response.statusCode).toBe(200);
  return dataOf<ReviewApplication>(response);
}

function setPlaces(institution: ReadyInstitution, cycleId: string, places: number | null) {
  return testApp.app.inject({
    method: 'PUT',
    url: `/api/v1/partners/${institution.partnerId}/cycles/${cycleId}/places`,
    headers: institution.admin.headers,
    payload: { places: [{ program_id: institution.single.id, campus_id: institution.single.campusId, places }] },
  });
}

async function placesRow(institution: ReadyInstitution, cycleId: string) {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/api/v1/partners/${institution.partnerId}/cycles/${cycleId}/places`,
    headers: institution.admin.headers,
  });
  return dataOf<PlacesRow[]>(response).find(
    (row) => row.program_id === institution.single.id && row.campus_id === institution.single.campusId,
  )!;
}

const mailsTo = (email: string) => testApp.db.select().from(emailOutbox).where(eq(emailOutbox.to, email));
const notificationsOf = (userId: string) =>
  testApp.db.select().from(notifications).where(eq(notifications.user_id, userId));
const eventsOf = async (id: string) =>
  (
    await testApp.db
      .select({ action: reviewEvents.action, actor: reviewEvents.actor_kind, details: reviewEvents.details })
      .from(reviewEvents)
      .where(eq(reviewEvents.submission_id, id))
  ).filter((event) => event.action.startsWith('deferral_'));

describe('deferring an accepted offer', () => {
  it('is asked by the applicant, approved by staff: the offer holds its place in the later cycle, the letter names it', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const next = await addCycle(institution, 'Next intake', 365);
    await addCycle(institution, 'Earlier intake', -365);
    await addCycle(institution, 'Later, other programs', 400, { offers: false });
    const applicant = await acceptedOffer(institution);
    // The place it leaves has a waiting list.
    const waiting = await submitted(institution);
    await decide(institution, waiting.id, 'waitlisted');
    await releaseAll(institution, [waiting.id]);
    expect((await setPlaces(institution, institution.cycleId, 1)).statusCode).toBe(200);
    expect((await setPlaces(institution, next, 5)).statusCode).toBe(200);

    // Only the later cycle offering the program can be chosen.
    const options = dataOf<{ items: DeferralCycle[] }>(await cyclesOf(applicant.student, applicant.id)).items;
    expect(options.map((cycle) => cycle.name)).toEqual(['Next intake']);

    const asked = await ask(applicant.student, applicant.id, { cycle_id: next, reason: '  A gap year abroad.  ' });
    expect(asked.statusCode, asked.body).toBe(201);
    const pending = dataOf<StudentDecision>(asked);
    expect(pending.deferral).toMatchObject({
      status: 'pending',
      to_cycle: { id: next, name: 'Next intake' },
      from_cycle: { id: institution.cycleId },
      reason: 'A gap year abroad.',
      note: '',
      closed_at: null,
    });
    // The institution's decision makers are told, in the app, by the application's reference.
    const told = (await notificationsOf(institution.admin.id)).filter((row) => row.type === 'deferral_requested');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ push: false, link: `/partner/applications/${applicant.id}` });
    expect(told[0]!.data).toMatchObject({ cycle: 'Next intake' });

    // Staff see the request on the decision, with the places left in the cycle asked for.
    const before = await reviewOf(institution, applicant.id);
    expect(before.decision!.deferral).toMatchObject({
      status: 'pending',
      reason: 'A gap year abroad.',
      places: { places: 5, left: 5 },
      decided_by: null,
    });
    expect(await placesRow(institution, institution.cycleId)).toMatchObject({ accepted: 1, left: 0 });

    const approved = await answer(institution, applicant.id, {
      request_id: pending.deferral!.id,
      outcome: 'approved',
      note: 'Enjoy the year.',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(dataOf<ReviewDecision>(approved).deferral).toMatchObject({
      status: 'approved',
      note: 'Enjoy the year.',
      decided_by: { id: expect.any(String) },
      places: null,
      closed_at: expect.any(String),
    });

    // Its place now counts in the later cycle, not the first; the first's waiting list is proposed.
    expect(await placesRow(institution, institution.cycleId)).toMatchObject({ accepted: 0, left: 1 });
    expect(await placesRow(institution, next)).toMatchObject({ accepted: 1, left: 4 });
    expect((await reviewOf(institution, applicant.id)).places).toMatchObject({ places: 5, accepted: 1 });
    const list = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${institution.partnerId}/cycles/${institution.cycleId}/waitlist?program_id=${institution.single.id}&campus_id=${institution.single.campusId}`,
      headers: institution.admin.headers,
    });
    expect(dataOf<WaitingListEntry[]>(list)[0]).toMatchObject({
      submission_id: waiting.id,
      proposed_at: expect.any(String),
    });

    // The letter names the later cycle and still verifies under the same code.
    const [row] = await testApp.db.select().from(decisions).where(eq(decisions.submission_id, applicant.id));
    expect(row!.deferred_to_cycle_id).toBe(next);
    const letter = dataOf<AdmissionLetterIssued>(
      await testApp.app.inject({
        method: 'GET',
        url: `/api/v1/applications/${applicant.id}/decision/letter`,
        headers: applicant.student.headers,
      }),
    );
    expect(letter.cycle_name).toBe('Next intake');
    expect(letter.verification_code).toBe(row!.verification_code);
    const verified = await testApp.app.inject({ method: 'GET', url: `/api/v1/letters/${letter.verification_code}` });
    expect(dataOf<LetterVerification>(verified).state).toBe('accepted');

    // The applicant reads the outcome and the note, in the app and by email.
    const view = dataOf<StudentDecision>(
      await testApp.app.inject({
        method: 'GET',
        url: `/api/v1/applications/${applicant.id}/decision`,
        headers: applicant.student.headers,
      }),
    );
    expect(view.deferral).toMatchObject({ status: 'approved', note: 'Enjoy the year.' });
    const mails = (await mailsTo(applicant.student.email)).filter((mail) => mail.template === 'deferral_approved');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Next intake');
    expect(mails[0]!.text).toContain('Enjoy the year.');
    const notices = (await notificationsOf(applicant.student.id)).filter((row) => row.type === 'deferral_approved');
    expect(notices[0]!.data).toMatchObject({ cycle: 'Next intake', reason: 'Enjoy the year.' });

    expect(await eventsOf(applicant.id)).toEqual([
      { action: 'deferral_requested', actor: 'applicant', details: { cycle: 'Next intake' } },
      { action: 'deferral_approved', actor: 'staff', details: { cycle: 'Next intake' } },
    ]);

    // Answered once; deferred once.
    const again = await answer(institution, applicant.id, { request_id: pending.deferral!.id, outcome: 'approved' });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(D.no_pending_deferral);
    const twice = await ask(applicant.student, applicant.id, { cycle_id: next, reason: 'Again' });
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice).message).toBe(D.deferral_already_deferred);
  });

  it('declined by staff with a note: the offer stays in its cycle, the applicant is told and cannot ask again', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const next = await addCycle(institution, 'Next intake', 365);
    const applicant = await acceptedOffer(institution);
    const asked = dataOf<StudentDecision>(
      await ask(applicant.student, applicant.id, { cycle_id: next, reason: 'Work' }),
    );

    const declined = await answer(institution, applicant.id, {
      request_id: asked.deferral!.id,
      outcome: 'declined',
      note: 'We cannot hold places.',
    });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(dataOf<ReviewDecision>(declined).deferral).toMatchObject({
      status: 'declined',
      note: 'We cannot hold places.',
    });
    const [row] = await testApp.db.select().from(decisions).where(eq(decisions.submission_id, applicant.id));
    expect(row!.deferred_to_cycle_id).toBeNull();
    expect(await placesRow(institution, institution.cycleId)).toMatchObject({ accepted: 1 });
    const mails = (await mailsTo(applicant.student.email)).filter((mail) => mail.template === 'deferral_declined');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('We cannot hold places.');
    expect((await notificationsOf(applicant.student.id)).some((row) => row.type === 'deferral_declined')).toBe(true);

    const again = await ask(applicant.student, applicant.id, { cycle_id: next, reason: 'Please' });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(D.deferral_was_declined);
    expect((await eventsOf(applicant.id)).map((event) => event.action)).toEqual([
      'deferral_requested',
      'deferral_declined',
    ]);
  });

  it('may be withdrawn while pending, then asked again; one request waits at a time', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const next = await addCycle(institution, 'Next intake', 365);
    const later = await addCycle(institution, 'Intake after', 730);
    const applicant = await acceptedOffer(institution);

    expect((await withdraw(applicant.student, applicant.id)).statusCode).toBe(409);
    const first = dataOf<StudentDecision>(await ask(applicant.student, applicant.id, { cycle_id: next, reason: 'A' }));
    const second = await ask(applicant.student, applicant.id, { cycle_id: later, reason: 'B' });
    expect(second.statusCode).toBe(409);
    expect(errorOf(second).message).toBe(D.deferral_pending);

    const withdrawn = await withdraw(applicant.student, applicant.id);
    expect(withdrawn.statusCode).toBe(200);
    expect(dataOf<StudentDecision>(withdrawn).deferral).toMatchObject({
      status: 'withdrawn',
      closed_at: expect.any(String),
    });
    // Staff can no longer answer the withdrawn request.
    const late = await answer(institution, applicant.id, { request_id: first.deferral!.id, outcome: 'approved' });
    expect(late.statusCode).toBe(409);

    const again = await ask(applicant.student, applicant.id, { cycle_id: later, reason: 'B' });
    expect(again.statusCode).toBe(201);
    expect(dataOf<StudentDecision>(again).deferral).toMatchObject({ status: 'pending', to_cycle: { id: later } });
    // The request staff read is the one they answer: the withdrawn one's id is refused.
    const stale = await answer(institution, applicant.id, { request_id: first.deferral!.id, outcome: 'declined' });
    expect(stale.statusCode).toBe(409);
    const rows = await testApp.db
      .select({ status: deferralRequests.status })
      .from(deferralRequests)
      .where(eq(deferralRequests.submission_id, applicant.id));
    expect(rows.map((row) => row.status).sort()).toEqual(['pending', 'withdrawn']);
    expect((await eventsOf(applicant.id)).map((event) => event.action)).toEqual([
      'deferral_requested',
      'deferral_withdrawn',
      'deferral_requested',
    ]);
    // A cycle an offer was asked to be deferred to is in use: it cannot be deleted.
    const deleted = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/v1/partners/${institution.partnerId}/cycles/${later}`,
      headers: institution.admin.headers,
    });
    expect(deleted.statusCode).toBe(409);
    expect(errorOf(deleted).message).toBe(SETUP_MESSAGES.in_use);
  });

  it('respects the places of the later cycle unless staff go beyond them', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const next = await addCycle(institution, 'Next intake', 365);
    const applicant = await acceptedOffer(institution);
    expect((await setPlaces(institution, next, 0)).statusCode).toBe(200);
    const asked = dataOf<StudentDecision>(await ask(applicant.student, applicant.id, { cycle_id: next, reason: 'A' }));

    const full = await answer(institution, applicant.id, { request_id: asked.deferral!.id, outcome: 'approved' });
    expect(full.statusCode).toBe(409);
    expect(errorOf(full)).toMatchObject({ message: D.no_places_left, reason: 'no_places_left' });
    expect((await reviewOf(institution, applicant.id)).decision!.deferral).toMatchObject({
      status: 'pending',
      places: { places: 0, left: 0 },
    });
    const beyond = await answer(institution, applicant.id, {
      request_id: asked.deferral!.id,
      outcome: 'approved',
      override_capacity: true,
    });
    expect(beyond.statusCode, beyond.body).toBe(200);
    expect(await placesRow(institution, next)).toMatchObject({ accepted: 1, left: 0 });
  });
});

describe('who may defer, and when', () => {
  it('refuses offers not accepted, declined offers, other decisions, and offers without a later cycle', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);

    // No later cycle offers the program: nothing to choose, and asking is refused.
    const lonely = await acceptedOffer(institution);
    expect(dataOf<{ items: unknown[] }>(await cyclesOf(lonely.student, lonely.id)).items).toEqual([]);
    const early = await addCycle(institution, 'Earlier intake', -365);
    const none = await ask(lonely.student, lonely.id, { cycle_id: early, reason: 'A' });
    expect(none.statusCode).toBe(409);
    expect(errorOf(none).message).toBe(D.deferral_no_cycle);

    const next = await addCycle(institution, 'Next intake', 365);
    const other = await addCycle(institution, 'Later, other programs', 400, { offers: false });
    // A cycle not among those offered, and missing or overlong reasons, are 400s.
    for (const [payload, message] of [
      [{ cycle_id: early, reason: 'A' }, D.deferral_cycle_invalid],
      [{ cycle_id: other, reason: 'A' }, D.deferral_cycle_invalid],
      [{ cycle_id: next, reason: '   ' }, D.deferral_reason_required],
      [{ cycle_id: next }, D.deferral_reason_required],
      [{ cycle_id: next, reason: 'x'.repeat(1001) }, D.deferral_reason_too_long],
      [{ reason: 'A' }, D.deferral_cycle_required],
    ] as const) {
      const refused = await ask(lonely.student, lonely.id, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.body).toContain(message);
    }

    // An offer not answered yet, a declined one, a waitlisted or rejected decision.
    const open = await submitted(institution);
    const declined = await submitted(institution);
    const waitlisted = await submitted(institution);
    await decide(institution, open.id, 'accepted');
    await decide(institution, declined.id, 'accepted');
    await decide(institution, waitlisted.id, 'waitlisted');
    await releaseAll(institution, [open.id, declined.id, waitlisted.id]);
    await respond(declined.student, declined.id, 'declined');
    for (const applicant of [open, declined, waitlisted]) {
      const refused = await ask(applicant.student, applicant.id, { cycle_id: next, reason: 'A' });
      expect(refused.statusCode).toBe(409);
      expect(errorOf(refused).message).toBe(D.deferral_not_accepted);
      expect(dataOf<{ items: unknown[] }>(await cyclesOf(applicant.student, applicant.id)).items).toEqual([]);
    }

    // A decision not released yet does not exist for the applicant.
    const drafted = await submitted(institution);
    await decide(institution, drafted.id, 'accepted');
    expect((await ask(drafted.student, drafted.id, { cycle_id: next, reason: 'A' })).statusCode).toBe(404);
    expect(await testApp.db.$count(deferralRequests, eq(deferralRequests.partner_id, institution.partnerId))).toBe(0);
  });

  it('refuses once the offer ended, and an ended offer closes a waiting request', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const next = await addCycle(institution, 'Next intake', 365);
    const applicant = await submitted(institution);
    const drafted = await testApp.app.inject({
      method: 'PUT',
      url: decisionUrl(institution, applicant.id),
      headers: institution.admin.headers,
      payload: { state: 'accepted', conditions: [{ kind: 'text', text: 'Pass the final examinations' }] },
    });
    expect(drafted.statusCode, drafted.body).toBe(200);
    await releaseAll(institution, [applicant.id]);
    await respond(applicant.student, applicant.id, 'accepted');
    const asked = dataOf<StudentDecision>(await ask(applicant.student, applicant.id, { cycle_id: next, reason: 'A' }));
    expect(asked.deferral!.status).toBe('pending');

    const ended = await testApp.app.inject({
      method: 'POST',
      url: `${decisionUrl(institution, applicant.id)}/conditions`,
      headers: institution.admin.headers,
      payload: { outcome: 'not_met' },
    });
    expect(ended.statusCode).toBe(200);
    expect(dataOf<ReviewDecision>(ended).deferral).toMatchObject({ status: 'declined', decided_by: null });
    const refused = await ask(applicant.student, applicant.id, { cycle_id: next, reason: 'A' });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(D.offer_ended);
    expect(await eventsOf(applicant.id)).toContainEqual({
      action: 'deferral_declined',
      actor: 'system',
      details: { offer_ended: true },
    });
  });

  it('keeps each side to its own: another applicant, another institution, members without make_decisions', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const next = await addCycle(institution, 'Next intake', 365);
    const applicant = await acceptedOffer(institution);
    const stranger = await signInAs(testApp.app, 'student');

    expect((await cyclesOf(stranger, applicant.id)).statusCode).toBe(404);
    expect((await ask(stranger, applicant.id, { cycle_id: next, reason: 'Mine' })).statusCode).toBe(404);
    const asked = dataOf<StudentDecision>(await ask(applicant.student, applicant.id, { cycle_id: next, reason: 'A' }));
    expect((await withdraw(stranger, applicant.id)).statusCode).toBe(404);
    // Staff are not applicants, applicants are not staff.
    expect((await ask(institution.admin, applicant.id, { cycle_id: next, reason: 'A' })).statusCode).toBe(403);
    const asApplicant = await answer(
      institution,
      applicant.id,
      { request_id: asked.deferral!.id, outcome: 'approved' },
      applicant.student,
    );
    expect(asApplicant.statusCode).toBe(403);

    const elsewhere = await readyInstitution(testApp.app, testApp.db);
    const foreign = await answer(
      { ...institution, admin: elsewhere.admin },
      applicant.id,
      { request_id: asked.deferral!.id, outcome: 'approved' },
      elsewhere.admin,
    );
    expect(foreign.statusCode).toBe(404);
    // Under its own id, the other institution does not know the submission either.
    const own = await answer(elsewhere, applicant.id, { request_id: asked.deferral!.id, outcome: 'approved' });
    expect(own.statusCode).toBe(404);

    const reviewer = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['review_applications'],
    });
    const denied = await answer(
      institution,
      applicant.id,
      { request_id: asked.deferral!.id, outcome: 'approved' },
      reviewer,
    );
    expect(denied.statusCode).toBe(403);
    // Nor is the reviewer told of the request: only those who decide are.
    expect((await notificationsOf(reviewer.id)).filter((row) => row.type === 'deferral_requested')).toEqual([]);
    const invalid = await answer(institution, applicant.id, { request_id: asked.deferral!.id, outcome: 'maybe' });
    expect(invalid.statusCode).toBe(400);
    const long = await answer(institution, applicant.id, {
      request_id: asked.deferral!.id,
      outcome: 'declined',
      note: 'x'.repeat(1001),
    });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain(D.deferral_note_too_long);

    const [row] = await testApp.db
      .select({ status: deferralRequests.status })
      .from(deferralRequests)
      .where(and(eq(deferralRequests.submission_id, applicant.id)));
    expect(row!.status).toBe('pending');
    const [submission] = await testApp.db
      .select({ cycle_id: submissions.cycle_id })
      .from(submissions)
      .where(eq(submissions.id, applicant.id));
    expect(submission!.cycle_id).toBe(institution.cycleId);
  });
});
