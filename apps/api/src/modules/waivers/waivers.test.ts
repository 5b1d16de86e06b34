import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  APPLICATION_MESSAGES,
  PAYMENT_MESSAGES,
  WAIVER_CODE_PATTERN,
  WAIVER_MESSAGES as W,
  type ApplicationDraft,
  type FeeWaiver,
  type ReviewApplication,
  type StaffFeeWaiver,
  type SubmissionReceipt,
  type WaiverCode,
} from '@kaminuza/shared';
import {
  accountDeletions,
  cycles,
  emailOutbox,
  feeWaiverCodes,
  notifications,
  students,
  userPreferences,
} from '../../db/schema/index.ts';
import { openFileStores } from '../../lib/storage/index.ts';
import { testEnv, useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import {
  addDocument,
  demoAnswers,
  markPaid,
  readyInstitution,
  type ReadyInstitution,
} from '../applications/test-helpers.ts';
import { runDueDeletions } from '../account-data/deletion.service.ts';

const testApp = useTestApp();

type ErrorAnswer = { error: { status: string; message: string; reason?: string } };
const data = <T>(response: { json(): unknown }) => (response.json() as { data: T }).data;
const error = (response: { json(): unknown }) => (response.json() as ErrorAnswer).error;

function call(account: TestAccount, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  return testApp.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: account.headers,
    ...(payload ? { payload } : {}),
  });
}

const documentsOf = new Map<string, { transcript: string; passport: string }>();

