import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  DECISION_MESSAGES as D,
  VERIFICATION_CODE_PATTERN,
  type AdmissionLetterIssued,
  type ApplicationDraft,
  type DecisionReleaseResult,
  type LetterVerification,
  type PlacesRow,
  type WaitingListEntry,
  type ReviewDecision,
  type StudentDecision,
  type SubmissionReceipt,
} from '@kaminuza/shared';
import { openDatabase } from '../../db/client.ts';
import {
  cycles,
  decisions,
  emailOutbox,
  notifications,
  partnerSettings,
  reviewEvents,
  students,
  submissions,
} from '../../db/schema/index.ts';
import { TEST_PUBLIC_URL, useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { addDocument, demoAnswers, readyInstitution, type ReadyInstitution } from '../applications/test-helpers.ts';
import { lapseDueOffers, RELEASE_AT_JOB, releaseDueDecisions, remindOpenOffers } from './decisions.jobs.ts';
import { QUEUE_SCHEMA } from '../../lib/jobs/queue.ts';
import { LETTER_VERIFICATION_LIMIT } from './decisions.routes.ts';

const testApp = useTestApp();

type ErrorAnswer = { error: { status: string; message: string; details?: unknown } };
const errorOf = (response: { json: () => unknown }) => (response.json() as ErrorAnswer).error;
const dataOf = <T>(response: { json: () => unknown }) => (response.json() as { data: T }).data;

/** A student's application to the institution, submitted through the real submit path. */
async function submitted(institution: ReadyInstitution, { language = 'en' } = {}) {
  const student = await signInAs(testApp.app, 'student');
  await testApp.db.update(students).set({ language }).where(eq(students.user_id, student.id));
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
  const draft = dataOf<ApplicationDraft>(started);
  const response = await testApp.app.inject({
    method: 'POST',
    url: `/api/v1/applications/${draft.id}/submit`,
    headers: student.headers,
    payload: { version: 1, answers: demoAnswers(documents) },
  });
  expect(response.statusCode).toBe(201);
  return { student, id: dataOf<SubmissionReceipt>(response).id };
}

/** A submission a member made for an applicant without an account. */
async function onBehalf(institution: ReadyInstitution) {
  const { transcript: _transcript, passport: _passport, ...answers } = demoAnswers();
  const response = await testApp.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${institution.partnerId}/submissions`,
    headers: institution.admin.headers,
    payload: {
      program_id: institution.single.id,
      campus_id: institution.single.campusId,
      applicant: { first_name: 'Walk', last_name: 'In', email: `walk-in-${randomUUID().slice(0, 8)}@example.com` },
      answers,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return dataOf<SubmissionReceipt>(response).id;
}

const decisionUrl = (institution: ReadyInstitution, submissionId: string) =>
  `/api/v1/partners/${institution.partnerId}/review/submissions/${submissionId}/decision`;

function draft(institution: ReadyInstitution, submissionId: string, state: string, member = institution.admin) {
  return testApp.app.inject({
    method: 'PUT',
    url: decisionUrl(institution, submissionId),
    headers: member.headers,
    payload: { state },
  });
}

function release(institution: ReadyInstitution, ids: string[], when = 'now', member = institution.admin) {
  return testApp.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${institution.partnerId}/decisions/release`,
    headers: member.headers,
    payload: { submission_ids: ids, when },
  });
}

function studentGet(student: TestAccount, url: string) {
  return testApp.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: student.headers });
}

function respond(student: TestAccount, id: string, response: string) {
  return testApp.app.inject({
    method: 'POST',
    url: `/api/v1/applications/${id}/decision/response`,
    headers: student.headers,
    payload: { response },
  });
}

async function mailsTo(email: string) {
  return testApp.db.select().from(emailOutbox).where(eq(emailOutbox.to, email));
}

async function setLetter(partnerId: string, letter: Record<string, unknown>) {
  await testApp.db
    .update(partnerSettings)
    .set({
      admissions: sql`jsonb_set(${partnerSettings.admissions}, '{admission_letter}', ${JSON.stringify(letter)}::jsonb)`,
    })
    .where(eq(partnerSettings.partner_id, partnerId));
}

async function setTimezone(partnerId: string, timezone: string) {
  await testApp.db
    .update(partnerSettings)
    .set({ general: sql`${partnerSettings.general} || ${JSON.stringify({ timezone })}::jsonb` })
    .where(eq(partnerSettings.partner_id, partnerId));
}

const STUDENT_DECISION_KEYS = [
  'application_id',
  'condition_views',
  'conditions',
  'conditions_decided_at',
  'conditions_status',
  'deferral',
  'has_letter',
  'id',
  'lapsed_at',
  'message',
  'partner_id',
  'program_name',
  'released_at',
  'reply_by',
  'reply_by_on',
  'response',
  'response_date',
  'state',
  'university_name',
];

describe('who may decide', () => {
  it('answers 404 to another institution’s staff, on its routes and with its submissions', async () => {
    const a = await readyInstitution(testApp.app, testApp.db);
    const b = await readyInstitution(testApp.app, testApp.db);
    const { id } = await submitted(a);
    expect((await draft(a, id, 'accepted')).statusCode).toBe(200);

    const asB = { ...a, admin: b.admin };
    expect((await draft(asB, id, 'rejected')).statusCode).toBe(404);
    const withdrawn = await testApp.app.inject({
      method: 'DELETE',
      url: decisionUrl(asB, id),
      headers: b.admin.headers,
    });
    expect(withdrawn.statusCode).toBe(404);
    expect((await release(asB, [id])).statusCode).toBe(404);
    // Under B's own id, A's submission is unknown: drafting 404s, a release skips it.
    expect((await draft(b, id, 'rejected')).statusCode).toBe(404);
    const skipped = await release(b, [id]);
    expect(dataOf<DecisionReleaseResult>(skipped)).toEqual({ released: 0, scheduled: 0, skipped: 1 });

    const [row] = await testApp.db.select().from(decisions).where(eq(decisions.submission_id, id));
    expect(row).toMatchObject({ state: 'accepted', released_at: null });
  });

  it('denies a member who only reviews, a student and a visitor', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { id, student } = await submitted(institution);
    const reviewer = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['review_applications'],
    });
    expect((await draft(institution, id, 'accepted', reviewer)).statusCode).toBe(403);
    expect((await release(institution, [id], 'now', reviewer)).statusCode).toBe(403);
    const withdraw = await testApp.app.inject({
      method: 'DELETE',
      url: decisionUrl(institution, id),
      headers: reviewer.headers,
    });
    expect(withdraw.statusCode).toBe(403);
    expect((await draft(institution, id, 'accepted', student)).statusCode).toBe(403);
    const anonymous = await testApp.app.inject({
      method: 'PUT',
      url: decisionUrl(institution, id),
      payload: { state: 'accepted' },
    });
    expect(anonymous.statusCode).toBe(401);
    // Staff do not read the student area.
    expect((await studentGet(institution.admin, '/decisions')).statusCode).toBe(403);
    expect(await testApp.db.$count(decisions, eq(decisions.submission_id, id))).toBe(0);
  });
});

