import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { REVIEW_MESSAGES as R, ScoreResultSchema, type PartnerAdmissionsSettings } from '@kaminuza/shared';
import { decisions, reviewEvents, reviewScores, submissions } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { readyInstitution, type ReadyInstitution } from '../applications/test-helpers.ts';
import { insertSubmission, setAdmissions, staffIdOf } from './test-helpers.ts';
import { thresholdDecision } from './thresholds.ts';

let institution: ReadyInstitution;

const testApp = useTestApp();

beforeAll(async () => {
  institution = await readyInstitution(testApp.app, testApp.db);
});

type ErrorAnswer = { error: { status: string; message: string } };

const RUBRIC = [
  { id: 'academics', name: 'Academics', weight: 3 },
  { id: 'essay', name: 'Essay', weight: 1 },
];

function score(account: TestAccount, submissionId: string, body: object) {
  return testApp.app.inject({
    method: 'PUT',
    url: `/api/v1/partners/${institution.partnerId}/review/submissions/${submissionId}/score`,
    headers: account.headers,
    payload: body,
  });
}

async function scored(account: TestAccount, submissionId: string, value: number) {
  const response = await score(account, submissionId, { criteria: { overall: value } });
  expect(response.statusCode, response.body).toBe(200);
  return ScoreResultSchema.parse(response.json().data);
}

const decisionOf = async (submissionId: string) =>
  (await testApp.db.select().from(decisions).where(eq(decisions.submission_id, submissionId)))[0] ?? null;

const THRESHOLDS_ON: Partial<PartnerAdmissionsSettings> = {
  rubric: [{ id: 'overall', name: 'Overall', weight: 1 }],
  auto_accept_enabled: true,
  auto_accept_threshold: 90,
  auto_reject_enabled: true,
  auto_reject_threshold: 30,
};

describe('scores', () => {
  it('refuses criteria that do not match the rubric exactly, saving nothing', async () => {
    await setAdmissions(testApp.db, institution.partnerId, { rubric: RUBRIC });
    const { id } = await insertSubmission(testApp.db, institution);
    for (const criteria of [{ academics: 80 }, { academics: 80, essay: 70, extra: 1 }, { overall: 80 }, {}]) {
      const response = await score(institution.admin, id, { criteria });
      expect(response.statusCode, JSON.stringify(criteria)).toBe(400);
      expect((response.json() as ErrorAnswer).error.message).toBe(R.criteria_mismatch);
    }
    for (const criteria of [
      { academics: 101, essay: 1 },
      { academics: 50.5, essay: 1 },
      { academics: -1, essay: 1 },
    ]) {
      expect((await score(institution.admin, id, { criteria })).statusCode, JSON.stringify(criteria)).toBe(400);
    }
    expect(await testApp.db.$count(reviewScores, eq(reviewScores.submission_id, id))).toBe(0);
    const [row] = await testApp.db.select().from(submissions).where(eq(submissions.id, id));
    expect(row).toMatchObject({ score_average: null, score_count: 0, status: 'submitted' });
    expect(await testApp.db.$count(reviewEvents, eq(reviewEvents.submission_id, id))).toBe(0);
  });

  it('weighs criteria, keeps one score per reviewer and averages the reviewers', async () => {
    await setAdmissions(testApp.db, institution.partnerId, { rubric: RUBRIC, auto_accept_enabled: false });
    const { id } = await insertSubmission(testApp.db, institution);
    const second = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['review_applications'],
    });
    const third = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['make_decisions'],
    });

    const first = await score(institution.admin, id, { criteria: { academics: 80, essay: 60 }, comment: ' Solid ' });
    expect(first.statusCode).toBe(200);
    // (3 × 80 + 1 × 60) / 4 = 75
    expect(ScoreResultSchema.parse(first.json().data)).toMatchObject({
      score: { total: 75, comment: 'Solid', criteria: { academics: 80, essay: 60 }, reviewer: { name: 'Test Staff' } },
      score_average: 75,
      score_count: 1,
    });
    await score(second, id, { criteria: { academics: 90, essay: 90 } });
    const last = ScoreResultSchema.parse(
      (await score(third, id, { criteria: { academics: 70, essay: 50 } })).json().data,
    );
    // (75 + 90 + 65) / 3 = 76.67
    expect(last).toMatchObject({ score_average: 76.67, score_count: 3 });
    // Rescoring replaces the reviewer's score: (75 + 40 + 65) / 3 = 60
    const rescored = ScoreResultSchema.parse(
      (await score(second, id, { criteria: { academics: 40, essay: 40 } })).json().data,
    );
    expect(rescored).toMatchObject({ score_average: 60, score_count: 3 });

    const [row] = await testApp.db.select().from(submissions).where(eq(submissions.id, id));
    expect(row).toMatchObject({ score_average: 60, score_count: 3, status: 'under_review' });
    const view = (
      await testApp.app.inject({
        method: 'GET',
        url: `/api/v1/partners/${institution.partnerId}/review/submissions/${id}`,
        headers: second.headers,
      })
    ).json().data;
    expect(view.score_average).toBe(60);
    expect(view.scores).toHaveLength(3);
    expect(view.scores.map((entry: { reviewer: { id: string } }) => entry.reviewer.id)).toEqual([
      await staffIdOf(testApp.db, institution.admin),
      await staffIdOf(testApp.db, second),
      await staffIdOf(testApp.db, third),
    ]);
    expect(view.rubric).toEqual(RUBRIC);
    expect(view.history.filter((event: { action: string }) => event.action === 'score_saved')).toHaveLength(4);
  });
});