/** A student with the demo form's two documents and an in-progress application to the institution. */
async function applicant(institution: ReadyInstitution) {
  const student = await signInAs(testApp.app, 'student');
  documentsOf.set(student.id, {
    transcript: await addDocument(testApp.db, student, 'transcript'),
    passport: await addDocument(testApp.db, student, 'passport'),
  });
  const response = await call(student, 'POST', `/partners/${institution.partnerId}/application`, {
    program_id: institution.single.id,
  });
  expect(response.statusCode).toBe(201);
  return { student, draft: data<ApplicationDraft>(response) };
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function issueCode(institution: ReadyInstitution, input: Partial<{ max_uses: number; expires_on: string }> = {}) {
  const response = await call(institution.admin, 'POST', `/partners/${institution.partnerId}/waiver-codes`, {
    cycle_id: institution.cycleId,
    max_uses: input.max_uses ?? 5,
    expires_on: input.expires_on ?? inDays(30),
    label: 'Scholarship fair',
  });
  expect(response.statusCode).toBe(201);
  return data<WaiverCode>(response);
}

const redeem = (student: TestAccount, applicationId: string, code: string) =>
  call(student, 'POST', `/applications/${applicationId}/waiver/code`, { code });

const ask = (student: TestAccount, applicationId: string, payload: object) =>
  call(student, 'POST', `/applications/${applicationId}/waiver/request`, payload);

const REASON = 'My family lost its income this year and cannot pay the fee.';

describe('waiver codes', () => {
  it('are issued readable, listed with their usage and revoked by staff with manage_finance', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const code = await issueCode(institution, { max_uses: 3 });
    expect(code.code).toMatch(WAIVER_CODE_PATTERN);
    expect(code).toMatchObject({ max_uses: 3, used_count: 0, state: 'usable', label: 'Scholarship fair' });

    const { student, draft } = await applicant(institution);
    // Case, spaces and dashes do not matter.
    const typed = code.code.toLowerCase().replaceAll('-', ' ');
    const redeemed = await redeem(student, draft.id, typed);
    expect(redeemed.statusCode).toBe(201);
    expect(data<FeeWaiver>(redeemed)).toMatchObject({ kind: 'code', status: 'approved' });

    const list = await call(institution.admin, 'GET', `/partners/${institution.partnerId}/waiver-codes`);
    expect(data<WaiverCode[]>(list)).toEqual([expect.objectContaining({ id: code.id, used_count: 1 })]);

    const revoked = await call(
      institution.admin,
      'POST',
      `/partners/${institution.partnerId}/waiver-codes/${code.id}/revoke`,
    );
    expect(data<WaiverCode>(revoked).state).toBe('revoked');
    const other = await applicant(institution);
    const refused = await redeem(other.student, other.draft.id, code.code);
    expect(refused.statusCode).toBe(400);
    expect(error(refused).message).toBe(W.code_revoked);
    // The waiver it granted stands.
    const own = await call(student, 'GET', `/applications/${draft.id}/waiver`);
    expect(data<FeeWaiver>(own).status).toBe('approved');
  });

  it('refuses bad input: uses out of range, a past expiry, another institution’s cycle', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const url = `/partners/${institution.partnerId}/waiver-codes`;
    const base = { cycle_id: institution.cycleId, max_uses: 5, expires_on: inDays(10) };
    for (const payload of [
      { ...base, max_uses: 0 },
      { ...base, max_uses: 10001 },
      { ...base, expires_on: inDays(-2) },
      { ...base, cycle_id: randomUUID() },
    ]) {
      const response = await call(institution.admin, 'POST', url, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const maximum = await call(institution.admin, 'POST', url, { ...base, max_uses: 10000 });
    expect(maximum.statusCode).toBe(201);
  });

  it('20 concurrent redemptions of a 5-use code give exactly 5 waivers', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const code = await issueCode(institution, { max_uses: 5 });
    const applicants = await Promise.all(Array.from({ length: 20 }, () => applicant(institution)));
    const answers = await Promise.all(applicants.map(({ student, draft }) => redeem(student, draft.id, code.code)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.statusCode !== 201);
    expect(refused).toHaveLength(15);
    for (const answer of refused) {
      expect(answer.statusCode).toBe(400);
      expect(error(answer).message).toBe(W.code_used_up);
    }
    const [row] = await testApp.db.select().from(feeWaiverCodes).where(eq(feeWaiverCodes.id, code.id));
    expect(row!.used_count).toBe(5);
    const waivers = await call(
      institution.admin,
      'GET',
      `/partners/${institution.partnerId}/fee-waivers?status=approved`,
    );
    expect(data<StaffFeeWaiver[]>(waivers)).toHaveLength(5);
  });

  it('answers each refusal clearly: unknown, malformed, expired, used up, other cycle', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const { student, draft } = await applicant(institution);
    const expect400 = async (code: string, message: string) => {
      const response = await redeem(student, draft.id, code);
      expect(response.statusCode, message).toBe(400);
      expect(error(response).message).toBe(message);
    };
    await expect400('ABCD-EFGH-JKLM', W.code_unknown);
    await expect400('not a code', W.code_format);

    const expired = await issueCode(institution);
    await testApp.db
      .update(feeWaiverCodes)
      .set({ expires_on: inDays(-3) })
      .where(eq(feeWaiverCodes.id, expired.id));
    await expect400(expired.code, W.code_expired);

    const single = await issueCode(institution, { max_uses: 1 });
    const first = await applicant(institution);
    expect((await redeem(first.student, first.draft.id, single.code)).statusCode).toBe(201);
    await expect400(single.code, W.code_used_up);

    const otherCycle = await issueCode(institution);
    const [cycle] = await testApp.db
      .insert(cycles)
      .values({
        partner_id: institution.partnerId,
        name: 'Next intake',
        opens_on: inDays(100),
        closes_on: inDays(200),
        status: 'draft',
      })
      .returning({ id: cycles.id });
    await testApp.db.update(feeWaiverCodes).set({ cycle_id: cycle!.id }).where(eq(feeWaiverCodes.id, otherCycle.id));
    await expect400(otherCycle.code, W.code_other_cycle);

    // Another institution's code is unknown here.
    const elsewhere = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const foreign = await issueCode(elsewhere);
    await expect400(foreign.code, W.code_unknown);

    // Nothing was taken by the refusals.
    const [row] = await testApp.db.select().from(feeWaiverCodes).where(eq(feeWaiverCodes.id, expired.id));
    expect(row!.used_count).toBe(0);
  });

  it('cannot waive a paid fee, nor be redeemed twice', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const code = await issueCode(institution);
    const { student, draft } = await applicant(institution);
    await markPaid(testApp.db, draft);
    const paid = await redeem(student, draft.id, code.code);
    expect(paid.statusCode).toBe(409);
    expect(error(paid)).toMatchObject({ message: PAYMENT_MESSAGES.already_paid, reason: 'already_paid' });

    const other = await applicant(institution);
    expect((await redeem(other.student, other.draft.id, code.code)).statusCode).toBe(201);
    const again = await redeem(other.student, other.draft.id, code.code);
    expect(again.statusCode).toBe(409);
    expect(error(again).message).toBe(W.already_waived);
  });
});