describe('drafting', () => {
  it('drafts, changes and withdraws a decision the applicant never sees', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { id, student } = await submitted(institution);

    const invalid = await draft(institution, id, 'maybe');
    expect(invalid.statusCode).toBe(400);

    const first = await draft(institution, id, 'accepted');
    expect(first.statusCode).toBe(200);
    expect(dataOf<ReviewDecision>(first)).toMatchObject({
      state: 'accepted',
      automatic: false,
      decided_by: { id: expect.any(String), name: 'Test Staff' },
      released_at: null,
      release_at: null,
      response: null,
      verification_code: null,
    });
    const [submission] = await testApp.db.select().from(submissions).where(eq(submissions.id, id));
    expect(submission!.status).toBe('under_review');
    const [row] = await testApp.db.select().from(decisions).where(eq(decisions.submission_id, id));
    expect(row!.program_name).not.toBe('');
    expect(row!.university_name).toMatch(/^Test Institution/);

    const changed = await draft(institution, id, 'waitlisted');
    expect(dataOf<ReviewDecision>(changed).state).toBe('waitlisted');

    // Drafts do not exist for the applicant, nor does anything of the review.
    expect(dataOf<{ items: StudentDecision[] }>(await studentGet(student, '/decisions')).items).toEqual([]);
    const hidden = await studentGet(student, `/applications/${id}/decision`);
    expect(hidden.statusCode).toBe(404);
    expect(errorOf(hidden).message).toBe(D.application_not_found);
    expect((await studentGet(student, `/applications/${id}/decision/letter`)).statusCode).toBe(404);
    expect((await respond(student, id, 'accepted')).statusCode).toBe(404);

    const withdrawn = await testApp.app.inject({
      method: 'DELETE',
      url: decisionUrl(institution, id),
      headers: institution.admin.headers,
    });
    expect(withdrawn.statusCode).toBe(204);
    const again = await testApp.app.inject({
      method: 'DELETE',
      url: decisionUrl(institution, id),
      headers: institution.admin.headers,
    });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(D.not_drafted);

    const history = await testApp.db
      .select({ action: reviewEvents.action, actor: reviewEvents.actor_kind })
      .from(reviewEvents)
      .where(eq(reviewEvents.submission_id, id))
      .orderBy(reviewEvents.created_at);
    const decided = history.filter((event) => event.action.startsWith('decision_'));
    expect(decided.map((event) => event.action).sort()).toEqual([
      'decision_drafted',
      'decision_drafted',
      'decision_withdrawn',
    ]);
    expect(decided.every((event) => event.actor === 'staff')).toBe(true);
  });

  it('answers 404 for an unknown submission', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const response = await draft(institution, '00000000-0000-4000-8000-000000000000', 'accepted');
    expect(response.statusCode).toBe(404);
  });
});

describe('releasing now', () => {
  it('releases each draft once, with one email per applicant in their language, and a repeat sends none', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const accepted = await submitted(institution, { language: 'fr' });
    const rejected = await submitted(institution, { language: 'rw' });
    const waitlisted = await submitted(institution);
    const undrafted = await submitted(institution);
    const walkIn = await onBehalf(institution);
    expect((await draft(institution, accepted.id, 'accepted')).statusCode).toBe(200);
    expect((await draft(institution, rejected.id, 'rejected')).statusCode).toBe(200);
    expect((await draft(institution, waitlisted.id, 'waitlisted')).statusCode).toBe(200);
    expect((await draft(institution, walkIn, 'accepted')).statusCode).toBe(200);
    const ids = [accepted.id, rejected.id, waitlisted.id, undrafted.id, walkIn];
    const before = await testApp.db.$count(emailOutbox, eq(emailOutbox.template, 'decision_released'));

    const first = await release(institution, [...ids, accepted.id]);
    expect(first.statusCode).toBe(200);
    expect(dataOf<DecisionReleaseResult>(first)).toEqual({ released: 4, scheduled: 0, skipped: 1 });

    for (const [applicant, language] of [
      [accepted, 'fr'],
      [rejected, 'rw'],
      [waitlisted, 'en'],
    ] as const) {
      const mails = (await mailsTo(applicant.student.email)).filter((mail) => mail.template === 'decision_released');
      expect(mails).toHaveLength(1);
      expect(mails[0]!.language).toBe(language);
      expect(mails[0]!.text).toContain(`${TEST_PUBLIC_URL}/partners/${institution.partnerId}/application/decision`);
    }
    expect((await mailsTo(accepted.student.email)).find((m) => m.template === 'decision_released')!.subject).toMatch(
      /^Une décision sur votre candidature à Test Institution/,
    );
    // No account, no email: three applicants with accounts, three emails.
    expect(await testApp.db.$count(emailOutbox, eq(emailOutbox.template, 'decision_released'))).toBe(before + 3);

    const statuses = await testApp.db
      .select({ id: submissions.id, status: submissions.status })
      .from(submissions)
      .where(inArray(submissions.id, ids));
    expect(Object.fromEntries(statuses.map((row) => [row.id, row.status]))).toEqual({
      [accepted.id]: 'accepted',
      [rejected.id]: 'rejected',
      [waitlisted.id]: 'waitlisted',
      [undrafted.id]: 'submitted',
      [walkIn]: 'accepted',
    });

    const again = await release(institution, ids);
    expect(dataOf<DecisionReleaseResult>(again)).toEqual({ released: 0, scheduled: 0, skipped: 5 });
    expect(await testApp.db.$count(emailOutbox, eq(emailOutbox.template, 'decision_released'))).toBe(before + 3);

    // Released decisions are final.
    const change = await draft(institution, accepted.id, 'rejected');
    expect(change.statusCode).toBe(409);
    expect(errorOf(change).message).toBe(D.already_released);
    const withdraw = await testApp.app.inject({
      method: 'DELETE',
      url: decisionUrl(institution, rejected.id),
      headers: institution.admin.headers,
    });
    expect(errorOf(withdraw).message).toBe(D.already_released);
    expect(dataOf<ReviewDecision>(await draft(institution, accepted.id, 'accepted')).state).toBe('accepted');

    // The applicant sees the released decision and nothing of the review.
    const seen = await studentGet(accepted.student, `/applications/${accepted.id}/decision`);
    expect(seen.statusCode).toBe(200);
    const decision = dataOf<StudentDecision>(seen);
    expect(Object.keys(decision).sort()).toEqual(STUDENT_DECISION_KEYS);
    expect(decision).toMatchObject({
      application_id: accepted.id,
      state: 'accepted',
      has_letter: true,
      response: null,
    });
    expect(seen.body).not.toMatch(/automatic|decided_by|notes|score/);
    const list = dataOf<{ items: StudentDecision[] }>(await studentGet(rejected.student, '/decisions')).items;
    expect(list.map((item) => [item.application_id, item.state, item.has_letter])).toEqual([
      [rejected.id, 'rejected', false],
    ]);
    expect((await studentGet(rejected.student, `/applications/${rejected.id}/decision/letter`)).statusCode).toBe(404);

    // Another student's decision does not exist for them.
    const stranger = await signInAs(testApp.app, 'student');
    const foreign = await studentGet(stranger, `/applications/${accepted.id}/decision`);
    expect(foreign.statusCode).toBe(404);
    expect(errorOf(foreign).message).toBe(D.application_not_found);
    expect((await studentGet(stranger, `/applications/${accepted.id}/decision/letter`)).statusCode).toBe(404);
    expect((await respond(stranger, accepted.id, 'accepted')).statusCode).toBe(404);
    expect(dataOf<{ items: StudentDecision[] }>(await studentGet(stranger, '/decisions')).items).toEqual([]);

    const events = await testApp.db
      .select({ actor: reviewEvents.actor_kind })
      .from(reviewEvents)
      .where(and(inArray(reviewEvents.submission_id, ids), eq(reviewEvents.action, 'decision_released')));
    expect(events).toHaveLength(4);
  });

  it('sends one email per applicant when two releases of the same selection race', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const applicants = [await submitted(institution), await submitted(institution)];
    for (const applicant of applicants) await draft(institution, applicant.id, 'rejected');
    const ids = applicants.map((applicant) => applicant.id);
    const results = await Promise.all([release(institution, ids), release(institution, ids)]);
    const counts = results.map((result) => dataOf<DecisionReleaseResult>(result).released).sort();
    expect(counts).toEqual([0, 2]);
    for (const applicant of applicants) {
      expect((await mailsTo(applicant.student.email)).filter((m) => m.template === 'decision_released')).toHaveLength(
        1,
      );
    }
  });

  it('validates the selection', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const none = await release(institution, []);
    expect(none.statusCode).toBe(400);
    const when = await release(institution, ['00000000-0000-4000-8000-000000000000'], 'tomorrow');
    expect(when.statusCode).toBe(400);
  });
});

