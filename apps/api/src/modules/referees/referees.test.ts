import { afterAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import {
  ANSWER_MESSAGES,
  REFEREE_MESSAGES as R,
  REFEREE_REMINDER_DAYS,
  type ApplicationDraft,
  type FormSection,
  type Referee,
  type ReferenceRequest,
  type ReviewApplication,
  type ReviewQueuePage,
} from '@kaminuza/shared';
import { emailOutbox, forms, notifications, rateLimits, referees, submissions } from '../../db/schema/index.ts';
import { testEnv, useTestApp } from '../../test/app.ts';
import { openFileStores } from '../../lib/storage/index.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { addDocument, demoAnswers, readyInstitution, type ReadyInstitution } from '../applications/test-helpers.ts';
import { remindReferees } from './referees.service.ts';

// The stored files are the test's to look at: a discarded draft's letters must leave the store.
const stores = openFileStores(testEnv());
const testApp = useTestApp(undefined, { files: stores });
afterAll(() => stores.close());
const SECRET_OF_TESTS = 'kaminuza-development-secret-not-for-production';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** The institution's form with this referees question, in its first section. */
async function withRefereesQuestion(
  institution: ReadyInstitution,
  question: { count?: number; submit_before_letters?: boolean; required?: boolean } = {},
) {
  const [form] = await testApp.db.select().from(forms).where(eq(forms.partner_id, institution.partnerId));
  const sections = form!.sections as FormSection[];
  const referees = {
    id: 'references',
    order: 99,
    type: 'referees' as const,
    label: { en: 'Your referees' },
    help: {},
    required: question.required ?? true,
    count: question.count ?? 2,
    kinds: ['teacher' as const, 'counsellor' as const],
    submit_before_letters: question.submit_before_letters ?? true,
    prompts: [{ en: 'How long have you known the applicant?' }],
  };
  // The demo form's own referees question gives way to this one.
  for (const section of sections) section.questions = section.questions.filter((other) => other.type !== 'referees');
  sections[0]!.questions = [...sections[0]!.questions, referees];
  await testApp.db.update(forms).set({ sections }).where(eq(forms.id, form!.id));
}

async function started(institution: ReadyInstitution, student?: TestAccount) {
  const account = student ?? (await signInAs(testApp.app, 'student'));
  const docs = {
    transcript: await addDocument(testApp.db, account, 'transcript'),
    passport: await addDocument(testApp.db, account, 'passport'),
  };
  const response = await testApp.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${institution.partnerId}/application`,
    headers: account.headers,
    payload: { program_id: institution.single.id },
  });
  return { student: account, draft: (response.json() as { data: ApplicationDraft }).data, docs };
}

const invitation = (overrides: Record<string, unknown> = {}) => ({
  question_id: 'references',
  kind: 'teacher',
  name: 'Grace Uwase',
  title: 'Mathematics teacher',
  organization: 'Lycée de Kigali',
  email: `grace.${Math.random().toString(36).slice(2)}@school.example`,
  phone: '+250 788 000 111',
  waived: true,
  language: 'fr',
  ...overrides,
});

function invite(student: TestAccount, applicationId: string, body: object) {
  return testApp.app.inject({
    method: 'POST',
    url: `/api/v1/applications/${applicationId}/referees`,
    headers: student.headers,
    payload: body,
  });
}

/** The link of the latest email sent to the address. */
async function linkSentTo(email: string): Promise<string> {
  const [row] = await testApp.db
    .select({ data: emailOutbox.data })
    .from(emailOutbox)
    .where(eq(emailOutbox.to, email))
    .orderBy(desc(emailOutbox.created_at))
    .limit(1);
  const link = (row?.data as { link?: string } | undefined)?.link;
  if (!link) throw new Error(`no link was emailed to ${email}`);
  return decodeURIComponent(new URL(link).pathname.replace('/reference/', ''));
}

const open = (token: string) =>
  testApp.app.inject({ method: 'GET', url: `/api/v1/references/${encodeURIComponent(token)}` });
const upload = (token: string, bytes: Buffer, name = 'Lettre%20de%20Grace.pdf') =>
  testApp.app.inject({
    method: 'PUT',
    url: `/api/v1/references/${encodeURIComponent(token)}/letter`,
    headers: { 'content-type': 'application/pdf', 'x-file-name': name },
    payload: bytes,
  });
const send = (token: string, body: object) =>
  testApp.app.inject({ method: 'POST', url: `/api/v1/references/${encodeURIComponent(token)}`, payload: body });

async function listOf(student: TestAccount, applicationId: string): Promise<Referee[]> {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/api/v1/applications/${applicationId}/referees`,
    headers: student.headers,
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { data: Referee[] }).data;
}