const usesOf = async (codeId: string) => {
  const [row] = await testApp.db.select().from(feeWaiverCodes).where(eq(feeWaiverCodes.id, codeId));
  return row!.used_count;
};

/** Runs the account's deletion now, as the deletion job does once its grace period is over. */
async function deleteAccountNow(account: TestAccount) {
  await testApp.db.insert(accountDeletions).values({ user_id: account.id, scheduled_for: new Date(0).toISOString() });
  expect(await runDueDeletions(testApp.db, openFileStores(testEnv()).storage)).toBe(1);
}

describe('a code’s use given back', () => {
  it('when the application it waived is discarded unsubmitted: the code serves someone else', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const code = await issueCode(institution, { max_uses: 1 });
    const first = await applicant(institution);
    expect((await redeem(first.student, first.draft.id, code.code)).statusCode).toBe(201);
    expect(await usesOf(code.id)).toBe(1);

    const discarded = await call(first.student, 'DELETE', `/applications/${first.draft.id}`);
    expect(discarded.statusCode).toBe(204);
    expect(await usesOf(code.id)).toBe(0);

    const second = await applicant(institution);
    expect((await redeem(second.student, second.draft.id, code.code)).statusCode).toBe(201);
    expect(await usesOf(code.id)).toBe(1);
  });

  it('not when the discard is refused, nor for another student’s attempt', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const code = await issueCode(institution, { max_uses: 2 });
    const { student, draft } = await applicant(institution);
    expect((await redeem(student, draft.id, code.code)).statusCode).toBe(201);
    const intruder = await signInAs(testApp.app, 'student');
    expect((await call(intruder, 'DELETE', `/applications/${draft.id}`)).statusCode).toBe(404);
    expect(await usesOf(code.id)).toBe(1);
    // A request waiver (no code) discarded with its application takes nothing from any code.
    const other = await applicant(institution);
    expect((await ask(other.student, other.draft.id, { reason: REASON })).statusCode).toBe(201);
    expect((await call(other.student, 'DELETE', `/applications/${other.draft.id}`)).statusCode).toBe(204);
    expect(await usesOf(code.id)).toBe(1);
  });

  it('when the applicant’s account is deleted with the application unsubmitted, not for a submitted one', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const code = await issueCode(institution, { max_uses: 5 });
    const unsubmitted = await applicant(institution);
    const submitted = await applicant(institution);
    for (const { student, draft } of [unsubmitted, submitted]) {
      expect((await redeem(student, draft.id, code.code)).statusCode).toBe(201);
    }
    const body = { version: 1, answers: demoAnswers(documentsOf.get(submitted.student.id)) };
    expect((await call(submitted.student, 'POST', `/applications/${submitted.draft.id}/submit`, body)).statusCode).toBe(
      201,
    );
    expect(await usesOf(code.id)).toBe(2);

    await deleteAccountNow(submitted.student);
    expect(await usesOf(code.id)).toBe(2);
    await deleteAccountNow(unsubmitted.student);
    expect(await usesOf(code.id)).toBe(1);
  });
});