describe('answering an offer', () => {
  it('accepts an offer once, and refuses rejected and waitlisted decisions', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const offer = await submitted(institution);
    const declined = await submitted(institution);
    const rejected = await submitted(institution);
    const waitlisted = await submitted(institution);
    await draft(institution, offer.id, 'accepted');
    await draft(institution, declined.id, 'accepted');
    await draft(institution, rejected.id, 'rejected');
    await draft(institution, waitlisted.id, 'waitlisted');
    await release(institution, [offer.id, declined.id, rejected.id, waitlisted.id]);

    for (const applicant of [rejected, waitlisted]) {
      const refused = await respond(applicant.student, applicant.id, 'accepted');
      expect(refused.statusCode).toBe(409);
      expect(errorOf(refused).message).toBe(D.not_an_offer);
    }
    expect((await respond(offer.student, offer.id, 'maybe')).statusCode).toBe(400);

    const accepted = await respond(offer.student, offer.id, 'accepted');
    expect(accepted.statusCode).toBe(200);
    const answer = dataOf<StudentDecision>(accepted);
    expect(answer).toMatchObject({ response: 'accepted', response_date: expect.any(String) });
    for (const second of ['accepted', 'declined']) {
      const again = await respond(offer.student, offer.id, second);
      expect(again.statusCode).toBe(409);
      expect(errorOf(again).message).toBe(D.already_responded);
    }
    expect(dataOf<StudentDecision>(await studentGet(offer.student, `/applications/${offer.id}/decision`))).toEqual(
      answer,
    );

    const decline = await respond(declined.student, declined.id, 'declined');
    expect(dataOf<StudentDecision>(decline).response).toBe('declined');
    expect((await respond(declined.student, declined.id, 'accepted')).statusCode).toBe(409);

    const events = await testApp.db
      .select({ action: reviewEvents.action, actor: reviewEvents.actor_kind })
      .from(reviewEvents)
      .where(
        and(
          inArray(reviewEvents.action, ['offer_accepted', 'offer_declined']),
          inArray(reviewEvents.submission_id, [offer.id, declined.id]),
        ),
      );
    expect(events.sort((x, y) => x.action.localeCompare(y.action))).toEqual([
      { action: 'offer_accepted', actor: 'applicant' },
      { action: 'offer_declined', actor: 'applicant' },
    ]);
  });
});

describe('releasing on the decision release date', () => {
  it('schedules for the start of the day in the institution’s time zone, and the job releases it then, once', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    await setTimezone(institution.partnerId, 'Africa/Kigali');
    await testApp.db
      .update(cycles)
      .set({ decision_release_on: '2099-01-15' })
      .where(eq(cycles.id, institution.cycleId));
    const applicant = await submitted(institution);
    const undrafted = await submitted(institution);
    await draft(institution, applicant.id, 'accepted');

    const scheduled = await release(institution, [applicant.id, undrafted.id], 'release_date');
    expect(dataOf<DecisionReleaseResult>(scheduled)).toEqual({ released: 0, scheduled: 1, skipped: 1 });
    const [row] = await testApp.db.select().from(decisions).where(eq(decisions.submission_id, applicant.id));
    // Midnight in Kigali (UTC+2) is 22:00 UTC the day before.
    expect(new Date(row!.release_at!).toISOString()).toBe('2099-01-14T22:00:00.000Z');
    expect(row!.released_at).toBeNull();
    expect((await studentGet(applicant.student, `/applications/${applicant.id}/decision`)).statusCode).toBe(404);
    const view = await draft(institution, applicant.id, 'accepted');
    expect(dataOf<ReviewDecision>(view).release_at).toBe('2099-01-14T22:00:00.000Z');

    expect(await releaseDueDecisions(testApp.db, new Date('2099-01-14T21:59:59.000Z'), TEST_PUBLIC_URL)).toBe(0);
    expect((await studentGet(applicant.student, `/applications/${applicant.id}/decision`)).statusCode).toBe(404);
    expect(await releaseDueDecisions(testApp.db, new Date('2099-01-14T22:00:00.000Z'), TEST_PUBLIC_URL)).toBe(1);
    expect(await releaseDueDecisions(testApp.db, new Date('2099-01-15T08:00:00.000Z'), TEST_PUBLIC_URL)).toBe(0);

    const seen = dataOf<StudentDecision>(await studentGet(applicant.student, `/applications/${applicant.id}/decision`));
    expect(seen).toMatchObject({ state: 'accepted', has_letter: true, released_at: '2099-01-14T22:00:00.000Z' });
    const letter = dataOf<AdmissionLetterIssued>(
      await studentGet(applicant.student, `/applications/${applicant.id}/decision/letter`),
    );
    expect(letter.issued_on).toBe('2099-01-15');
    expect((await mailsTo(applicant.student.email)).filter((m) => m.template === 'decision_released')).toHaveLength(1);
    const [event] = await testApp.db
      .select({ actor: reviewEvents.actor_kind })
      .from(reviewEvents)
      .where(and(eq(reviewEvents.submission_id, applicant.id), eq(reviewEvents.action, 'decision_released')));
    expect(event!.actor).toBe('system');
    const [submission] = await testApp.db.select().from(submissions).where(eq(submissions.id, applicant.id));
    expect(submission!.status).toBe('accepted');
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'releases each due decision once when two api instances run the job at the same time',
    async () => {
      const institution = await readyInstitution(testApp.app, testApp.db);
      await testApp.db
        .update(cycles)
        .set({ decision_release_on: '2098-06-01' })
        .where(eq(cycles.id, institution.cycleId));
      const applicants = [];
      for (let i = 0; i < 6; i += 1) applicants.push(await submitted(institution));
      for (const [i, applicant] of applicants.entries()) {
        await draft(institution, applicant.id, i % 2 === 0 ? 'accepted' : 'rejected');
      }
      const ids = applicants.map((applicant) => applicant.id);
      expect(dataOf<DecisionReleaseResult>(await release(institution, ids, 'release_date')).scheduled).toBe(6);

      const other = await openDatabase({
        kind: 'postgres',
        url: (testApp.database as { url?: string }).url!,
        poolSize: 2,
      });
      try {
        const at = new Date('2098-06-02T00:00:00.000Z');
        const counts = await Promise.all([
          releaseDueDecisions(testApp.db, at, TEST_PUBLIC_URL),
          releaseDueDecisions(other.db, at, TEST_PUBLIC_URL),
        ]);
        expect(counts[0]! + counts[1]!).toBe(6);
      } finally {
        await other.close();
      }
      for (const applicant of applicants) {
        const mails = (await mailsTo(applicant.student.email)).filter((m) => m.template === 'decision_released');
        expect(mails).toHaveLength(1);
      }
      const events = await testApp.db.$count(
        reviewEvents,
        and(inArray(reviewEvents.submission_id, ids), eq(reviewEvents.action, 'decision_released')),
      );
      expect(events).toBe(6);
    },
  );

  it('releases at once when the day has begun, and refuses the whole request when the cycle has no date', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const applicant = await submitted(institution);
    await draft(institution, applicant.id, 'rejected');

    await testApp.db.update(cycles).set({ decision_release_on: null }).where(eq(cycles.id, institution.cycleId));
    const undated = await release(institution, [applicant.id], 'release_date');
    expect(undated.statusCode).toBe(409);
    expect(errorOf(undated)).toMatchObject({ message: D.no_release_date, details: { submission_ids: [applicant.id] } });
    const [untouched] = await testApp.db.select().from(decisions).where(eq(decisions.submission_id, applicant.id));
    expect(untouched).toMatchObject({ release_at: null, released_at: null });

    await testApp.db
      .update(cycles)
      .set({ decision_release_on: '2020-01-01' })
      .where(eq(cycles.id, institution.cycleId));
    const past = await release(institution, [applicant.id], 'release_date');
    expect(dataOf<DecisionReleaseResult>(past)).toEqual({ released: 1, scheduled: 0, skipped: 0 });
    expect(
      dataOf<StudentDecision>(await studentGet(applicant.student, `/applications/${applicant.id}/decision`)).state,
    ).toBe('rejected');
  });
});

