import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PROFILE_MESSAGES, type ReviewApplication, type ReviewQueuePage } from '@kaminuza/shared';
import { decisions, programs, submissions } from '../../db/schema/index.ts';
import { buildApp } from '../../app.ts';
import { testEnv, useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { readyInstitution, type ReadyInstitution } from '../applications/test-helpers.ts';
import { decideOnEligibility } from './auto-decision.jobs.ts';
import { setAdmissions, submittedApplication } from './test-helpers.ts';

const testApp = useTestApp();

const grades = (maths: string, others: string) => ({
  exam: 'waec_wassce',
  year: 2024,
  index_number: '4010203045',
  results: [
    { subject: 'english_language', grade: others },
    { subject: 'mathematics', grade: maths },
    { subject: 'integrated_science', grade: others },
    { subject: 'physics', grade: others },
    { subject: 'chemistry', grade: others },
    { subject: 'biology', grade: others },
  ],
});

async function institutionWithRules(): Promise<ReadyInstitution> {
  const institution = await readyInstitution(testApp.app, testApp.db);
  await testApp.db
    .update(programs)
    .set({
      // Nothing left for a person to check: the rules alone decide.
      requirements: '',
      entry_rules: {
        exams: [
          {
            exam: 'waec_wassce',
            min_standing: { standing: 'credit', count: 5 },
            subjects: [{ any_of: ['mathematics'], min_grade: 'C6' }],
          },
        ],
      },
    })
    .where(eq(programs.id, institution.single.id));
  return institution;
}

/** An applicant who enters these results (or none), then applies. */
async function applicant(institution: ReadyInstitution, last: string, sitting: object | null) {
  return submittedApplication(testApp.app, testApp.db, institution, { first: 'Ama', last }, async (student) => {
    if (!sitting) return;
    const added = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/students/me/exam-sittings',
      headers: student.headers,
      payload: sitting,
    });
    if (added.statusCode !== 201) throw new Error(added.body);
  });
}

const review = (account: TestAccount, institution: ReadyInstitution, path: string, method: 'GET' | 'POST' = 'GET') =>
  testApp.app.inject({
    method,
    url: `/api/v1/partners/${institution.partnerId}/review${path}`,
    headers: account.headers,
  });