describe('access', () => {
  it('staff without manage_finance are refused, another institution’s staff get 404', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const reviewer = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['review_applications'],
    });
    const finance = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['manage_finance'],
    });
    const outsider = await signInAs(testApp.app, 'staff');
    const url = `/partners/${institution.partnerId}/waiver-codes`;
    expect((await call(reviewer, 'GET', url)).statusCode).toBe(403);
    expect((await call(reviewer, 'GET', `/partners/${institution.partnerId}/fee-waivers`)).statusCode).toBe(403);
    expect((await call(outsider, 'GET', url)).statusCode).toBe(404);
    expect((await call(finance, 'GET', url)).statusCode).toBe(200);

    const code = await issueCode(institution);
    const { student, draft } = await applicant(institution);
    const request = await ask(student, draft.id, { reason: REASON });
    const waiver = data<FeeWaiver>(request);
    const outsiderApprove = await call(
      outsider,
      'POST',
      `/partners/${outsider.partnerId}/fee-waivers/${waiver.id}/approve`,
    );
    expect(outsiderApprove.statusCode).toBe(404);
    const outsiderRevoke = await call(
      outsider,
      'POST',
      `/partners/${outsider.partnerId}/waiver-codes/${code.id}/revoke`,
    );
    expect(outsiderRevoke.statusCode).toBe(404);
    expect(
      (await call(reviewer, 'POST', `/partners/${institution.partnerId}/fee-waivers/${waiver.id}/approve`)).statusCode,
    ).toBe(403);
  });

  it('another student’s application is 404 for every applicant route', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const code = await issueCode(institution);
    const { draft } = await applicant(institution);
    const intruder = await signInAs(testApp.app, 'student');
    expect((await call(intruder, 'GET', `/applications/${draft.id}/waiver`)).statusCode).toBe(404);
    expect((await redeem(intruder, draft.id, code.code)).statusCode).toBe(404);
    expect((await ask(intruder, draft.id, { reason: REASON })).statusCode).toBe(404);
    const staff = await signInAs(testApp.app, 'staff', { partnerId: institution.partnerId });
    expect((await call(staff, 'GET', `/applications/${draft.id}/waiver`)).statusCode).toBe(403);
    const [row] = await testApp.db.select().from(feeWaiverCodes).where(eq(feeWaiverCodes.id, code.id));
    expect(row!.used_count).toBe(0);
  });
});