describe('waitlisted decisions', () => {
  it('turns a released waitlisted decision into an offer: released at once, with a letter and the waitlist_offer email', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const applicant = await submitted(institution, { language: 'rw' });
    const other = await submitted(institution);
    await draft(institution, applicant.id, 'waitlisted');
    await draft(institution, other.id, 'waitlisted');
    await release(institution, [applicant.id, other.id]);
    const waiting = dataOf<StudentDecision>(
      await studentGet(applicant.student, `/applications/${applicant.id}/decision`),
    );
    expect(waiting).toMatchObject({ state: 'waitlisted', has_letter: false });

    const offered = await draft(institution, applicant.id, 'accepted');
    expect(offered.statusCode).toBe(200);
    const decision = dataOf<ReviewDecision>(offered);
    expect(decision).toMatchObject({ state: 'accepted', released_at: expect.any(String) });
    expect(decision.verification_code).toMatch(VERIFICATION_CODE_PATTERN);

    const mails = await mailsTo(applicant.student.email);
    const offers = mails.filter((mail) => mail.template === 'waitlist_offer');
    expect(offers).toHaveLength(1);
    expect(offers[0]!.language).toBe('rw');
    expect(offers[0]!.subject).toMatch(/^Umwanya wabonetse muri Test Institution/);
    expect(offers[0]!.text).toContain(`/partners/${institution.partnerId}/application/decision`);
    const seen = dataOf<StudentDecision>(await studentGet(applicant.student, `/applications/${applicant.id}/decision`));
    expect(seen).toMatchObject({ state: 'accepted', has_letter: true });
    const letter = dataOf<AdmissionLetterIssued>(
      await studentGet(applicant.student, `/applications/${applicant.id}/decision/letter`),
    );
    expect(letter.paragraphs[0]).toBe('Muraho Test Student,');
    const [submission] = await testApp.db.select().from(submissions).where(eq(submissions.id, applicant.id));
    expect(submission!.status).toBe('accepted');
    // Now an offer like any other: final, and answerable.
    expect((await draft(institution, applicant.id, 'waitlisted')).statusCode).toBe(409);
    expect((await respond(applicant.student, applicant.id, 'accepted')).statusCode).toBe(200);

    const rejected = await draft(institution, other.id, 'rejected');
    expect(dataOf<ReviewDecision>(rejected)).toMatchObject({ state: 'rejected', verification_code: null });
    const otherMails = await mailsTo(other.student.email);
    expect(otherMails.filter((mail) => mail.template === 'decision_released')).toHaveLength(2);
    expect(otherMails.filter((mail) => mail.template === 'waitlist_offer')).toHaveLength(0);
  });
});

describe('the admission letter', () => {
  it('fills the institution’s template, and a later edit of the template never changes it', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    await setLetter(institution.partnerId, {
      template:
        'Dear {student_name},\n\nWelcome to {program_name} at {university_name}, {campus_name} campus, {cycle_name}.\n' +
        'Reference {{reference}}, decided on {decision_date}. {unknown} stays.',
      signature_name: 'Dr. Jane Registrar',
      signature_title: 'Registrar',
      signature_image: 'https://example.org/signature.png',
    });
    const applicant = await submitted(institution);
    await draft(institution, applicant.id, 'accepted');
    await release(institution, [applicant.id]);
    const [submission] = await testApp.db.select().from(submissions).where(eq(submissions.id, applicant.id));
    const [decision] = await testApp.db.select().from(decisions).where(eq(decisions.submission_id, applicant.id));

    const letter = dataOf<AdmissionLetterIssued>(
      await studentGet(applicant.student, `/applications/${applicant.id}/decision/letter`),
    );
    const today = new Date().toISOString().slice(0, 10);
    const longToday = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(`${today}T00:00:00Z`),
    );
    expect(letter).toMatchObject({
      reference: submission!.reference,
      student_name: 'Test Student',
      program_name: decision!.program_name,
      university_name: decision!.university_name,
      issued_on: today,
      signature_name: 'Dr. Jane Registrar',
      signature_title: 'Registrar',
      signature_image: 'https://example.org/signature.png',
      verification_code: decision!.verification_code,
      verify_url: `${TEST_PUBLIC_URL}/letters/${decision!.verification_code}`,
    });
    expect(letter.verification_code).toMatch(VERIFICATION_CODE_PATTERN);
    expect(letter.paragraphs).toEqual([
      'Dear Test Student,',
      `Welcome to ${letter.program_name} at ${letter.university_name}, ${letter.campus_name} campus, ${letter.cycle_name}.\n` +
        `Reference ${submission!.reference}, decided on ${longToday}. {unknown} stays.`,
    ]);
    expect(letter.campus_name).not.toBe('');
    expect(letter.cycle_name).not.toBe('');

    await setLetter(institution.partnerId, {
      template: 'A new text for {student_name}.',
      signature_name: 'Someone Else',
      signature_title: 'Dean',
      signature_image: null,
    });
    const later = dataOf<AdmissionLetterIssued>(
      await studentGet(applicant.student, `/applications/${applicant.id}/decision/letter`),
    );
    expect(later).toEqual(letter);
  });

  it('writes the default letter in the applicant’s language when the template is empty', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const applicant = await submitted(institution, { language: 'fr' });
    await draft(institution, applicant.id, 'accepted');
    await release(institution, [applicant.id]);
    const letter = dataOf<AdmissionLetterIssued>(
      await studentGet(applicant.student, `/applications/${applicant.id}/decision/letter`),
    );
    expect(letter.paragraphs).toHaveLength(4);
    expect(letter.paragraphs[0]).toBe('Bonjour Test Student,');
    expect(letter.paragraphs[1]).toContain(letter.program_name);
    expect(letter.paragraphs[2]).toContain(letter.reference);
    expect(letter.paragraphs.join(' ')).not.toMatch(/\{/);
    expect(letter).toMatchObject({ signature_name: 'Service des admissions', signature_title: letter.university_name });
  });
});