describe('eligibility in the review', () => {
  it('is kept with each submission, and the queue filters and sorts on it', async () => {
    const institution = await institutionWithRules();
    const strong = await applicant(institution, 'Strong', grades('B2', 'B3'));
    const weak = await applicant(institution, 'Weak', grades('D7', 'B3'));
    const unknown = await applicant(institution, 'Unknown', null);
    const good = await applicant(institution, 'Good', grades('C6', 'C5'));

    const [stored] = await testApp.db
      .select({ status: submissions.eligibility_status, points: submissions.eligibility_points })
      .from(submissions)
      .where(eq(submissions.id, strong.receipt.id));
    // WASSCE aggregate of the best six: 2 + 3 + 3 + 3 + 3 + 3 = 17, out of 6–54 (lower better).
    expect(stored).toEqual({ status: 'eligible', points: 77.08 });

    const page = async (query: string) =>
      ((await review(institution.admin, institution, `/submissions?${query}`)).json() as { data: ReviewQueuePage })
        .data;
    const eligible = await page('eligibility=eligible');
    expect(eligible.items.map((row) => row.reference).sort()).toEqual(
      [strong.receipt.reference, good.receipt.reference].sort(),
    );
    expect(eligible.items.find((row) => row.reference === strong.receipt.reference)!.eligibility).toEqual({
      status: 'eligible',
      exam: 'WASSCE',
      aggregate: 17,
      points: 77.08,
    });
    const byEligibility = await page('sort=eligibility&order=desc');
    expect(byEligibility.items.map((row) => row.reference)).toEqual([
      strong.receipt.reference,
      good.receipt.reference,
      unknown.receipt.reference,
      weak.receipt.reference,
    ]);
    const byPoints = await page('sort=points&order=asc');
    expect(byPoints.items.at(-1)!.reference).toBe(unknown.receipt.reference);
    expect(byPoints.items[0]!.eligibility!.points!).toBeLessThan(byPoints.items[1]!.eligibility!.points!);

    const detail = (
      (await review(institution.admin, institution, `/submissions/${weak.receipt.id}`)).json() as {
        data: ReviewApplication;
      }
    ).data;
    expect(detail.eligibility).toMatchObject({ status: 'not_eligible', exam: 'WASSCE' });
    expect(detail.eligibility!.checks).toContainEqual({
      rule: 'subject_grade',
      outcome: 'unmet',
      subjects: ['Mathematics (Core)'],
      needed: 'C6',
      have: 'D7',
    });
    expect(detail.exam_sittings).toHaveLength(1);
  });

  it('lets staff verify a result, which the applicant can no longer change', async () => {
    const institution = await institutionWithRules();
    const { student, receipt } = await applicant(institution, 'Verified', grades('B2', 'B3'));
    const detail = (
      (await review(institution.admin, institution, `/submissions/${receipt.id}`)).json() as { data: ReviewApplication }
    ).data;
    const sitting = detail.exam_sittings![0]!;
    expect(sitting.verified).toBeNull();

    const path = `/submissions/${receipt.id}/exam-sittings/${sitting.id}/verify`;
    // Another institution knows neither the submission nor the result; a member without review rights is refused.
    const other = await readyInstitution(testApp.app, testApp.db);
    const elsewhere = await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/partners/${other.partnerId}/review${path}`,
      headers: other.admin.headers,
    });
    expect(elsewhere.statusCode).toBe(404);
    const finance = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['view_payments'],
    });
    expect((await review(finance, institution, path, 'POST')).statusCode).toBe(403);
    const applicantSelf = await review(student, institution, path, 'POST');
    expect(applicantSelf.statusCode).toBe(403);

    const verified = await review(institution.admin, institution, path, 'POST');
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data[0].verified).toMatchObject({ at: expect.any(String) });
    // Again: the first verification stands, and the history tells it once.
    expect((await review(institution.admin, institution, path, 'POST')).statusCode).toBe(200);
    const after = (
      (await review(institution.admin, institution, `/submissions/${receipt.id}`)).json() as { data: ReviewApplication }
    ).data;
    expect(after.history.filter((event) => event.action === 'exam_result_verified')).toHaveLength(1);

    const changed = await testApp.app.inject({
      method: 'PUT',
      url: `/api/v1/students/me/exam-sittings/${sitting.id}`,
      headers: student.headers,
      payload: grades('A1', 'A1'),
    });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error.message).toBe(PROFILE_MESSAGES.sitting_verified);
  });

  it('drafts automatic decisions on entry requirements, never for a case that needs review', async () => {
    const institution = await institutionWithRules();
    // The thresholds read on points out of 100: WASSCE aggregate 17 is 77.08, 31 is 47.92, 36 is 37.5.
    await setAdmissions(testApp.db, institution.partnerId, {
      auto_decision_basis: 'entry_requirements',
      auto_accept_enabled: true,
      auto_accept_threshold: 70,
      auto_reject_enabled: true,
      auto_reject_threshold: 40,
    });
    const eligible = await applicant(institution, 'Accepted', grades('B2', 'B3'));
    const notEligible = await applicant(institution, 'Rejected', grades('F9', 'B3'));
    const unknown = await applicant(institution, 'Unknown', null);
    const middling = await applicant(institution, 'Middling', grades('C6', 'C5'));
    const low = await applicant(institution, 'Low', grades('C6', 'C6'));

    const flags = await testApp.db
      .select({ id: submissions.id, auto_decide: submissions.auto_decide })
      .from(submissions)
      .where(eq(submissions.partner_id, institution.partnerId));
    const flag = (id: string) => flags.find((row) => row.id === id)!.auto_decide;
    expect([eligible, notEligible, unknown, middling, low].map(({ receipt }) => flag(receipt.id))).toEqual([
      true,
      true,
      false,
      false,
      true,
    ]);

    for (const { receipt } of [eligible, notEligible, unknown, middling, low]) {
      await decideOnEligibility(testApp.db, receipt.id);
      // Run again (a retried job): nothing changes.
      await decideOnEligibility(testApp.db, receipt.id);
    }
    const decided = await testApp.db
      .select({ submission_id: decisions.submission_id, state: decisions.state, automatic: decisions.automatic })
      .from(decisions)
      .where(eq(decisions.partner_id, institution.partnerId));
    expect(decided).toHaveLength(3);
    expect(decided).toContainEqual({ submission_id: eligible.receipt.id, state: 'accepted', automatic: true });
    expect(decided).toContainEqual({ submission_id: notEligible.receipt.id, state: 'rejected', automatic: true });
    // Eligible, but its points at or below the reject threshold.
    expect(decided).toContainEqual({ submission_id: low.receipt.id, state: 'rejected', automatic: true });
  });
});

describe('the automatic decision job', () => {
  it('drafts the decision moments after the submit commits, on an instance working the queue', async () => {
    const institution = await institutionWithRules();
    await setAdmissions(testApp.db, institution.partnerId, {
      auto_decision_basis: 'entry_requirements',
      auto_accept_enabled: true,
      auto_accept_threshold: 70,
      auto_reject_enabled: false,
    });
    const worker = await buildApp({ database: testApp.database, env: testEnv(), logger: false, work: true });
    try {
      const { receipt } = await applicant(institution, 'Relayed', grades('B2', 'B3'));
      // The commit's NOTIFY has the working instance create the job at once, which drafts the acceptance.
      await expect
        .poll(
          async () =>
            (
              await testApp.db
                .select({ state: decisions.state, automatic: decisions.automatic })
                .from(decisions)
                .where(eq(decisions.submission_id, receipt.id))
            )[0],
          { timeout: 10_000, interval: 50 },
        )
        .toEqual({ state: 'accepted', automatic: true });
      const [relayed] = await testApp.db
        .select({ queued: submissions.auto_decision_queued_at })
        .from(submissions)
        .where(eq(submissions.id, receipt.id));
      expect(relayed!.queued).not.toBeNull();
    } finally {
      await worker.close();
    }
  });
});