describe('referees', () => {
  it('invites a referee by email with a signed link that opens the request, takes a PDF letter and then no more', async () => {
    await testApp.db.delete(rateLimits);
    const institution = await readyInstitution(testApp.app, testApp.db);
    await withRefereesQuestion(institution);
    const { student, draft } = await started(institution);

    const body = invitation();
    const created = await invite(student, draft.id, body);
    expect(created.statusCode).toBe(201);
    const referee = (created.json() as { data: Referee }).data;
    expect(referee).toMatchObject({ status: 'invited', waived: true, phone: '+250788000111', letter: null });
    const [email] = await testApp.db.select().from(emailOutbox).where(eq(emailOutbox.to, body.email));
    expect(email).toMatchObject({ template: 'referee_invitation', language: 'fr' });
    expect((email!.data as { applicant_name?: string }).applicant_name).toBe('Test Student');
    const token = await linkSentTo(body.email);

    const opened = await open(token);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['cache-control']).toBe('no-store');
    const request = (opened.json() as { data: ReferenceRequest }).data;
    expect(request).toMatchObject({
      referee_name: 'Grace Uwase',
      applicant_name: 'Test Student',
      waived: true,
      language: 'fr',
      prompts: [{ en: 'How long have you known the applicant?' }],
      letter_file_name: null,
    });
    // The link reveals nothing else: no address, answers or documents of the applicant.
    expect(JSON.stringify(request)).not.toContain('@');
    expect((await listOf(student, draft.id))[0]!.status).toBe('opened');

    expect((await upload(token, Buffer.from('<html>not a pdf</html>'))).json()).toMatchObject({
      error: { message: R.letter_not_pdf },
    });
    const uploaded = await upload(token, PDF);
    expect(uploaded.statusCode).toBe(200);
    expect(uploaded.json()).toEqual({ data: { file_name: 'Lettre de Grace.pdf' } });

    const unanswered = await send(token, { answers: [' '] });
    expect(unanswered.statusCode).toBe(400);
    expect(unanswered.json()).toMatchObject({ error: { message: R.answer_required } });
    const sent = await send(token, { answers: ['Three years, as her teacher.'] });
    expect(sent.statusCode).toBe(204);

    // Used: the link opens nothing any more, and takes nothing.
    for (const again of [
      await open(token),
      await send(token, { answers: ['x'], letter_text: 'y' }),
      await upload(token, PDF),
    ]) {
      expect(again.statusCode).toBe(410);
      expect(again.json()).toMatchObject({ error: { message: R.link_used, reason: 'reference_link_used' } });
    }

    // The applicant sees it arrived, never the letter they waived.
    const [shown] = await listOf(student, draft.id);
    expect(shown).toMatchObject({ status: 'submitted', letter: null });
    const letter = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/applications/${draft.id}/referees/${referee.id}/letter`,
      headers: student.headers,
    });
    expect(letter.statusCode).toBe(403);
    expect(letter.json()).toMatchObject({ error: { message: R.letter_waived } });
    const [notice] = await testApp.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.user_id, student.id), eq(notifications.type, 'reference_received')));
    expect(notice?.data).toMatchObject({ referee: 'Grace Uwase' });
  });

  it('lets the applicant read a letter they did not waive, typed or uploaded', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    await withRefereesQuestion(institution);
    const { student, draft } = await started(institution);
    const body = invitation({ waived: false, kind: 'counsellor' });
    const referee = ((await invite(student, draft.id, body)).json() as { data: Referee }).data;
    const token = await linkSentTo(body.email);
    expect((await send(token, { answers: ['Two years'] })).json()).toMatchObject({
      error: { message: R.letter_required },
    });
    expect((await upload(token, PDF)).statusCode).toBe(200);
    expect((await send(token, { answers: ['Two years'], letter_text: 'A diligent student.' })).statusCode).toBe(204);
    const [shown] = await listOf(student, draft.id);
    expect(shown!.letter).toEqual({ text: 'A diligent student.', file_name: 'Lettre de Grace.pdf' });
    const file = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/applications/${draft.id}/referees/${referee.id}/letter`,
      headers: student.headers,
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(PDF)).toBe(true);
  });

  it('refuses what the question does not allow, and another student, with nothing written', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    await withRefereesQuestion(institution, { count: 1 });
    const { student, draft } = await started(institution);
    const other = await signInAs(testApp.app, 'student');

    const stranger = await invite(other, draft.id, invitation());
    expect(stranger.statusCode).toBe(404);
    const listed = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/applications/${draft.id}/referees`,
      headers: other.headers,
    });
    expect(listed.statusCode).toBe(404);
    const staff = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/applications/${draft.id}/referees`,
      headers: institution.admin.headers,
    });
    expect(staff.statusCode).toBe(403);

    const cases: Array<[object, number, string]> = [
      [invitation({ kind: 'employer' }), 400, R.kind_not_accepted],
      [invitation({ question_id: 'why_programme' }), 400, R.question_not_referees],
      [invitation({ email: student.email.toUpperCase() }), 400, R.referee_is_you],
      [invitation({ name: ' ' }), 400, R.name_required],
      [invitation({ phone: '0788' }), 400, ANSWER_MESSAGES.phone_invalid],
    ];
    for (const [body, status, message] of cases) {
      const response = await invite(student, draft.id, body);
      expect(response.statusCode, message).toBe(status);
      expect(JSON.stringify(response.json())).toContain(message);
    }
    expect(await testApp.db.select().from(referees).where(eq(referees.application_id, draft.id))).toHaveLength(0);

    const first = invitation();
    expect((await invite(student, draft.id, first)).statusCode).toBe(201);
    const full = await invite(student, draft.id, invitation());
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ error: { message: R.referees_full } });
  });

  it('refuses a link that was tampered with, replaced or expired; and sending again at most once an hour', async () => {
    await testApp.db.delete(rateLimits);
    const institution = await readyInstitution(testApp.app, testApp.db);
    await withRefereesQuestion(institution);
    const { student, draft } = await started(institution);
    const body = invitation();
    const referee = ((await invite(student, draft.id, body)).json() as { data: Referee }).data;
    const token = await linkSentTo(body.email);

    const [id, version, signature] = token.split('.');
    for (const forged of [
      `${id}.${Number(version) + 1}.${signature}`,
      `${id}.${version}.${'A'.repeat(43)}`,
      'not-a-token-at-all',
    ]) {
      const response = await open(forged);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: { message: R.link_invalid } });
    }

    const tooSoon = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/applications/${draft.id}/referees/${referee.id}/resend`,
      headers: student.headers,
    });
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.headers['retry-after']).toBeDefined();

    await testApp.db
      .update(referees)
      .set({ expires_at: sql`now() - interval '1 minute'`, last_sent_at: sql`now() - interval '2 hours'` })
      .where(eq(referees.id, referee.id));
    const expired = await open(token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ error: { message: R.link_expired, reason: 'reference_link_expired' } });
    expect((await listOf(student, draft.id))[0]!.expired).toBe(true);

    // Sent again: the same link works for 30 more days.
    const resent = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/applications/${draft.id}/referees/${referee.id}/resend`,
      headers: student.headers,
    });
    expect(resent.statusCode).toBe(200);
    expect((await linkSentTo(body.email)) === token).toBe(true);
    expect((await open(token)).statusCode).toBe(200);
  });

  it('limits requests to links per address', async () => {
    await testApp.db.delete(rateLimits);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1) statuses.push((await open(`x${i}.1.${'B'.repeat(43)}`)).statusCode);
    expect(statuses.slice(0, 60).every((status) => status === 404)).toBe(true);
    expect(statuses[60]).toBe(429);
    await testApp.db.delete(rateLimits);
  });

  it('submits with the invited referees as the answer; letters first when the form says so; staff read every letter', async () => {
    await testApp.db.delete(rateLimits);
    const institution = await readyInstitution(testApp.app, testApp.db);
    await withRefereesQuestion(institution, { submit_before_letters: false });
    const { student, draft, docs } = await started(institution);
    const submit = () =>
      testApp.app.inject({
        method: 'POST',
        url: `/api/v1/applications/${draft.id}/submit`,
        headers: student.headers,
        payload: { version: 1, answers: demoAnswers({ ...docs, references: [] }) },
      });

    const none = await submit();
    expect(none.statusCode).toBe(400);
    expect(JSON.stringify(none.json())).toContain(ANSWER_MESSAGES.required);

    const waived = invitation();
    const open1 = invitation({ waived: false, kind: 'counsellor' });
    const first = ((await invite(student, draft.id, waived)).json() as { data: Referee }).data;
    const second = ((await invite(student, draft.id, open1)).json() as { data: Referee }).data;
    const early = await submit();
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: { message: R.letters_missing, reason: 'letters_missing' } });

    const token = await linkSentTo(waived.email);
    await upload(token, PDF);
    await send(token, { answers: ['Four years'] });
    expect((await submit()).statusCode).toBe(409);
    await send(await linkSentTo(open1.email), { answers: ['One year'], letter_text: 'Reliable and kind.' });
    const submitted = await submit();
    expect(submitted.statusCode).toBe(201);
    const [row] = await testApp.db.select().from(submissions).where(eq(submissions.id, draft.id));
    expect(row!.answers.references).toEqual([first.id, second.id]);

    // The applicant can no longer change them.
    expect((await invite(student, draft.id, invitation())).json()).toMatchObject({
      error: { message: R.application_submitted },
    });
    const removal = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/v1/applications/${draft.id}/referees/${second.id}`,
      headers: student.headers,
    });
    expect(removal.statusCode).toBe(409);

    const staffView = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${institution.partnerId}/review/submissions/${draft.id}`,
      headers: institution.admin.headers,
    });
    const application = (staffView.json() as { data: ReviewApplication }).data;
    expect(application.referees).toHaveLength(2);
    expect(application.referees![0]).toMatchObject({
      waived: true,
      status: 'submitted',
      answers: [{ prompt: { en: 'How long have you known the applicant?' }, answer: 'Four years' }],
      letter: { text: null, file_name: 'Lettre de Grace.pdf' },
    });
    const letter = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${institution.partnerId}/review/submissions/${draft.id}/referees/${first.id}/letter`,
      headers: institution.admin.headers,
    });
    expect(letter.statusCode).toBe(200);
    expect(letter.rawPayload.equals(PDF)).toBe(true);
    const queue = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${institution.partnerId}/review/submissions`,
      headers: institution.admin.headers,
    });
    const queued = (queue.json() as { data: ReviewQueuePage }).data.items.find((item) => item.id === draft.id);
    expect(queued?.letters).toEqual({ received: 2, invited: 2 });

    // Staff of another institution read nothing of it.
    const elsewhere = await readyInstitution(testApp.app, testApp.db);
    const denied = await testApp.app.inject({
      method: 'GET',
      url: `/api/v1/partners/${elsewhere.partnerId}/review/submissions/${draft.id}/referees/${first.id}/letter`,
      headers: elsewhere.admin.headers,
    });
    expect(denied.statusCode).toBe(404);
  });

  it('lets the application go before the letters when the form allows it; removes a referee before submitting', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    await withRefereesQuestion(institution, { count: 1 });
    const { student, draft, docs } = await started(institution);
    const wrong = ((await invite(student, draft.id, invitation())).json() as { data: Referee }).data;
    const removed = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/v1/applications/${draft.id}/referees/${wrong.id}`,
      headers: student.headers,
    });
    expect(removed.statusCode).toBe(204);
    const right = ((await invite(student, draft.id, invitation())).json() as { data: Referee }).data;
    const submitted = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/applications/${draft.id}/submit`,
      headers: student.headers,
      // Whatever the draft held, the answer is the referees invited.
      payload: { version: 1, answers: demoAnswers({ ...docs, references: [wrong.id] }) },
    });
    expect(submitted.statusCode).toBe(201);
    const [row] = await testApp.db.select().from(submissions).where(eq(submissions.id, draft.id));
    expect(row!.answers.references).toEqual([right.id]);
  });

  it('removes the stored letters of a discarded draft with it', async () => {
    await testApp.db.delete(rateLimits);
    const institution = await readyInstitution(testApp.app, testApp.db);
    await withRefereesQuestion(institution);
    const { student, draft } = await started(institution);
    const body = invitation();
    const referee = ((await invite(student, draft.id, body)).json() as { data: Referee }).data;
    expect((await upload(await linkSentTo(body.email), PDF)).statusCode).toBe(200);
    const [row] = await testApp.db.select().from(referees).where(eq(referees.id, referee.id));
    expect(await stores.storage.exists(row!.letter_storage_key!)).toBe(true);
    const discarded = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/v1/applications/${draft.id}`,
      headers: student.headers,
    });
    expect(discarded.statusCode).toBe(204);
    expect(await testApp.db.select().from(referees).where(eq(referees.id, referee.id))).toHaveLength(0);
    expect(await stores.storage.exists(row!.letter_storage_key!)).toBe(false);
  });

  it('reminds a referee on the set days after the invitation, once each, while the letter is awaited', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db);
    await withRefereesQuestion(institution);
    const { student, draft } = await started(institution);
    const body = invitation();
    const referee = ((await invite(student, draft.id, body)).json() as { data: Referee }).data;
    const deps = { db: testApp.db, publicUrl: 'http://localhost:3000', secret: SECRET_OF_TESTS };
    const reminders = async () =>
      (await testApp.db.select().from(emailOutbox).where(eq(emailOutbox.to, body.email))).filter(
        (email) => email.template === 'referee_reminder',
      ).length;

    const invitedAt = Date.now();
    await remindReferees(deps, new Date(invitedAt + 2 * 86_400_000), REFEREE_REMINDER_DAYS);
    expect(await reminders()).toBe(0);
    await remindReferees(deps, new Date(invitedAt + 3 * 86_400_000 + 60_000), REFEREE_REMINDER_DAYS);
    await remindReferees(deps, new Date(invitedAt + 3 * 86_400_000 + 120_000), REFEREE_REMINDER_DAYS);
    expect(await reminders()).toBe(1);
    await remindReferees(deps, new Date(invitedAt + 7 * 86_400_000 + 60_000), REFEREE_REMINDER_DAYS);
    expect(await reminders()).toBe(2);
    // The reminder carries the same link, which still opens the request.
    const token = await linkSentTo(body.email);
    expect(token.startsWith(`${referee.id}.1.`)).toBe(true);

    await testApp.db
      .update(referees)
      .set({ submitted_at: sql`now()` })
      .where(eq(referees.id, referee.id));
    await remindReferees(deps, new Date(invitedAt + 14 * 86_400_000 + 60_000), REFEREE_REMINDER_DAYS);
    expect(await reminders()).toBe(2);
  });
});