describe('verifying a letter', () => {
  it('confirms a released letter with five facts only, and 404s an unknown code', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const applicant = await submitted(institution);
    await draft(institution, applicant.id, 'accepted');
    await release(institution, [applicant.id]);
    const [decision] = await testApp.db.select().from(decisions).where(eq(decisions.submission_id, applicant.id));
    const code = decision!.verification_code!;

    const verified = await testApp.app.inject({ method: 'GET', url: `/api/v1/letters/${code}` });
    expect(verified.statusCode).toBe(200);
    const facts = dataOf<LetterVerification>(verified);
    expect(facts).toEqual({
      student_name: 'Test Student',
      university_name: decision!.university_name,
      program_name: decision!.program_name,
      state: 'accepted',
      issued_on: decision!.letter!.issued_on,
    });
    // Read off paper in lower case, it still verifies.
    const lower = await testApp.app.inject({ method: 'GET', url: `/api/v1/letters/${code.toLowerCase()}` });
    expect(dataOf<LetterVerification>(lower)).toEqual(facts);

    const unknown = await testApp.app.inject({ method: 'GET', url: '/api/v1/letters/AAAA-BBBB-CCCC' });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).message).toBe(D.letter_not_found);
    const malformed = await testApp.app.inject({ method: 'GET', url: '/api/v1/letters/not-a-code' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).not.toContain(decision!.university_name);
  });

  it('limits verification per address', async () => {
    const remoteAddress = '10.250.1.2';
    let last = 0;
    for (let i = 0; i <= LETTER_VERIFICATION_LIMIT.max; i += 1) {
      last = (await testApp.app.inject({ method: 'GET', url: '/api/v1/letters/AAAA-BBBB-CCCC', remoteAddress }))
        .statusCode;
    }
    expect(last).toBe(429);
    const limited = await testApp.app.inject({ method: 'GET', url: '/api/v1/letters/AAAA-BBBB-CCCC', remoteAddress });
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    const elsewhere = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/letters/AAAA-BBBB-CCCC',
      remoteAddress: '10.250.1.3',
    });
    expect(elsewhere.statusCode).toBe(404);
  });
});

/* ------------------------------------------------------------------ offers with terms (issue 26) */

const DAY = 24 * 60 * 60_000;
/** A day (yyyy-mm-dd) this many days from today, in UTC (the test institutions' time zone). */
const dayFromToday = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

const kcseAtLeastB = { kind: 'exam', requirement: { exam: 'knec_kcse', subjects: [], min_class: 'B' } } as const;

function draftOffer(
  institution: ReadyInstitution,
  submissionId: string,
  terms: Record<string, unknown>,
  member = institution.admin,
) {
  return testApp.app.inject({
    method: 'PUT',
    url: decisionUrl(institution, submissionId),
    headers: member.headers,
    payload: { state: 'accepted', ...terms },
  });
}

function decideConditionsAs(
  institution: ReadyInstitution,
  submissionId: string,
  outcome: string,
  member = institution.admin,
) {
  return testApp.app.inject({
    method: 'POST',
    url: `${decisionUrl(institution, submissionId)}/conditions`,
    headers: member.headers,
    payload: { outcome },
  });
}

async function decisionRow(submissionId: string) {
  const [row] = await testApp.db.select().from(decisions).where(eq(decisions.submission_id, submissionId));
  return row!;
}

/** Moves an offer's deadline as time passing would: the deadline now `ms` away (negative: passed). */
async function deadlineIn(submissionId: string, ms: number) {
  await testApp.db
    .update(decisions)
    .set({ reply_by: new Date(Date.now() + ms).toISOString() })
    .where(eq(decisions.submission_id, submissionId));
}