describe('waiver requests', () => {
  it('are asked with a reason and one’s own document, declined with a reason, asked again and approved', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const { student, draft } = await applicant(institution);
    const none = await call(student, 'GET', `/applications/${draft.id}/waiver`);
    expect(data<FeeWaiver | null>(none)).toBeNull();

    expect((await ask(student, draft.id, { reason: 'too short' })).statusCode).toBe(400);
    const stranger = await signInAs(testApp.app, 'student');
    const strangersDocument = await addDocument(testApp.db, stranger, 'passport');
    const foreign = await ask(student, draft.id, { reason: REASON, document_id: strangersDocument });
    expect(foreign.statusCode).toBe(400);
    expect(error(foreign).message).toBe(W.document_invalid);

    const documentId = documentsOf.get(student.id)!.transcript;
    const asked = await ask(student, draft.id, { reason: REASON, document_id: documentId });
    expect(asked.statusCode).toBe(201);
    expect(data<FeeWaiver>(asked)).toMatchObject({ kind: 'request', status: 'requested', document_id: documentId });
    const twice = await ask(student, draft.id, { reason: REASON });
    expect(twice.statusCode).toBe(409);
    expect(error(twice).message).toBe(W.request_pending);

    const base = `/partners/${institution.partnerId}/fee-waivers`;
    const listed = data<StaffFeeWaiver[]>(await call(institution.admin, 'GET', `${base}?status=requested`));
    expect(listed).toEqual([
      expect.objectContaining({
        application_id: draft.id,
        reason: REASON,
        document: expect.objectContaining({ id: documentId, type: 'transcript' }),
      }),
    ]);
    const waiverId = listed[0]!.id;
    const file = await call(institution.admin, 'GET', `${base}/${waiverId}/document`);
    // The test document has no stored bytes: the route finds it and the storage answers it is missing.
    expect([200, 404]).toContain(file.statusCode);

    expect((await call(institution.admin, 'POST', `${base}/${waiverId}/decline`, { reason: ' ' })).statusCode).toBe(
      400,
    );
    const declined = await call(institution.admin, 'POST', `${base}/${waiverId}/decline`, {
      reason: 'Please attach a letter from your school.',
    });
    expect(data<StaffFeeWaiver>(declined)).toMatchObject({
      status: 'declined',
      decline_reason: 'Please attach a letter from your school.',
    });
    const decidedTwice = await call(institution.admin, 'POST', `${base}/${waiverId}/approve`);
    expect(decidedTwice.statusCode).toBe(409);
    expect(error(decidedTwice).message).toBe(W.not_requested);
    const seen = data<FeeWaiver>(await call(student, 'GET', `/applications/${draft.id}/waiver`));
    expect(seen).toMatchObject({ status: 'declined', decline_reason: 'Please attach a letter from your school.' });

    const again = await ask(student, draft.id, { reason: `${REASON} Here is the letter.` });
    expect(again.statusCode).toBe(201);
    expect(data<FeeWaiver>(again)).toMatchObject({ id: waiverId, status: 'requested', decline_reason: null });
    const approved = await call(institution.admin, 'POST', `${base}/${waiverId}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(data<StaffFeeWaiver>(approved).status).toBe('approved');

    const told = await testApp.db
      .select({ type: notifications.type, data: notifications.data })
      .from(notifications)
      .where(eq(notifications.user_id, student.id));
    expect(told.map((row) => row.type).sort()).toEqual(['fee_waiver_approved', 'fee_waiver_declined']);
    expect(told.find((row) => row.type === 'fee_waiver_declined')!.data).toMatchObject({
      reason: 'Please attach a letter from your school.',
    });
  });

  it('email the decision to the applicant in their language, and to no one else', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const { student, draft } = await applicant(institution);
    const bystander = await applicant(institution);
    await testApp.db.update(students).set({ language: 'fr' }).where(eq(students.user_id, student.id));
    const feeEmails = (to: string) =>
      testApp.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.to, to), like(emailOutbox.template, 'fee_waiver_%')));
    const base = `/partners/${institution.partnerId}/fee-waivers`;
    expect((await ask(bystander.student, bystander.draft.id, { reason: REASON })).statusCode).toBe(201);

    const first = data<FeeWaiver>(await ask(student, draft.id, { reason: REASON }));
    const reason = 'Joignez une lettre de votre école.';
    expect((await call(institution.admin, 'POST', `${base}/${first.id}/decline`, { reason })).statusCode).toBe(200);
    const [declined] = await feeEmails(student.email);
    expect(declined).toMatchObject({ template: 'fee_waiver_declined', language: 'fr', from: 'info' });
    expect(declined!.subject).toContain('a refusé votre demande d’exonération');
    expect(declined!.text).toContain(`Motif indiqué : ${reason}`);
    expect(declined!.text).toContain(`/partners/${institution.partnerId}/application/form`);

    expect((await ask(student, draft.id, { reason: `${REASON} Here is the letter.` })).statusCode).toBe(201);
    expect((await call(institution.admin, 'POST', `${base}/${first.id}/approve`)).statusCode).toBe(200);
    const emails = await feeEmails(student.email);
    expect(emails.map((email) => email.template).sort()).toEqual(['fee_waiver_approved', 'fee_waiver_declined']);
    const approved = emails.find((email) => email.template === 'fee_waiver_approved')!;
    expect(approved.subject).toContain('a exonéré vos frais de candidature');
    expect(approved.text).toContain('Vous pouvez soumettre votre candidature sans payer.');

    // The other applicant's request is still waiting: nothing was sent to them.
    expect(await feeEmails(bystander.student.email)).toEqual([]);
    // A refused decision sends nothing either.
    expect((await call(institution.admin, 'POST', `${base}/${first.id}/approve`)).statusCode).toBe(409);
    expect(await feeEmails(student.email)).toHaveLength(2);
  });

  it('tell an applicant who takes no application emails in the app only', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const { student, draft } = await applicant(institution);
    await testApp.db
      .insert(userPreferences)
      .values({ user_id: student.id, email_application_updates: false })
      .onConflictDoUpdate({ target: userPreferences.user_id, set: { email_application_updates: false } });
    const waiver = data<FeeWaiver>(await ask(student, draft.id, { reason: REASON }));
    const approved = await call(
      institution.admin,
      'POST',
      `/partners/${institution.partnerId}/fee-waivers/${waiver.id}/approve`,
    );
    expect(approved.statusCode).toBe(200);
    const told = await testApp.db.select().from(notifications).where(eq(notifications.user_id, student.id));
    expect(told.map((row) => row.type)).toEqual(['fee_waiver_approved']);
    const emails = await testApp.db.select().from(emailOutbox).where(eq(emailOutbox.to, student.email));
    expect(emails.filter((email) => email.template.startsWith('fee_waiver_'))).toEqual([]);
  });

  it('cannot be approved once the fee is paid', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const { student, draft } = await applicant(institution);
    const waiver = data<FeeWaiver>(await ask(student, draft.id, { reason: REASON }));
    await markPaid(testApp.db, draft);
    const approve = await call(
      institution.admin,
      'POST',
      `/partners/${institution.partnerId}/fee-waivers/${waiver.id}/approve`,
    );
    expect(approve.statusCode).toBe(409);
    expect(error(approve).reason).toBe('already_paid');
  });
});

describe('a waived fee', () => {
  it('lets the applicant submit, recorded as waived for the applicant and the reviewers', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const code = await issueCode(institution);
    const { student, draft } = await applicant(institution);
    const body = { version: 1, answers: demoAnswers(documentsOf.get(student.id)) };
    const unpaid = await call(student, 'POST', `/applications/${draft.id}/submit`, body);
    expect(unpaid.statusCode).toBe(409);
    expect(error(unpaid).message).toBe(APPLICATION_MESSAGES.payment_required);

    expect((await redeem(student, draft.id, code.code)).statusCode).toBe(201);
    const submitted = await call(student, 'POST', `/applications/${draft.id}/submit`, body);
    expect(submitted.statusCode).toBe(201);
    const payment = { paid: false, amount: 0, currency: 'USD', payment_id: null, waived: true };
    expect(data<SubmissionReceipt>(submitted).payment).toEqual(payment);
    const receipt = await call(student, 'GET', `/applications/${draft.id}/submission`);
    expect(data<SubmissionReceipt>(receipt).payment).toEqual(payment);
    const review = await call(
      institution.admin,
      'GET',
      `/partners/${institution.partnerId}/review/submissions/${draft.id}`,
    );
    expect(review.statusCode).toBe(200);
    expect(data<ReviewApplication>(review).payment).toMatchObject({ paid: false, waived: true, record: null });
    const queue = await call(institution.admin, 'GET', `/partners/${institution.partnerId}/review/submissions`);
    expect(queue.statusCode).toBe(200);
    const rows = (queue.json() as { data: { items: Array<{ id: string; paid: boolean; waived?: boolean }> } }).data
      .items;
    expect(rows.find((row) => row.id === draft.id)).toMatchObject({ paid: false, waived: true });

    // No new waiver on a submitted application.
    const late = await ask(student, draft.id, { reason: REASON });
    expect(late.statusCode).toBe(409);
  });

  it('refuses a checkout: there is nothing to pay', async () => {
    const institution = await readyInstitution(testApp.app, testApp.db, { fee: 100 });
    const code = await issueCode(institution);
    const { student, draft } = await applicant(institution);
    expect((await redeem(student, draft.id, code.code)).statusCode).toBe(201);
    const checkout = await call(student, 'POST', `/applications/${draft.id}/payment`);
    expect(checkout.statusCode).toBe(409);
    expect(error(checkout)).toMatchObject({ message: W.fee_waived, reason: 'fee_waived' });
  });
});