describe('thresholds', () => {
  it('reads the settings: at or above accept, at or below reject, nothing between or when off', () => {
    const on = { ...THRESHOLDS_ON } as Parameters<typeof thresholdDecision>[0];
    expect([89, 90, 91].map((average) => thresholdDecision(on, average))).toEqual([null, 'accepted', 'accepted']);
    expect([29, 30, 31].map((average) => thresholdDecision(on, average))).toEqual(['rejected', 'rejected', null]);
    const off = { ...on, auto_accept_enabled: false, auto_reject_enabled: false };
    expect([30, 89, 90, 91, 29].map((average) => thresholdDecision(off, average))).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(thresholdDecision(on, null)).toBeNull();
  });

  for (const [average, expected] of [
    [89, null],
    [90, 'accepted'],
    [91, 'accepted'],
    [29, 'rejected'],
    [30, 'rejected'],
    [31, null],
  ] as const) {
    it(`drafts ${expected ?? 'nothing'} at an average of ${average} when enabled, nothing when disabled`, async () => {
      await setAdmissions(testApp.db, institution.partnerId, THRESHOLDS_ON);
      const { id } = await insertSubmission(testApp.db, institution);
      const result = await scored(institution.admin, id, average);
      const row = await decisionOf(id);
      if (expected === null) {
        expect(result.decision).toBeNull();
        expect(row).toBeNull();
      } else {
        expect(result.decision).toMatchObject({
          state: expected,
          automatic: true,
          decided_by: null,
          released_at: null,
        });
        expect(row).toMatchObject({
          state: expected,
          automatic: true,
          decided_by: null,
          released_at: null,
          partner_id: institution.partnerId,
          university_name: expect.any(String),
        });
        expect(row!.program_name).not.toBe('');
        const events = await testApp.db.select().from(reviewEvents).where(eq(reviewEvents.submission_id, id));
        expect(events.find((event) => event.action === 'decision_drafted')).toMatchObject({
          actor_kind: 'system',
          actor_staff_id: null,
          details: { state: expected, automatic: true },
        });
      }

      await setAdmissions(testApp.db, institution.partnerId, {
        auto_accept_enabled: false,
        auto_reject_enabled: false,
      });
      const { id: other } = await insertSubmission(testApp.db, institution);
      expect((await scored(institution.admin, other, average)).decision).toBeNull();
      expect(await decisionOf(other)).toBeNull();
    });
  }

  it('withdraws an automatic draft when the average moves between the thresholds, and follows it across', async () => {
    await setAdmissions(testApp.db, institution.partnerId, THRESHOLDS_ON);
    const { id } = await insertSubmission(testApp.db, institution);
    const colleague = await signInAs(testApp.app, 'staff', {
      partnerId: institution.partnerId,
      permissions: ['review_applications'],
    });
    expect((await scored(institution.admin, id, 95)).decision).toMatchObject({ state: 'accepted', automatic: true });
    // (95 + 50) / 2 = 72.5: between the thresholds.
    const between = await scored(colleague, id, 50);
    expect(between).toMatchObject({ score_average: 72.5, decision: null });
    expect(await decisionOf(id)).toBeNull();
    // (10 + 20) / 2 = 15: an automatic rejection now.
    await scored(institution.admin, id, 10);
    expect((await scored(colleague, id, 20)).decision).toMatchObject({ state: 'rejected', automatic: true });
    // (100 + 20) / 2 = 60, then (100 + 100) / 2 = 100: the draft is withdrawn, then drafted again as acceptance.
    expect((await scored(institution.admin, id, 100)).decision).toBeNull();
    expect((await scored(colleague, id, 100)).decision).toMatchObject({ state: 'accepted', automatic: true });

    const events = await testApp.db
      .select({ action: reviewEvents.action, actor: reviewEvents.actor_kind, details: reviewEvents.details })
      .from(reviewEvents)
      .where(eq(reviewEvents.submission_id, id))
      .orderBy(reviewEvents.created_at);
    expect(
      events.filter((event) => event.actor === 'system').map((event) => [event.action, event.details.state]),
    ).toEqual([
      ['decision_drafted', 'accepted'],
      ['decision_withdrawn', 'accepted'],
      ['decision_drafted', 'rejected'],
      ['decision_withdrawn', 'rejected'],
      ['decision_drafted', 'accepted'],
    ]);
  });

  it("never touches a member's own draft or a released decision", async () => {
    await setAdmissions(testApp.db, institution.partnerId, THRESHOLDS_ON);
    const adminId = await staffIdOf(testApp.db, institution.admin);
    const { id: drafted } = await insertSubmission(testApp.db, institution);
    await testApp.db.insert(decisions).values({
      submission_id: drafted,
      partner_id: institution.partnerId,
      state: 'waitlisted',
      program_name: 'P',
      university_name: 'U',
      decided_by: adminId,
    });
    const result = await scored(institution.admin, drafted, 95);
    expect(result.decision).toMatchObject({
      state: 'waitlisted',
      automatic: false,
      decided_by: { id: adminId, name: 'Test Staff' },
    });
    await scored(institution.admin, drafted, 50);
    expect(await decisionOf(drafted)).toMatchObject({ state: 'waitlisted', automatic: false });

    const { id: released } = await insertSubmission(testApp.db, institution, { status: 'accepted' });
    const releasedAt = new Date().toISOString();
    await testApp.db.insert(decisions).values({
      submission_id: released,
      partner_id: institution.partnerId,
      state: 'accepted',
      program_name: 'P',
      university_name: 'U',
      automatic: true,
      released_at: releasedAt,
    });
    await scored(institution.admin, released, 10);
    expect(await decisionOf(released)).toMatchObject({ state: 'accepted', automatic: true });
    await scored(institution.admin, released, 50);
    expect(await decisionOf(released)).toMatchObject({ state: 'accepted' });
    const systemEvents = await testApp.db.select().from(reviewEvents).where(eq(reviewEvents.actor_kind, 'system'));
    expect(systemEvents.filter((event) => [drafted, released].includes(event.submission_id))).toEqual([]);
  });
});