describe('offers with conditions, a message and a reply deadline', () => {
  it('drafts, releases and shows the terms to the applicant, in the letter too', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { student, id } = await submitted(institution);
    const replyBy = dayFromToday(14);
    const drafted = await draftOffer(institution, id, {
      message: '  Welcome to the class of 2031.  ',
      conditions: [{ kind: 'text', text: 'Send your certified final transcript' }, kcseAtLeastB],
      reply_by: replyBy,
    });
    expect(drafted.statusCode, drafted.body).toBe(200);
    const review = dataOf<ReviewDecision>(drafted);
    expect(review).toMatchObject({
      state: 'accepted',
      message: 'Welcome to the class of 2031.',
      conditions_status: 'pending',
      reply_by_on: replyBy,
      reply_by: new Date(`${dayFromToday(15)}T00:00:00Z`).toISOString(),
      lapsed_at: null,
    });
    // The examination condition against the applicant's results: none in KCSE yet, so each rule unmet.
    expect(review.condition_views[0]).toBeNull();
    expect(review.condition_views[1]).toMatchObject({ exam: 'KCSE', outcome: 'unmet', has_results: false });

    // Unseen until released.
    expect((await studentGet(student, `/applications/${id}/decision`)).statusCode).toBe(404);
    expect(dataOf<DecisionReleaseResult>(await release(institution, [id])).released).toBe(1);

    const seen = dataOf<StudentDecision>(await studentGet(student, `/applications/${id}/decision`));
    expect(seen).toMatchObject({
      message: 'Welcome to the class of 2031.',
      conditions: [{ kind: 'text', text: 'Send your certified final transcript' }, kcseAtLeastB],
      conditions_status: 'pending',
      reply_by_on: replyBy,
      has_letter: true,
    });
    const letter = dataOf<AdmissionLetterIssued>(await studentGet(student, `/applications/${id}/decision/letter`));
    expect(letter.conditions).toEqual([
      'Send your certified final transcript',
      'KCSE: Total points (mean grade): B or better',
    ]);
    expect(letter.reply_by_on).toBe(replyBy);

    // Results added later count: the condition is read on the results as they stand.
    const sitting = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/students/me/exam-sittings',
      headers: student.headers,
      payload: {
        exam: 'knec_kcse',
        year: 2025,
        results: [
          { subject: 'english_language', grade: 'A' },
          { subject: 'kiswahili', grade: 'A-' },
          { subject: 'mathematics', grade: 'B+' },
          { subject: 'biology', grade: 'B' },
          { subject: 'chemistry', grade: 'B+' },
          { subject: 'physics', grade: 'A-' },
          { subject: 'geography', grade: 'B' },
        ],
      },
    });
    expect(sitting.statusCode, sitting.body).toBe(201);
    const after = dataOf<StudentDecision>(await studentGet(student, `/applications/${id}/decision`));
    expect(after.condition_views[1]).toMatchObject({ outcome: 'met', has_results: true });
  });

  it('refuses terms that cannot hold, changing nothing', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { id } = await submitted(institution);
    const refusals: Array<[Record<string, unknown>, number, string, string]> = [
      [{ reply_by: dayFromToday(0) }, 400, D.reply_by_past, 'reply_by'],
      [{ reply_by: '2026-02-30' }, 400, D.reply_by_invalid, 'reply_by'],
      [{ conditions: [{ kind: 'text', text: '   ' }] }, 400, D.condition_required, 'conditions.0.text'],
      [{ conditions: [{ kind: 'text', text: 'x'.repeat(301) }] }, 400, D.condition_too_long, 'conditions.0.text'],
      [{ message: 'x'.repeat(2001) }, 400, D.message_too_long, 'message'],
      [
        { conditions: [{ kind: 'exam', requirement: { exam: 'knec_kcse', subjects: [], min_class: 'Z' } }] },
        400,
        'Choose one of this examination’s classes',
        'conditions.0.requirement.min_class',
      ],
    ];
    for (const [terms, status, message, path] of refusals) {
      const refused = await draftOffer(institution, id, terms);
      expect(refused.statusCode, JSON.stringify(terms)).toBe(status);
      const error = errorOf(refused);
      expect(JSON.stringify(error.details ?? error.message)).toContain(path);
      expect(refused.body).toContain(message);
    }
    const notAnOffer = await testApp.app.inject({
      method: 'PUT',
      url: decisionUrl(institution, id),
      headers: institution.admin.headers,
      payload: { state: 'rejected', reply_by: dayFromToday(10) },
    });
    expect(notAnOffer.statusCode).toBe(400);
    expect(notAnOffer.body).toContain(D.offer_terms_only);
    expect(await testApp.db.$count(decisions, eq(decisions.submission_id, id))).toBe(0);

    // A deadline that would pass before a scheduled release is refused too.
    const [cycle] = await testApp.db
      .select({ id: submissions.cycle_id })
      .from(submissions)
      .where(eq(submissions.id, id));
    await testApp.db
      .update(cycles)
      .set({ decision_release_on: dayFromToday(20) })
      .where(eq(cycles.id, cycle!.id!));
    expect((await draftOffer(institution, id, { reply_by: dayFromToday(10) })).statusCode).toBe(200);
    const scheduled = await release(institution, [id], 'release_date');
    expect(scheduled.statusCode).toBe(409);
    expect(errorOf(scheduled).message).toBe(D.reply_by_before_release);
    expect((await decisionRow(id)).release_at).toBeNull();
    expect((await draftOffer(institution, id, { reply_by: dayFromToday(30) })).statusCode).toBe(200);
    expect(dataOf<DecisionReleaseResult>(await release(institution, [id], 'release_date')).scheduled).toBe(1);
    const moved = await draftOffer(institution, id, { reply_by: dayFromToday(15) });
    expect(moved.statusCode).toBe(400);
    expect(moved.body).toContain(D.reply_by_before_release);
  });

  it('the development clock passes one offer’s deadline and runs the lapse pass; other offers keep theirs', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const moved = await submitted(institution);
    const other = await submitted(institution);
    for (const applicant of [moved, other]) {
      expect((await draftOffer(institution, applicant.id, { reply_by: dayFromToday(7) })).statusCode).toBe(200);
    }
    await release(institution, [moved.id, other.id]);
    const pass = (id: string) => testApp.app.inject({ method: 'POST', url: `/api/v1/dev/offers/${id}/pass-deadline` });
    const answer = await pass(moved.id);
    expect(answer.statusCode).toBe(200);
    expect(dataOf<{ lapsed: number }>(answer).lapsed).toBe(1);
    expect((await decisionRow(moved.id)).lapsed_at).not.toBeNull();
    expect((await decisionRow(other.id)).lapsed_at).toBeNull();
    // Nothing left to move: a lapsed offer, an unknown submission.
    expect((await pass(moved.id)).statusCode).toBe(404);
    expect((await pass(randomUUID())).statusCode).toBe(404);
  });

  it('refuses an answer after the deadline, lapses the offer once and tells the applicant', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const late = await submitted(institution);
    const answered = await submitted(institution);
    for (const applicant of [late, answered]) {
      expect((await draftOffer(institution, applicant.id, { reply_by: dayFromToday(7) })).statusCode).toBe(200);
    }
    await release(institution, [late.id, answered.id]);
    expect((await respond(answered.student, answered.id, 'accepted')).statusCode).toBe(200);
    const { verification_code: code } = await decisionRow(late.id);

    // Time moves past the deadline: the answer is refused at once, before the lapse job has run.
    await deadlineIn(late.id, -60_000);
    await deadlineIn(answered.id, -60_000);
    const refused = await respond(late.student, late.id, 'accepted');
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(D.reply_deadline_passed);
    expect((await decisionRow(late.id)).response).toBeNull();

    expect(await lapseDueOffers(testApp.db, new Date(), TEST_PUBLIC_URL)).toBe(1);
    expect(await lapseDueOffers(testApp.db, new Date(), TEST_PUBLIC_URL)).toBe(0);
    const lapsed = await decisionRow(late.id);
    expect(lapsed.lapsed_at).not.toBeNull();
    expect(lapsed.letter).toBeNull();
    // An answered offer never lapses.
    expect((await decisionRow(answered.id)).lapsed_at).toBeNull();

    const seen = dataOf<StudentDecision>(await studentGet(late.student, `/applications/${late.id}/decision`));
    expect(seen).toMatchObject({ lapsed_at: expect.any(String), has_letter: false, response: null });
    expect((await mailsTo(late.student.email)).filter((mail) => mail.template === 'offer_lapsed')).toHaveLength(1);
    expect((await mailsTo(answered.student.email)).some((mail) => mail.template === 'offer_lapsed')).toBe(false);
    const staffView = dataOf<ReviewDecision>(
      await testApp.app.inject({
        method: 'PUT',
        url: decisionUrl(institution, late.id),
        headers: institution.admin.headers,
        payload: { state: 'accepted' },
      }),
    );
    expect(staffView.lapsed_at).not.toBeNull();
    const events = await testApp.db
      .select({ actor: reviewEvents.actor_kind })
      .from(reviewEvents)
      .where(and(eq(reviewEvents.submission_id, late.id), eq(reviewEvents.action, 'offer_lapsed')));
    expect(events).toEqual([{ actor: 'system' }]);
    // The letter of a lapsed offer no longer verifies.
    const verified = await testApp.app.inject({ method: 'GET', url: `/api/v1/letters/${code}` });
    expect(verified.statusCode).toBe(404);
  });

  it('reminds an unanswered offer 7 days and 1 day before its deadline, once each', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const open = await submitted(institution);
    const answered = await submitted(institution);
    for (const applicant of [open, answered]) {
      await draftOffer(institution, applicant.id, { reply_by: dayFromToday(20) });
    }
    await release(institution, [open.id, answered.id]);
    await respond(answered.student, answered.id, 'declined');
    const reminders = async (email: string) =>
      (await mailsTo(email)).filter((mail) => mail.template === 'offer_reply_reminder');

    expect(await remindOpenOffers(testApp.db, new Date(), TEST_PUBLIC_URL)).toBe(0);
    await deadlineIn(open.id, 5 * DAY);
    await deadlineIn(answered.id, 5 * DAY);
    expect(await remindOpenOffers(testApp.db, new Date(), TEST_PUBLIC_URL)).toBe(1);
    expect(await remindOpenOffers(testApp.db, new Date(), TEST_PUBLIC_URL)).toBe(0);
    const [first] = await reminders(open.student.email);
    expect(first!.subject).toMatch(/^Reply to your offer from Test Institution .* by /);
    await deadlineIn(open.id, 12 * 60 * 60_000);
    expect(await remindOpenOffers(testApp.db, new Date(), TEST_PUBLIC_URL)).toBe(1);
    expect(await remindOpenOffers(testApp.db, new Date(), TEST_PUBLIC_URL)).toBe(0);
    expect(await reminders(open.student.email)).toHaveLength(2);
    expect(await reminders(answered.student.email)).toHaveLength(0);
    expect((await decisionRow(open.id)).reply_reminded_days).toBe(1);
  });

  it('makes an offer unconditional when the conditions are met, and ends it when they are not', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const met = await submitted(institution);
    const unmet = await submitted(institution);
    const plain = await submitted(institution);
    for (const applicant of [met, unmet]) {
      await draftOffer(institution, applicant.id, {
        conditions: [{ kind: 'text', text: 'Pass the final examinations' }],
        reply_by: dayFromToday(10),
      });
    }
    await draft(institution, plain.id, 'accepted');
    await release(institution, [met.id, unmet.id, plain.id]);
    const { verification_code: unmetCode } = await decisionRow(unmet.id);

    // Who may say so: a member who decides, of this institution.
    const reviewer = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['review_applications'],
    });
    expect((await decideConditionsAs(institution, met.id, 'met', reviewer)).statusCode).toBe(403);
    const other = await readyInstitution(testApp.app, testApp.db);
    expect(
      (await decideConditionsAs({ ...institution, admin: other.admin }, met.id, 'met', other.admin)).statusCode,
    ).toBe(404);
    const asStudent = await testApp.app.inject({
      method: 'POST',
      url: `${decisionUrl(institution, met.id)}/conditions`,
      headers: met.student.headers,
      payload: { outcome: 'met' },
    });
    expect(asStudent.statusCode).toBe(403);
    expect((await decideConditionsAs(institution, met.id, 'perhaps')).statusCode).toBe(400);
    expect((await decisionRow(met.id)).conditions_status).toBe('pending');

    // Accepted while conditional, then met: unconditional, the letter issued again without conditions.
    expect((await respond(met.student, met.id, 'accepted')).statusCode).toBe(200);
    const confirmed = await decideConditionsAs(institution, met.id, 'met');
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(dataOf<ReviewDecision>(confirmed)).toMatchObject({ conditions_status: 'met', response: 'accepted' });
    const letter = dataOf<AdmissionLetterIssued>(
      await studentGet(met.student, `/applications/${met.id}/decision/letter`),
    );
    expect(letter.conditions).toEqual([]);
    expect(letter.verification_code).toBe((await decisionRow(met.id)).verification_code);
    expect((await mailsTo(met.student.email)).some((mail) => mail.template === 'offer_conditions_met')).toBe(true);
    const again = await decideConditionsAs(institution, met.id, 'not_met');
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(D.no_pending_conditions);
    expect(errorOf(await decideConditionsAs(institution, plain.id, 'met')).message).toBe(D.no_pending_conditions);

    // Not met: the offer ends, the applicant can no longer accept it, its letter no longer verifies.
    expect((await decideConditionsAs(institution, unmet.id, 'not_met')).statusCode).toBe(200);
    const ended = await respond(unmet.student, unmet.id, 'accepted');
    expect(ended.statusCode).toBe(409);
    expect(errorOf(ended).message).toBe(D.offer_ended);
    const [status] = await testApp.db
      .select({ status: submissions.status })
      .from(submissions)
      .where(eq(submissions.id, unmet.id));
    expect(status!.status).toBe('rejected');
    expect((await testApp.app.inject({ method: 'GET', url: `/api/v1/letters/${unmetCode}` })).statusCode).toBe(404);
    expect((await mailsTo(unmet.student.email)).some((mail) => mail.template === 'offer_conditions_not_met')).toBe(
      true,
    );
    const actions = await testApp.db
      .select({ action: reviewEvents.action })
      .from(reviewEvents)
      .where(inArray(reviewEvents.submission_id, [met.id, unmet.id]));
    expect(actions.map((row) => row.action)).toEqual(
      expect.arrayContaining(['offer_conditions_met', 'offer_conditions_not_met']),
    );
  });

  it('refuses the conditions of a declined or lapsed offer', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const declined = await submitted(institution);
    await draftOffer(institution, declined.id, { conditions: [{ kind: 'text', text: 'Pay the deposit' }] });
    await release(institution, [declined.id]);
    await respond(declined.student, declined.id, 'declined');
    const refused = await decideConditionsAs(institution, declined.id, 'met');
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(D.offer_not_open);
  });
});

