import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { programs } from '../../db/schema/index.ts';
import { readyInstitution } from '../applications/test-helpers.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';

const testApp = useTestApp();

const call = (account: TestAccount, method: 'GET' | 'POST', url: string, payload?: object) =>
  testApp.app.inject({ method, url: `/api/v1${url}`, headers: account.headers, ...(payload ? { payload } : {}) });

const wasscePassing = {
  exam: 'waec_wassce',
  year: 2024,
  results: [
    { subject: 'english_language', grade: 'B3' },
    { subject: 'mathematics', grade: 'D7' },
    { subject: 'integrated_science', grade: 'B2' },
    { subject: 'physics', grade: 'A1' },
    { subject: 'chemistry', grade: 'C4' },
    { subject: 'biology', grade: 'C5' },
  ],
};

async function institutionWithPrograms() {
  const staff = await signInAs(testApp.app, 'staff');
  const program = (name: string, entry_rules: object, requirements = '') => ({
    partner_id: staff.partnerId!,
    name,
    level: 'undergraduate' as const,
    field: 'engineering' as const,
    duration_months: 48,
    language: 'en',
    requirements,
    entry_rules: entry_rules as never,
  });
  await testApp.db.insert(programs).values([
    program('Engineering', {
      exams: [
        {
          exam: 'waec_wassce',
          min_standing: { standing: 'credit', count: 5 },
          subjects: [{ any_of: ['mathematics', 'further_mathematics'], min_grade: 'C6' }],
          min_aggregate: 24,
        },
        { exam: 'knec_kcse', subjects: [], min_class: 'C+' },
      ],
    }),
    program('Agriculture', { exams: [{ exam: 'waec_wassce', subjects: [{ any_of: ['biology'], min_grade: 'C6' }] }] }),
    program('Fine Art', { exams: [] }, 'A portfolio of ten works'),
  ]);
  return staff.partnerId!;
}

describe('eligibility for an institution’s programs', () => {
  it('answers each program with its reasons in names, read on the student’s sittings', async () => {
    const partnerId = await institutionWithPrograms();
    const student = await signInAs(testApp.app, 'student');

    const before = (await call(student, 'GET', `/students/me/eligibility?partner_id=${partnerId}`)).json().data;
    expect(before.map((entry: { name: string }) => entry.name)).toEqual(['Agriculture', 'Engineering', 'Fine Art']);
    expect(before[1].eligibility).toMatchObject({
      status: 'needs_review',
      basis: 'no_results',
      accepted: ['WASSCE', 'KCSE'],
    });

    expect((await call(student, 'POST', '/students/me/exam-sittings', wasscePassing)).statusCode).toBe(201);
    const [agriculture, engineering, art] = (
      await call(student, 'GET', `/students/me/eligibility?partner_id=${partnerId}`)
    ).json().data;
    expect(agriculture.eligibility).toMatchObject({ status: 'eligible', basis: 'rules', exam: 'WASSCE' });
    expect(engineering.eligibility.status).toBe('not_eligible');
    expect(engineering.eligibility.checks).toContainEqual({
      rule: 'subject_grade',
      outcome: 'unmet',
      subjects: ['Mathematics (Core)', 'Further Mathematics'],
      needed: 'C6',
      have: 'D7',
    });
    expect(engineering.eligibility.checks).toContainEqual(
      expect.objectContaining({ rule: 'standing_count', standing: 'credit', needed: 5, have: 5, outcome: 'met' }),
    );
    // No examination rules, but a requirement a person checks.
    expect(art.eligibility).toMatchObject({
      status: 'needs_review',
      basis: 'no_requirements',
      other: 'A portfolio of ten works',
    });
  });

  it('is for students, on their own results; a malformed institution is refused', async () => {
    const partnerId = await institutionWithPrograms();
    await expectAccess(
      testApp.app,
      { method: 'GET', url: `/api/v1/students/me/eligibility?partner_id=${partnerId}` },
      { anonymous: 401, student: 200, staff: 403, admin: 403 },
    );
    const student = await signInAs(testApp.app, 'student');
    expect((await call(student, 'GET', '/students/me/eligibility?partner_id=nope')).statusCode).toBe(400);
    const unknown = await call(student, 'GET', `/students/me/eligibility?partner_id=${randomUUID()}`);
    expect(unknown.json().data).toEqual([]);
  });
});

describe('Explore: programs I meet the requirements for', () => {
  const strongWassce = {
    exam: 'waec_wassce',
    year: 2024,
    results: [
      { subject: 'english_language', grade: 'B3' },
      { subject: 'mathematics', grade: 'B2' },
      { subject: 'integrated_science', grade: 'B2' },
      { subject: 'physics', grade: 'A1' },
      { subject: 'chemistry', grade: 'B3' },
      { subject: 'biology', grade: 'C4' },
    ],
  };
  const listedIds = async (student: TestAccount, eligible: boolean) =>
    (
      (await call(student, 'GET', `/catalogue/universities?page_size=50${eligible ? '&eligible=true' : ''}`)).json()
        .data.items as { id: string }[]
    ).map((item) => item.id);

  it('lists the universities with a program whose rules the student’s results meet, or that state none', async () => {
    // The demo programs: BSc Applied Chemistry asks WASSCE credits in Chemistry and Biology, with nothing
    // else to check; the other programs need a person (free-text requirements) or other results.
    const ready = await readyInstitution(testApp.app, testApp.db);
    const open = await readyInstitution(testApp.app, testApp.db);
    await testApp.db
      .update(programs)
      .set({ requirements: '', entry_rules: { exams: [] } })
      .where(eq(programs.id, open.single.id));

    const strong = await signInAs(testApp.app, 'student');
    const before = await listedIds(strong, true);
    expect(before).toContain(open.partnerId);
    expect(before).not.toContain(ready.partnerId);
    expect(await listedIds(strong, false)).toContain(ready.partnerId);

    expect((await call(strong, 'POST', '/students/me/exam-sittings', strongWassce)).statusCode).toBe(201);
    expect(await listedIds(strong, true)).toEqual(expect.arrayContaining([ready.partnerId, open.partnerId]));

    const weak = await signInAs(testApp.app, 'student');
    const failing = {
      ...strongWassce,
      results: strongWassce.results.map((result) =>
        result.subject === 'chemistry' ? { ...result, grade: 'F9' } : result,
      ),
    };
    expect((await call(weak, 'POST', '/students/me/exam-sittings', failing)).statusCode).toBe(201);
    const weakList = await listedIds(weak, true);
    expect(weakList).toContain(open.partnerId);
    expect(weakList).not.toContain(ready.partnerId);
  });
});
