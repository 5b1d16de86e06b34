import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  REVIEW_MESSAGES as R,
  ReviewApplicationSchema,
  ReviewOptionsSchema,
  ReviewQueuePageSchema,
  type ReviewApplication,
  type ReviewQueuePage,
  type ReviewQueueQueryInput,
} from '@kaminuza/shared';
import {
  decisions,
  documents,
  partnerSettings,
  reviewEvents,
  reviewNotes,
  staff,
  submissions,
} from '../../db/schema/index.ts';
import { samplePdf } from '../../seed/sample-files.ts';
import { DOWNLOAD_CSP } from '../../lib/file-download.ts';
import { useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { readyInstitution, type ReadyInstitution } from '../applications/test-helpers.ts';
import { uploadFile } from '../uploads/test-helpers.ts';
import { referenceOf } from './review-queue.ts';
import { insertSubmission, setAdmissions, staffIdOf, submittedApplication } from './test-helpers.ts';

const testApp = useTestApp();

type ErrorAnswer = { error: { status: string; message: string; details?: Array<{ path: string; message: string }> } };

const base = (institution: ReadyInstitution) => `/api/v1/partners/${institution.partnerId}/review`;

function call(
  account: TestAccount,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  return testApp.app.inject({ method, url, headers: account.headers, ...(payload ? { payload } : {}) });
}

async function queue(
  account: TestAccount,
  institution: ReadyInstitution,
  query: ReviewQueueQueryInput = {},
): Promise<ReviewQueuePage> {
  const params = new URLSearchParams(
    Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
  );
  const response = await call(account, 'GET', `${base(institution)}/submissions?${params}`);
  expect(response.statusCode, response.body).toBe(200);
  return ReviewQueuePageSchema.parse(response.json().data);
}

async function view(account: TestAccount, institution: ReadyInstitution, id: string): Promise<ReviewApplication> {
  const response = await call(account, 'GET', `${base(institution)}/submissions/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return ReviewApplicationSchema.parse(response.json().data);
}

const STAGES = [
  { id: 'interview', name: 'Interview', order: 1 },
  { id: 'committee', name: 'Committee', order: 2 },
];

describe('who may review', () => {
  it("answers 404 to another institution's staff on every route, and nothing changes", async () => {
    const a = await readyInstitution(testApp.app, testApp.db);
    const b = await readyInstitution(testApp.app, testApp.db);
    await setAdmissions(testApp.db, a.partnerId, { custom_stages: STAGES });
    const { receipt, documents: docs } = await submittedApplication(testApp.app, testApp.db, a);
    const id = receipt.id;
    const [note] = await testApp.db
      .insert(reviewNotes)
      .values({
        submission_id: id,
        partner_id: a.partnerId,
        author_id: await staffIdOf(testApp.db, a.admin),
        body: 'A',
      })
      .returning();
    const intruder = b.admin;
    const own = `/api/v1/partners/${b.partnerId}/review`;
    // Through their own institution's path, A's submission does not exist for B.
    const attempts: Array<[Parameters<typeof call>[1], string, object?]> = [
      ['GET', `${own}/submissions/${id}`],
      ['PATCH', `${own}/submissions/${id}`, { stage_id: null }],
      ['POST', `${own}/submissions/${id}/notes`, { body: 'Sneaky' }],
      ['DELETE', `${own}/submissions/${id}/notes/${note!.id}`],
      ['PUT', `${own}/submissions/${id}/score`, { criteria: { overall: 90 } }],
      ['POST', `${own}/submissions/${id}/documents/${docs.transcript}/review`, { status: 'verified' }],
      ['GET', `${own}/submissions/${id}/documents/${docs.transcript}/file`],
      // Through A's path, B's member is not a member: 404 too.
      ['GET', `${base(a)}/options`],
      ['GET', `${base(a)}/submissions`],
      ['GET', `${base(a)}/submissions.csv`],
      ['GET', `${base(a)}/submissions/${id}`],
      ['PATCH', `${base(a)}/submissions/${id}`, { stage_id: 'interview' }],
      ['POST', `${base(a)}/submissions/${id}/notes`, { body: 'Sneaky' }],
      ['PUT', `${base(a)}/submissions/${id}/score`, { criteria: { overall: 90 } }],
      ['GET', `${base(a)}/submissions/${id}/documents/${docs.transcript}/file`],
      ['POST', `${base(a)}/bulk`, { action: 'move_stage', submission_ids: [id], stage_id: 'interview' }],
    ];
    for (const [method, url, payload] of attempts) {
      expect((await call(intruder, method, url, payload)).statusCode, `${method} ${url}`).toBe(404);
    }
    const listed = await queue(intruder, b);
    expect(listed.items.map((item) => item.id)).not.toContain(id);
    const bulk = await call(intruder, 'POST', `${own}/bulk`, {
      action: 'move_stage',
      submission_ids: [id],
      stage_id: null,
    });
    expect(bulk.json()).toEqual({ data: { updated: 0 } });
    const [row] = await testApp.db.select().from(submissions).where(eq(submissions.id, id));
    expect(row).toMatchObject({ status: 'submitted', stage_id: null, score_count: 0 });
    expect(await testApp.db.$count(reviewNotes, eq(reviewNotes.submission_id, id))).toBe(1);
    expect(await testApp.db.$count(reviewEvents, eq(reviewEvents.submission_id, id))).toBe(0);
    const [doc] = await testApp.db.select().from(documents).where(eq(documents.id, docs.transcript));
    expect(doc!.status).toBe('pending');
  });

  it('denies members without a review permission, students and anonymous callers', async () => {
    const a = await readyInstitution(testApp.app, testApp.db);
    const { id } = await insertSubmission(testApp.db, a);
    const clerk = await signInAs(testApp.app, 'staff', { partnerId: a.partnerId, permissions: ['manage_programs'] });
    const student = await signInAs(testApp.app, 'student');
    for (const url of [`${base(a)}/options`, `${base(a)}/submissions`, `${base(a)}/submissions/${id}`]) {
      expect((await testApp.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      expect((await call(student, 'GET', url)).statusCode, url).toBe(403);
      expect((await call(clerk, 'GET', url)).statusCode, url).toBe(403);
    }
    expect((await call(clerk, 'POST', `${base(a)}/submissions/${id}/notes`, { body: 'x' })).statusCode).toBe(403);
    const reviewer = await signInAs(testApp.app, 'staff', {
      partnerId: a.partnerId,
      permissions: ['review_applications'],
    });
    const decider = await signInAs(testApp.app, 'staff', { partnerId: a.partnerId, permissions: ['make_decisions'] });
    expect((await call(reviewer, 'GET', `${base(a)}/submissions`)).statusCode).toBe(200);
    expect((await call(decider, 'GET', `${base(a)}/submissions`)).statusCode).toBe(200);
  });
});

describe('options', () => {
  it('offers cycles, programs, campuses, custom stages in order, active reviewers, the rubric and the caller', async () => {
    const a = await readyInstitution(testApp.app, testApp.db);
    await setAdmissions(testApp.db, a.partnerId, { custom_stages: [...STAGES].reverse() });
    const reviewer = await signInAs(testApp.app, 'staff', {
      partnerId: a.partnerId,
      permissions: ['review_applications'],
    });
    const clerk = await signInAs(testApp.app, 'staff', { partnerId: a.partnerId, permissions: ['manage_programs'] });
    const gone = await signInAs(testApp.app, 'staff', { partnerId: a.partnerId, permissions: ['make_decisions'] });
    await testApp.db.update(staff).set({ active: false }).where(eq(staff.user_id, gone.id));
    const response = await call(reviewer, 'GET', `${base(a)}/options`);
    expect(response.statusCode).toBe(200);
    const options = ReviewOptionsSchema.parse(response.json().data);
    expect(options.cycles.map((cycle) => cycle.id)).toEqual([a.cycleId]);
    expect(options.programs).toHaveLength(5);
    expect(options.campuses).toHaveLength(2);
    expect(options.stages).toEqual([
      { id: 'interview', name: 'Interview' },
      { id: 'committee', name: 'Committee' },
    ]);
    const reviewerIds = options.reviewers.map((member) => member.id);
    expect(reviewerIds).toContain(await staffIdOf(testApp.db, reviewer));
    expect(reviewerIds).toContain(await staffIdOf(testApp.db, a.admin));
    expect(reviewerIds).not.toContain(await staffIdOf(testApp.db, clerk));
    expect(reviewerIds).not.toContain(await staffIdOf(testApp.db, gone));
    expect(options).toMatchObject({
      rubric: [{ id: 'overall', name: 'Overall', weight: 1 }],
      blind: false,
      can_decide: false,
      me: await staffIdOf(testApp.db, reviewer),
    });
  });
});

describe('the queue', () => {
  it('filters by every field, searches names and references, sorts and pages', async () => {
    const a = await readyInstitution(testApp.app, testApp.db);
    await setAdmissions(testApp.db, a.partnerId, { custom_stages: STAGES });
    await testApp.db
      .update(partnerSettings)
      .set({ general: sql`${partnerSettings.general} || '{"timezone":"Africa/Kigali"}'::jsonb` })
      .where(eq(partnerSettings.partner_id, a.partnerId));
    const member = await signInAs(testApp.app, 'staff', {
      partnerId: a.partnerId,
      permissions: ['review_applications'],
    });
    const memberId = await staffIdOf(testApp.db, member);
    const adminId = await staffIdOf(testApp.db, a.admin);
    const other = await readyInstitution(testApp.app, testApp.db);
    await insertSubmission(testApp.db, other, { first_name: 'Élodie', last_name: 'Foreign' });

    const day = (iso: string) => new Date(iso).toISOString();
    const rows = {
      amina: await insertSubmission(testApp.db, a, {
        first_name: 'Amina',
        last_name: 'Uwase',
        created_at: day('2026-03-01T10:00:00Z'),
        paid: true,
        score_average: 91,
        score_count: 2,
        status: 'under_review',
        assigned_to: memberId,
      }),
      elodie: await insertSubmission(testApp.db, a, {
        first_name: 'Élodie',
        last_name: 'Mukamana',
        created_at: day('2026-03-02T22:30:00Z'),
        score_average: 40,
        score_count: 1,
        status: 'under_review',
        stage_id: 'interview',
        assigned_to: adminId,
      }),
      jean: await insertSubmission(testApp.db, a, {
        first_name: 'Jean',
        last_name: 'Habimana',
        created_at: day('2026-03-03T08:00:00Z'),
        submitted_by_staff: true,
        program_id: a.double.id,
        campus_id: a.double.campusIds[1],
      }),
      zed: await insertSubmission(testApp.db, a, {
        first_name: 'Zed',
        last_name: '100%_Real',
        created_at: day('2026-03-04T08:00:00Z'),
        status: 'accepted',
        score_average: 75,
        score_count: 1,
      }),
    };
    await testApp.db.insert(decisions).values([
      {
        submission_id: rows.zed.id,
        partner_id: a.partnerId,
        state: 'accepted',
        program_name: 'P',
        university_name: 'U',
        released_at: new Date().toISOString(),
      },
      {
        submission_id: rows.amina.id,
        partner_id: a.partnerId,
        state: 'accepted',
        program_name: 'P',
        university_name: 'U',
        automatic: true,
      },
      {
        submission_id: rows.elodie.id,
        partner_id: a.partnerId,
        state: 'waitlisted',
        program_name: 'P',
        university_name: 'U',
      },
    ]);

    const ids = async (query: ReviewQueueQueryInput) =>
      (await queue(member, a, query)).items.map((item) => item.id).sort();
    const of = (...names: Array<keyof typeof rows>) => names.map((name) => rows[name].id).sort();

    const all = await queue(member, a);
    expect(all.total).toBe(4);
    // Newest first by default.
    expect(all.items.map((item) => item.id)).toEqual([rows.zed.id, rows.jean.id, rows.elodie.id, rows.amina.id]);
    expect(all.items[3]).toMatchObject({
      reference: rows.amina.reference,
      applicant_name: 'Amina Uwase',
      status: 'under_review',
      paid: true,
      score_average: 91,
      score_count: 2,
      assigned_to: { id: memberId, name: 'Test Staff' },
      decision: { state: 'accepted', released: false, automatic: true },
      cycle_name: expect.any(String),
      program_name: expect.any(String),
      campus_name: expect.any(String),
    });

    expect(await ids({ cycle_id: a.cycleId })).toEqual(of('amina', 'elodie', 'jean', 'zed'));
    expect(await ids({ cycle_id: randomUUID() })).toEqual([]);
    expect(await ids({ program_id: a.double.id })).toEqual(of('jean'));
    expect(await ids({ campus_id: a.double.campusIds[1]! })).toEqual(of('jean'));
    expect(await ids({ stage: 'new' })).toEqual(of('jean'));
    expect(await ids({ stage: 'under_review' })).toEqual(of('amina'));
    expect(await ids({ stage: 'interview' })).toEqual(of('elodie'));
    expect(await ids({ stage: 'decided' })).toEqual(of('zed'));
    expect(await ids({ decision: 'accepted' })).toEqual(of('amina', 'zed'));
    expect(await ids({ decision: 'waitlisted' })).toEqual(of('elodie'));
    expect(await ids({ decision: 'none' })).toEqual(of('jean'));
    expect(await ids({ release: 'draft' })).toEqual(of('amina', 'elodie'));
    expect(await ids({ release: 'released' })).toEqual(of('zed'));
    expect(await ids({ decision: 'accepted', release: 'draft' })).toEqual(of('amina'));
    // The submission's copy of its decision follows every write of `decisions` (the trigger of migration 0012).
    const elodieDecision = eq(decisions.submission_id, rows.elodie.id);
    await testApp.db.update(decisions).set({ released_at: new Date().toISOString() }).where(elodieDecision);
    expect(await ids({ release: 'released' })).toEqual(of('elodie', 'zed'));
    await testApp.db.update(decisions).set({ state: 'rejected' }).where(elodieDecision);
    expect(await ids({ decision: 'rejected', release: 'released' })).toEqual(of('elodie'));
    expect(await ids({ decision: 'waitlisted' })).toEqual([]);
    await testApp.db.delete(decisions).where(elodieDecision);
    expect(await ids({ decision: 'none' })).toEqual(of('elodie', 'jean'));
    expect(await ids({ release: 'draft' })).toEqual(of('amina'));
    expect(await ids({ paid: 'true' })).toEqual(of('amina'));
    expect(await ids({ paid: 'false' })).toEqual(of('elodie', 'jean', 'zed'));
    expect(await ids({ submitted_by_staff: 'true' })).toEqual(of('jean'));
    expect(await ids({ score_min: 75 })).toEqual(of('amina', 'zed'));
    expect(await ids({ score_max: 75 })).toEqual(of('elodie', 'zed'));
    expect(await ids({ score_min: 41, score_max: 90 })).toEqual(of('zed'));
    expect(await ids({ assigned_to: 'me' })).toEqual(of('amina'));
    expect(await ids({ assigned_to: adminId })).toEqual(of('elodie'));
    expect(await ids({ assigned_to: 'none' })).toEqual(of('jean', 'zed'));
    // Days are the institution's (Africa/Kigali, UTC+2): 22:30 UTC on 2 March is 3 March there.
    expect(await ids({ submitted_from: '2026-03-03' })).toEqual(of('elodie', 'jean', 'zed'));
    expect(await ids({ submitted_to: '2026-03-02' })).toEqual(of('amina'));
    expect(await ids({ submitted_from: '2026-03-03', submitted_to: '2026-03-03' })).toEqual(of('elodie', 'jean'));
    // Names: any case, without accents; a reference in any case, with or without dashes.
    expect(await ids({ q: 'elodie' })).toEqual(of('elodie'));
    expect(await ids({ q: 'HABIM' })).toEqual(of('jean'));
    expect(await ids({ q: '100%' })).toEqual(of('zed'));
    expect(await ids({ q: '0%' })).toEqual(of('zed'));
    expect(await ids({ q: '%' })).toEqual(of('zed'));
    expect(await ids({ q: rows.jean.reference.toLowerCase() })).toEqual(of('jean'));
    expect(await ids({ q: rows.jean.reference.replace(/-/g, ' ') })).toEqual(of('jean'));
    expect(await ids({ q: 'nobody' })).toEqual([]);
    expect(await ids({ q: 'foreign' })).toEqual([]);

    const order = async (query: ReviewQueueQueryInput) => (await queue(member, a, query)).items.map((item) => item.id);
    expect(await order({ sort: 'submitted_at', order: 'asc' })).toEqual(
      [rows.amina, rows.elodie, rows.jean, rows.zed].map((row) => row.id),
    );
    // Unscored last either way.
    expect(await order({ sort: 'score', order: 'desc' })).toEqual(
      [rows.amina, rows.zed, rows.elodie, rows.jean].map((row) => row.id),
    );
    expect(await order({ sort: 'score', order: 'asc' })).toEqual(
      [rows.elodie, rows.zed, rows.amina, rows.jean].map((row) => row.id),
    );
    // Where accented names fall depends on the database's collation; the others are in alphabetical order.
    const byName = await order({ sort: 'name', order: 'asc' });
    expect(byName.filter((id) => id !== rows.elodie.id)).toEqual([rows.amina.id, rows.jean.id, rows.zed.id]);
    const byNameFiltered = await order({ sort: 'name', order: 'asc', cycle_id: a.cycleId });
    expect(byNameFiltered.filter((id) => id !== rows.elodie.id)).toEqual([rows.amina.id, rows.jean.id, rows.zed.id]);
    const byNameDesc = await order({ sort: 'name', order: 'desc' });
    expect(byNameDesc.filter((id) => id !== rows.elodie.id)).toEqual([rows.zed.id, rows.jean.id, rows.amina.id]);
    const byReference = [...Object.values(rows)].sort((x, y) => (x.reference < y.reference ? 1 : -1));
    expect(await order({ sort: 'reference', order: 'desc' })).toEqual(byReference.map((row) => row.id));
    expect(await order({ sort: 'reference', order: 'desc', cycle_id: a.cycleId })).toEqual(
      byReference.map((row) => row.id),
    );

    const first = await queue(member, a, { page_size: 10, page: 1, sort: 'submitted_at', order: 'asc' });
    expect(first).toMatchObject({ total: 4, page: 1, page_size: 10 });
    const beyond = await queue(member, a, { page_size: 10, page: 2 });
    expect(beyond).toMatchObject({ total: 4, items: [] });

    for (const bad of ['page_size=7', 'score_min=101', 'submitted_from=03/03/2026', 'decision=maybe', 'sort=age']) {
      const response = await call(member, 'GET', `${base(a)}/submissions?${bad}`);
      expect(response.statusCode, bad).toBe(400);
    }
    const badDate = await call(member, 'GET', `${base(a)}/submissions?submitted_to=2026-3-1`);
    expect((badDate.json() as ErrorAnswer).error.details?.[0]?.message).toBe(R.date_invalid);
  });

  it('pages through scored then unscored applications when sorted by score', async () => {
    const a = await readyInstitution(testApp.app, testApp.db);
    const start = Date.parse('2026-02-01T08:00:00Z');
    const rows = [];
    for (let i = 0; i < 12; i++) {
      const scored = i < 7;
      rows.push({
        ...(await insertSubmission(testApp.db, a, {
          created_at: new Date(start + i * 3_600_000).toISOString(),
          ...(scored ? { score_average: 10 + i * 10, score_count: 1, status: 'under_review' as const } : {}),
        })),
        score: scored ? 10 + i * 10 : null,
        at: start + i,
      });
    }
    const scoredDesc = rows.filter((row) => row.score !== null).sort((x, y) => y.score! - x.score!);
    const unscored = rows.filter((row) => row.score === null).sort((x, y) => y.at - x.at);
    for (const [order, scored] of [
      ['desc', scoredDesc],
      ['asc', [...scoredDesc].reverse()],
    ] as const) {
      const expected = [...scored, ...unscored].map((row) => row.id);
      // Without a filter (two walks of the score index) and with one (a sort of the matching rows).
      for (const filter of [{}, { cycle_id: a.cycleId }]) {
        const first = await queue(a.admin, a, { ...filter, sort: 'score', order, page_size: 10 });
        const second = await queue(a.admin, a, { ...filter, sort: 'score', order, page_size: 10, page: 2 });
        expect(first.total).toBe(12);
        expect(
          [...first.items, ...second.items].map((item) => item.id),
          order,
        ).toEqual(expected);
      }
    }
  });

  it('reads references as typed', () => {
    expect(referenceOf('kz-ab12-cd34')).toBe('KZ-AB12-CD34');
    expect(referenceOf(' KZ AB12 CD34 ')).toBe('KZ-AB12-CD34');
    expect(referenceOf('KZAB12CD34')).toBe('KZ-AB12-CD34');
    expect(referenceOf('Amina')).toBeNull();
    expect(referenceOf('KZ-AB12')).toBeNull();
  });
});

describe('blind review', () => {
  it('hides names, contact details and name search from reviewers who cannot decide', async () => {
    const a = await readyInstitution(testApp.app, testApp.db);
    await setAdmissions(testApp.db, a.partnerId, { blind_review: true });
    const { receipt } = await submittedApplication(testApp.app, testApp.db, a, { first: 'Grace', last: 'Ingabire' });
    const reviewer = await signInAs(testApp.app, 'staff', {
      partnerId: a.partnerId,
      permissions: ['review_applications'],
    });

    const page = await queue(reviewer, a);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]!.applicant_name).toBeNull();
    expect((await queue(reviewer, a, { q: 'Grace' })).total).toBe(0);
    expect((await queue(reviewer, a, { q: receipt.reference })).total).toBe(1);

    const blind = await view(reviewer, a, receipt.id);
    expect(blind.blind).toBe(true);
    expect(blind.applicant_name).toBeNull();
    for (const field of ['first_name', 'last_name', 'email', 'phone', 'address']) {
      expect(blind.profile, field).not.toHaveProperty(field);
    }
    expect(JSON.stringify(blind)).not.toContain('Ingabire');

    const csv = await call(reviewer, 'GET', `${base(a)}/submissions.csv`);
    expect(csv.body).not.toContain('Ingabire');
    expect(csv.body).toContain(receipt.reference);

    // Decision makers need names to issue letters.
    const decider = await view(a.admin, a, receipt.id);
    expect(decider).toMatchObject({ blind: false, applicant_name: 'Grace Ingabire' });
    expect(decider.profile).toMatchObject({ first_name: 'Grace', phone: '+250788000111', address: '12 KN Street' });
    expect((await queue(a.admin, a, { q: 'ingabire' })).total).toBe(1);
  });
});

describe('the CSV export', () => {
  it('answers every matching row as an attachment, quoted and safe from formulas', async () => {
    const a = await readyInstitution(testApp.app, testApp.db);
    await insertSubmission(testApp.db, a, { first_name: '=HYPERLINK("http://evil.example")', last_name: 'X' });
    await insertSubmission(testApp.db, a, { first_name: '+1', last_name: 'Plus' });
    await insertSubmission(testApp.db, a, { first_name: '@SUM(A1)', last_name: 'At' });
    await insertSubmission(testApp.db, a, { first_name: 'Ann, "Annie"', last_name: 'Comma', paid: true });
    for (let i = 0; i < 30; i++) await insertSubmission(testApp.db, a, { first_name: 'Bulk', last_name: `N${i}` });

    const response = await call(a.admin, 'GET', `${base(a)}/submissions.csv?page_size=10`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="applications-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe(DOWNLOAD_CSP);
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Reference,Applicant,Program,Campus,Cycle,Submitted at,Status,Stage,Paid,Submitted by staff,Score,Scores,Assigned to,Decision,Decision released,Eligibility,Points,Letters received,Letters invited',
    );
    // The page size does not apply: all 34 rows.
    expect(lines).toHaveLength(35);
    const names = lines.slice(1).map((line) => line.split(',')[1]);
    expect(names).toContain(`"'=HYPERLINK(""http://evil.example"") X"`);
    expect(names).toContain("'+1 Plus");
    expect(names).toContain("'@SUM(A1) At");
    expect(response.body).toContain('"Ann, ""Annie"" Comma"');
    for (const line of lines.slice(1)) expect(line.split(',')[1]).not.toMatch(/^[=+\-@]/);

    const filtered = await call(a.admin, 'GET', `${base(a)}/submissions.csv?paid=true`);
    expect(filtered.body.trimEnd().split('\r\n')).toHaveLength(2);
  });
});

describe('stages, assignment and bulk changes', () => {
  it('moves along custom stages and assigns active reviewers, with history', async () => {
    const a = await readyInstitution(testApp.app, testApp.db);
    await setAdmissions(testApp.db, a.partnerId, { custom_stages: STAGES });
    const { id } = await insertSubmission(testApp.db, a);
    const reviewer = await signInAs(testApp.app, 'staff', {
      partnerId: a.partnerId,
      permissions: ['review_applications'],
    });
    const reviewerId = await staffIdOf(testApp.db, reviewer);
    const clerk = await signInAs(testApp.app, 'staff', { partnerId: a.partnerId, permissions: ['manage_programs'] });
    const outsider = await signInAs(testApp.app, 'staff');
    const url = `${base(a)}/submissions/${id}`;

    const unknownStage = await call(a.admin, 'PATCH', url, { stage_id: 'nope' });
    expect(unknownStage.statusCode).toBe(400);
    expect((unknownStage.json() as ErrorAnswer).error.message).toBe(R.stage_unknown);
    for (const assignee of [await staffIdOf(testApp.db, clerk), await staffIdOf(testApp.db, outsider), randomUUID()]) {
      const response = await call(a.admin, 'PATCH', url, { assigned_to: assignee });
      expect(response.statusCode).toBe(400);
      expect((response.json() as ErrorAnswer).error.message).toBe(R.reviewer_unknown);
    }
    expect((await call(a.admin, 'PATCH', url, {})).statusCode).toBe(400);
    const [untouched] = await testApp.db.select().from(submissions).where(eq(submissions.id, id));
    expect(untouched).toMatchObject({ status: 'submitted', stage_id: null, assigned_to: null });

    const moved = await call(a.admin, 'PATCH', url, { stage_id: 'interview', assigned_to: reviewerId });
    expect(moved.statusCode).toBe(200);
    const application = ReviewApplicationSchema.parse(moved.json().data);
    expect(application).toMatchObject({
      status: 'under_review',
      stage_id: 'interview',
      assigned_to: { id: reviewerId, name: 'Test Staff' },
    });
    // The history names the reviewer assigned (its web view says "Now assigned to …" from to_name).
    expect(application.history.map((event) => [event.action, event.details])).toEqual([
      ['submitted', {}],
      ['stage_changed', { from: null, to: 'interview' }],
      ['assigned', { from: null, to: reviewerId, from_name: null, to_name: 'Test Staff' }],
    ]);
    expect(application.history[0]!.actor).toEqual({
      kind: 'applicant',
      name: expect.stringMatching(/^Applicant Number\d+$/),
    });
    expect(application.history[1]!.actor).toEqual({ kind: 'staff', name: 'Test Staff' });

    const cleared = ReviewApplicationSchema.parse(
      (await call(reviewer, 'PATCH', url, { stage_id: null, assigned_to: null })).json().data,
    );
    expect(cleared).toMatchObject({ stage_id: null, assigned_to: null, status: 'under_review' });
    expect(cleared.history).toHaveLength(5);
    expect(cleared.history.at(-1)).toMatchObject({
      action: 'assigned',
      details: { from: reviewerId, to: null, from_name: 'Test Staff', to_name: null },
    });
  });

  it('changes only the institution’s own submissions in bulk and counts them', async () => {
    const a = await readyInstitution(testApp.app, testApp.db);
    const b = await readyInstitution(testApp.app, testApp.db);
    await setAdmissions(testApp.db, a.partnerId, { custom_stages: STAGES });
    await setAdmissions(testApp.db, b.partnerId, { custom_stages: STAGES });
    const mine = [await insertSubmission(testApp.db, a), await insertSubmission(testApp.db, a)];
    const already = await insertSubmission(testApp.db, a, { stage_id: 'committee', status: 'under_review' });
    const theirs = await insertSubmission(testApp.db, b);
    const ids = [...mine, already, theirs].map((row) => row.id);

    const moved = await call(a.admin, 'POST', `${base(a)}/bulk`, {
      action: 'move_stage',
      submission_ids: [...ids, randomUUID()],
      stage_id: 'committee',
    });
    expect(moved.json()).toEqual({ data: { updated: 2 } });
    const after = await testApp.db.select().from(submissions).where(eq(submissions.partner_id, a.partnerId));
    expect(after.every((row) => row.stage_id === 'committee' && row.status === 'under_review')).toBe(true);
    const [foreign] = await testApp.db.select().from(submissions).where(eq(submissions.id, theirs.id));
    expect(foreign).toMatchObject({ stage_id: null, status: 'submitted' });
    expect(await testApp.db.$count(reviewEvents, eq(reviewEvents.partner_id, a.partnerId))).toBe(2);
    expect(await testApp.db.$count(reviewEvents, eq(reviewEvents.submission_id, theirs.id))).toBe(0);

    const adminId = await staffIdOf(testApp.db, a.admin);
    const assigned = await call(a.admin, 'POST', `${base(a)}/bulk`, {
      action: 'assign',
      submission_ids: ids,
      assigned_to: adminId,
    });
    expect(assigned.json()).toEqual({ data: { updated: 3 } });
    expect(
      await testApp.db.$count(
        submissions,
        and(eq(submissions.partner_id, a.partnerId), eq(submissions.assigned_to, adminId)),
      ),
    ).toBe(3);
    expect(
      (await testApp.db.select().from(submissions).where(eq(submissions.id, theirs.id)))[0]!.assigned_to,
    ).toBeNull();

    const badStage = await call(a.admin, 'POST', `${base(a)}/bulk`, {
      action: 'move_stage',
      submission_ids: ids,
      stage_id: 'nope',
    });
    expect((badStage.json() as ErrorAnswer).error.message).toBe(R.stage_unknown);
    const foreignReviewer = await staffIdOf(testApp.db, b.admin);
    const badReviewer = await call(a.admin, 'POST', `${base(a)}/bulk`, {
      action: 'assign',
      submission_ids: ids,
      assigned_to: foreignReviewer,
    });
    expect((badReviewer.json() as ErrorAnswer).error.message).toBe(R.reviewer_unknown);
    const none = await call(a.admin, 'POST', `${base(a)}/bulk`, {
      action: 'assign',
      submission_ids: [],
      assigned_to: null,
    });
    expect((none.json() as ErrorAnswer).error.details?.[0]?.message).toBe(R.none_selected);
    const many = Array.from({ length: 501 }, () => randomUUID());
    const tooMany = await call(a.admin, 'POST', `${base(a)}/bulk`, {
      action: 'assign',
      submission_ids: many,
      assigned_to: null,
    });
    expect((tooMany.json() as ErrorAnswer).error.details?.[0]?.message).toBe(R.too_many_selected);
  });
});

describe('notes', () => {
  it('are added by any reviewer and deleted by their author only', async () => {
    const a = await readyInstitution(testApp.app, testApp.db);
    const { id } = await insertSubmission(testApp.db, a);
    const colleague = await signInAs(testApp.app, 'staff', {
      partnerId: a.partnerId,
      permissions: ['review_applications'],
    });
    const url = `${base(a)}/submissions/${id}/notes`;

    const empty = await call(a.admin, 'POST', url, { body: '   ' });
    expect(empty.statusCode).toBe(400);
    expect((empty.json() as ErrorAnswer).error.details?.[0]?.message).toBe(R.note_required);

    const added = await call(a.admin, 'POST', url, { body: '  Strong essay.  ' });
    expect(added.statusCode).toBe(201);
    const note = added.json().data;
    expect(note).toMatchObject({ body: 'Strong essay.', mine: true, author: { name: 'Test Staff' } });

    const seen = await view(colleague, a, id);
    expect(seen.status).toBe('under_review');
    expect(seen.notes).toEqual([expect.objectContaining({ id: note.id, mine: false })]);

    const refused = await call(colleague, 'DELETE', `${url}/${note.id}`);
    expect(refused.statusCode).toBe(403);
    expect((refused.json() as ErrorAnswer).error.message).toBe(R.note_not_yours);
    expect((await call(a.admin, 'DELETE', `${url}/${randomUUID()}`)).statusCode).toBe(404);
    expect((await call(a.admin, 'DELETE', `${url}/${note.id}`)).statusCode).toBe(204);
    const after = await view(a.admin, a, id);
    expect(after.notes).toEqual([]);
    expect(after.history.map((event) => event.action)).toEqual(['submitted', 'note_added', 'note_deleted']);
  });
});

describe('the application view and its documents', () => {
  it('shows the snapshot as submitted, documents as they stand, payment, and lets staff verify or reject them', async () => {
    const a = await readyInstitution(testApp.app, testApp.db);
    const {
      receipt,
      documents: docs,
      student,
    } = await submittedApplication(testApp.app, testApp.db, a, {
      first: 'Aline',
      last: 'Uwera',
    });
    const application = await view(a.admin, a, receipt.id);
    expect(application).toMatchObject({
      reference: receipt.reference,
      status: 'submitted',
      applicant_name: 'Aline Uwera',
      program: { id: a.single.id },
      campus: { id: a.single.campusId },
      cycle: { id: a.cycleId },
      payment: { paid: false, amount: 0, currency: 'USD', record: null },
      score_average: null,
      decision: null,
      can_decide: true,
      blind: false,
    });
    expect(application.profile).toMatchObject({ first_name: 'Aline', last_name: 'Uwera' });
    expect(application.answers).toMatchObject({ transcript: docs.transcript, grade_average: 82 });
    expect(application.form?.sections.length).toBeGreaterThan(0);
    expect(application.documents).toEqual(
      expect.arrayContaining([
        {
          document_id: docs.transcript,
          type: 'transcript',
          file_name: 'transcript.pdf',
          status: 'pending',
          review_note: null,
          available: true,
        },
      ]),
    );

    const file = await call(a.admin, 'GET', `${base(a)}/submissions/${receipt.id}/documents/${docs.transcript}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('attachment');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toBe(DOWNLOAD_CSP);
    expect(file.rawPayload.equals(samplePdf('transcript'))).toBe(true);

    const reviewUrl = (documentId: string) => `${base(a)}/submissions/${receipt.id}/documents/${documentId}/review`;
    const noReason = await call(a.admin, 'POST', reviewUrl(docs.passport), { status: 'rejected' });
    expect((noReason.json() as ErrorAnswer).error.details?.[0]?.message).toBe(R.reason_required);
    const rejected = await call(a.admin, 'POST', reviewUrl(docs.passport), { status: 'rejected', reason: 'Blurred' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().data).toMatchObject({ status: 'rejected', review_note: 'Blurred', available: true });
    const verified = await call(a.admin, 'POST', reviewUrl(docs.transcript), { status: 'verified' });
    expect(verified.json().data).toMatchObject({ status: 'verified', review_note: null });
    // The applicant sees the verdict and the reason in their documents.
    const own = await testApp.app.inject({
      method: 'GET',
      url: '/api/v1/students/me/documents',
      headers: student.headers,
    });
    const mine = own.json().data as Array<{ type: string; status: string; review_note: string | null }>;
    expect(mine.find((doc) => doc.type === 'passport')).toMatchObject({ status: 'rejected', review_note: 'Blurred' });

    const unknown = await call(a.admin, 'POST', reviewUrl(randomUUID()), { status: 'verified' });
    expect((unknown.json() as ErrorAnswer).error.message).toBe(R.document_not_submitted);

    // The applicant replaces the passport: the submitted file is gone, its verdict no longer applies.
    await uploadFile(testApp.app, student.headers, 'passport', 'passport-2.pdf', samplePdf('new passport'));
    const replaced = await call(a.admin, 'POST', reviewUrl(docs.passport), { status: 'verified' });
    expect(replaced.statusCode).toBe(400);
    expect((replaced.json() as ErrorAnswer).error.message).toBe(R.document_replaced);
    const [passport] = await testApp.db.select().from(documents).where(eq(documents.id, docs.passport));
    expect(passport!.status).toBe('pending');
    expect(
      (await call(a.admin, 'GET', `${base(a)}/submissions/${receipt.id}/documents/${docs.passport}/file`)).statusCode,
    ).toBe(404);

    const later = await view(a.admin, a, receipt.id);
    expect(later.documents.find((doc) => doc.type === 'passport')).toMatchObject({
      available: false,
      status: 'pending',
    });
    expect(later.documents.find((doc) => doc.type === 'transcript')).toMatchObject({
      available: true,
      status: 'verified',
    });
    expect(later.status).toBe('under_review');
    expect(later.history.map((event) => [event.action, event.details.status])).toEqual([
      ['submitted', undefined],
      ['document_reviewed', 'rejected'],
      ['document_reviewed', 'verified'],
    ]);
  });
});