describe('releasing at a set moment', () => {
  /** The wall clock in Kigali (UTC+2 all year) at an instant, to the minute. */
  const kigali = (instant: number) => new Date(instant + 2 * 60 * 60_000).toISOString().slice(0, 16);

  it('schedules the selection for a minute on the institution’s clock; the job releases them all together then', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    await setTimezone(institution.partnerId, 'Africa/Kigali');
    const first = await submitted(institution);
    const second = await submitted(institution);
    await draft(institution, first.id, 'accepted');
    await draft(institution, second.id, 'rejected');
    const moment = Math.ceil((Date.now() + 3 * 60 * 60_000) / 60_000) * 60_000;
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/partners/${institution.partnerId}/decisions/release`,
      headers: institution.admin.headers,
      payload: { submission_ids: [first.id, second.id], when: 'at', at: kigali(moment) },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(dataOf<DecisionReleaseResult>(response)).toEqual({ released: 0, scheduled: 2, skipped: 0 });
    // Kigali's 09:00 is 07:00 UTC: the instant is read on the institution's clock.
    expect(Date.parse((await decisionRow(first.id)).release_at!)).toBe(moment);
    expect((await studentGet(first.student, `/applications/${first.id}/decision`)).statusCode).toBe(404);
    // The queue holds one pass for that moment, however often it is asked for.
    const again = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/partners/${institution.partnerId}/decisions/release`,
      headers: institution.admin.headers,
      payload: { submission_ids: [first.id], when: 'at', at: kigali(moment) },
    });
    expect(dataOf<DecisionReleaseResult>(again).scheduled).toBe(1);
    const { rows: passes } = await testApp.db.execute<{ start_after: string }>(
      sql.raw(`select start_after from ${QUEUE_SCHEMA}.job where name = '${RELEASE_AT_JOB}'`),
    );
    expect(passes.map((row) => Date.parse(row.start_after))).toEqual([moment]);

    expect(await releaseDueDecisions(testApp.db, new Date(moment - 1000), TEST_PUBLIC_URL)).toBe(0);
    expect(await releaseDueDecisions(testApp.db, new Date(moment + 1000), TEST_PUBLIC_URL)).toBe(2);
    const rows = await testApp.db
      .select()
      .from(decisions)
      .where(inArray(decisions.submission_id, [first.id, second.id]));
    expect(rows.map((row) => Date.parse(row.released_at!))).toEqual([moment + 1000, moment + 1000]);
    expect((await studentGet(first.student, `/applications/${first.id}/decision`)).statusCode).toBe(200);
    expect((await mailsTo(second.student.email)).filter((mail) => mail.template === 'decision_released')).toHaveLength(
      1,
    );
  });

  it('refuses a moment that is missing, not a real time, past, or after an offer’s deadline, changing nothing', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const { id } = await submitted(institution);
    await draftOffer(institution, id, { reply_by: dayFromToday(3) });
    const releaseAt = (at: unknown) =>
      testApp.app.inject({
        method: 'POST',
        url: `/api/v1/partners/${institution.partnerId}/decisions/release`,
        headers: institution.admin.headers,
        payload: { submission_ids: [id], when: 'at', ...(at === undefined ? {} : { at }) },
      });
    const refusals: Array<[unknown, number, string]> = [
      [undefined, 400, D.release_at_invalid],
      ['tomorrow at nine', 400, D.release_at_invalid],
      ['2027-02-30T09:00', 400, D.release_at_invalid],
      [new Date(Date.now() - 60 * 60_000).toISOString().slice(0, 16), 400, D.release_at_past],
      [`${dayFromToday(5)}T09:00`, 409, D.reply_by_before_release],
    ];
    for (const [at, status, message] of refusals) {
      const refused = await releaseAt(at);
      expect(refused.statusCode, String(at)).toBe(status);
      expect(refused.body).toContain(message);
    }
    expect(await decisionRow(id)).toMatchObject({ release_at: null, released_at: null });
    const scheduled = await releaseAt(`${dayFromToday(2)}T09:00`);
    expect(dataOf<DecisionReleaseResult>(scheduled).scheduled).toBe(1);
  });
});

describe('places', () => {
  const placesUrl = (institution: ReadyInstitution, cycleId: string) =>
    `/api/v1/partners/${institution.partnerId}/cycles/${cycleId}/places`;
  async function cycleOf(submissionId: string) {
    const [row] = await testApp.db
      .select({ cycle_id: submissions.cycle_id })
      .from(submissions)
      .where(eq(submissions.id, submissionId));
    return row!.cycle_id!;
  }
  function setPlacesAs(institution: ReadyInstitution, cycleId: string, places: unknown, member = institution.admin) {
    return testApp.app.inject({
      method: 'PUT',
      url: placesUrl(institution, cycleId),
      headers: member.headers,
      payload: { places: [{ program_id: institution.single.id, campus_id: institution.single.campusId, places }] },
    });
  }
  const placesRow = async (institution: ReadyInstitution, cycleId: string) =>
    dataOf<PlacesRow[]>(
      await testApp.app.inject({
        method: 'GET',
        url: placesUrl(institution, cycleId),
        headers: institution.admin.headers,
      }),
    ).find((row) => row.program_id === institution.single.id && row.campus_id === institution.single.campusId)!;

  it('counts offers against the places set, and refuses offers beyond them unless told to go beyond', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const first = await submitted(institution);
    const second = await submitted(institution);
    const third = await submitted(institution);
    const cycleId = await cycleOf(first.id);
    expect(await placesRow(institution, cycleId)).toMatchObject({ places: null, left: null, drafted: 0 });

    // Who may set them, and what.
    const reviewer = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['make_decisions'],
    });
    expect((await setPlacesAs(institution, cycleId, 1, reviewer)).statusCode).toBe(403);
    const other = await readyInstitution(testApp.app, testApp.db);
    expect((await setPlacesAs({ ...institution, admin: other.admin }, cycleId, 1, other.admin)).statusCode).toBe(404);
    const negative = await setPlacesAs(institution, cycleId, -1);
    expect(negative.statusCode).toBe(400);
    expect(negative.body).toContain(D.places_invalid);
    const stranger = await testApp.app.inject({
      method: 'PUT',
      url: placesUrl(institution, cycleId),
      headers: institution.admin.headers,
      payload: { places: [{ program_id: other.single.id, campus_id: other.single.campusId, places: 3 }] },
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.body).toContain(D.place_unknown);
    expect((await placesRow(institution, cycleId)).places).toBeNull();

    expect((await setPlacesAs(institution, cycleId, 1)).statusCode).toBe(200);
    await draft(institution, first.id, 'accepted');
    await draft(institution, second.id, 'accepted');
    await draft(institution, third.id, 'waitlisted');
    expect(await placesRow(institution, cycleId)).toMatchObject({ places: 1, left: 1, drafted: 2, outstanding: 0 });

    // Two offers for one place: refused, nothing released; released anyway when the member says so.
    const refused = await release(institution, [first.id, second.id, third.id]);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toMatchObject({
      message: D.no_places_left,
      reason: 'no_places_left',
      details: { places: [{ program_id: institution.single.id, left: 1, releasing: 2 }] },
    });
    expect((await decisionRow(first.id)).released_at).toBeNull();
    const beyond = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/partners/${institution.partnerId}/decisions/release`,
      headers: institution.admin.headers,
      payload: { submission_ids: [first.id, second.id, third.id], when: 'now', override_capacity: true },
    });
    expect(dataOf<DecisionReleaseResult>(beyond).released).toBe(3);
    expect(await placesRow(institution, cycleId)).toMatchObject({ outstanding: 2, accepted: 0, left: 0 });

    // An answer moves an offer from outstanding to accepted; a decline gives its place back.
    await respond(first.student, first.id, 'accepted');
    await respond(second.student, second.id, 'declined');
    expect(await placesRow(institution, cycleId)).toMatchObject({ accepted: 1, outstanding: 0, left: 0 });

    // The waitlisted applicant cannot be offered a place while none is left, unless told to go beyond.
    const full = await draft(institution, third.id, 'accepted');
    expect(full.statusCode).toBe(409);
    expect(errorOf(full).message).toBe(D.no_places_left);
    expect((await setPlacesAs(institution, cycleId, 2)).statusCode).toBe(200);
    expect((await draft(institution, third.id, 'accepted')).statusCode).toBe(200);
    expect(await placesRow(institution, cycleId)).toMatchObject({ accepted: 1, outstanding: 1, left: 0 });

    // The application shows where its places stand; removing the limit clears it.
    const application = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${institution.partnerId}/review/submissions/${third.id}`,
      headers: institution.admin.headers,
    });
    expect(dataOf<{ places: unknown }>(application).places).toMatchObject({ places: 2, left: 0 });
    expect((await setPlacesAs(institution, cycleId, null)).statusCode).toBe(200);
    expect(await placesRow(institution, cycleId)).toMatchObject({ places: null, left: null });
  });
});

describe('the waiting list', () => {
  it('is ordered by staff, and proposes its first applicant when an offer is declined', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    const offered = await submitted(institution);
    const first = await submitted(institution);
    const second = await submitted(institution);
    const [{ cycle_id: cycleId }] = (await testApp.db
      .select({ cycle_id: submissions.cycle_id })
      .from(submissions)
      .where(eq(submissions.id, offered.id))) as [{ cycle_id: string }];
    await testApp.app.inject({
      method: 'PUT',
      url: `/api/v1/partners/${institution.partnerId}/cycles/${cycleId}/places`,
      headers: institution.admin.headers,
      payload: { places: [{ program_id: institution.single.id, campus_id: institution.single.campusId, places: 1 }] },
    });
    await draft(institution, offered.id, 'accepted');
    await draft(institution, first.id, 'waitlisted');
    await draft(institution, second.id, 'waitlisted');
    await release(institution, [offered.id, first.id, second.id]);

    const waitlistUrl = `/api/v1/partners/${institution.partnerId}/cycles/${cycleId}/waitlist`;
    const place = `program_id=${institution.single.id}&campus_id=${institution.single.campusId}`;
    const read = async (member = institution.admin) =>
      testApp.app.inject({ method: 'GET', url: `${waitlistUrl}?${place}`, headers: member.headers });
    const order = (ids: string[]) =>
      testApp.app.inject({
        method: 'PUT',
        url: waitlistUrl,
        headers: institution.admin.headers,
        payload: { program_id: institution.single.id, campus_id: institution.single.campusId, submission_ids: ids },
      });
    const reviewer = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['review_applications'],
    });
    expect((await read(reviewer)).statusCode).toBe(403);
    expect(
      dataOf<WaitingListEntry[]>(await read())
        .map((entry) => entry.submission_id)
        .sort(),
    ).toEqual([first.id, second.id].sort());

    // Staff put the second applicant first; a list that misses someone is refused.
    const stale = await order([second.id]);
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).message).toBe(D.waitlist_changed);
    const ordered = dataOf<WaitingListEntry[]>(await order([second.id, first.id]));
    expect(ordered.map((entry) => [entry.submission_id, entry.rank])).toEqual([
      [second.id, 1],
      [first.id, 2],
    ]);

    // The offer is declined: its place opens, and the list's first is proposed, once.
    await respond(offered.student, offered.id, 'declined');
    const after = dataOf<WaitingListEntry[]>(await read());
    expect(after[0]).toMatchObject({ submission_id: second.id, proposed_at: expect.any(String) });
    expect(after[1]).toMatchObject({ submission_id: first.id, proposed_at: null });
    const proposed = await testApp.db
      .select({ actor: reviewEvents.actor_kind })
      .from(reviewEvents)
      .where(and(eq(reviewEvents.submission_id, second.id), eq(reviewEvents.action, 'waitlist_proposed')));
    expect(proposed).toEqual([{ actor: 'system' }]);
    // The decision makers are told in the app, by the application's reference, never pushed.
    const [told] = await testApp.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.user_id, institution.admin.id), eq(notifications.type, 'waitlist_proposed')));
    expect(told).toMatchObject({ link: `/partner/applications/${second.id}`, push: false });
    expect(told!.data).toEqual({ reference: expect.stringMatching(/^KZ-/) });
    const view = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${institution.partnerId}/review/submissions/${second.id}`,
      headers: institution.admin.headers,
    });
    expect(dataOf<{ decision: ReviewDecision }>(view).decision).toMatchObject({
      waitlist_rank: 1,
      proposed_at: expect.any(String),
    });

    // Staff offer the proposed applicant the place: the waitlist offer, within the places.
    expect((await draft(institution, second.id, 'accepted')).statusCode).toBe(200);
    expect((await mailsTo(second.student.email)).some((mail) => mail.template === 'waitlist_offer')).toBe(true);
    expect(dataOf<WaitingListEntry[]>(await read()).map((entry) => entry.submission_id)).toEqual([first.id]);
  });
});
