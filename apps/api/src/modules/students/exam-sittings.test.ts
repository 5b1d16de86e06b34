import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { PROFILE_MESSAGES, VALIDATION_MESSAGES as M } from '@kaminuza/shared';
import { examSittings, students } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';
import { verifySitting } from './exam-sittings.service.ts';

const testApp = useTestApp();

const call = (account: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  testApp.app.inject({ method, url: `/api/v1${url}`, headers: account.headers, ...(payload ? { payload } : {}) });

const issues = (response: { json: () => unknown }) =>
  ((response.json() as { error: { details?: { path: string; message: string }[] } }).error.details ?? []).map(
    (detail) => [detail.path, detail.message],
  );

const wassce = {
  exam: 'waec_wassce',
  year: 2024,
  index_number: '4010203045',
  results: [
    { subject: 'english_language', grade: 'b3' },
    { subject: 'mathematics', grade: 'C6' },
    { subject: 'integrated_science', grade: 'B2' },
    { subject: 'physics', grade: 'A1' },
    { subject: 'chemistry', grade: 'C4' },
    { subject: 'other:Entrepreneurship', grade: 'B3' },
  ],
};

describe('examination sittings', () => {
  it('are added, changed and removed one at a time, grades written as the scale writes them', async () => {
    const account = await signInAs(testApp.app, 'student');
    const before = (await call(account, 'GET', '/students/me/profile')).json().data;
    expect(before.exam_sittings).toEqual([]);

    const added = await call(account, 'POST', '/students/me/exam-sittings', wassce);
    expect(added.statusCode).toBe(201);
    const [sitting] = added.json().data;
    expect(sitting).toMatchObject({
      exam: 'waec_wassce',
      year: 2024,
      index_number: '4010203045',
      other_name: '',
      overall: '',
      declared: null,
      document_type: null,
      verified: null,
    });
    expect(sitting.results[0]).toEqual({ subject: 'english_language', grade: 'B3' });

    const other = await call(account, 'POST', '/students/me/exam-sittings', {
      exam: 'other',
      other_name: 'IELTS Academic',
      overall: '7.5',
      year: 2023,
    });
    expect(other.statusCode).toBe(201);
    // Latest first.
    expect(other.json().data.map((entry: { exam: string }) => entry.exam)).toEqual(['waec_wassce', 'other']);

    const profile = (await call(account, 'GET', '/students/me/profile')).json().data;
    expect(profile.exam_sittings).toHaveLength(2);
    expect(profile.profile_completion).toBeGreaterThan(before.profile_completion);

    const changed = await call(account, 'PUT', `/students/me/exam-sittings/${sitting.id}`, {
      ...wassce,
      results: [...wassce.results.slice(0, 5), { subject: 'biology', grade: 'B2' }],
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data[0].results.at(-1)).toEqual({ subject: 'biology', grade: 'B2' });

    const removed = await call(account, 'DELETE', `/students/me/exam-sittings/${sitting.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.map((entry: { other_name: string }) => entry.other_name)).toEqual(['IELTS Academic']);
  });

  it('refuses results that do not fit the examination, each at its field, and saves nothing', async () => {
    const account = await signInAs(testApp.app, 'student');
    const cases: Array<[object, string, string]> = [
      [{ ...wassce, exam: 'gcse' }, 'exam', M.examination_required],
      [{ ...wassce, results: [] }, 'results', M.exam_results_required],
      [{ ...wassce, results: [{ subject: 'astrology', grade: 'A1' }] }, 'results.0.subject', M.exam_subject_unknown],
      [{ ...wassce, results: [{ subject: 'mathematics', grade: 'A' }] }, 'results.0.grade', M.exam_grade_unknown],
      [{ ...wassce, results: [wassce.results[1], wassce.results[1]] }, 'results.1.subject', M.exam_subject_repeated],
      [{ ...wassce, year: 1900 }, 'year', M.exam_year_invalid],
      [{ ...wassce, year: new Date().getUTCFullYear() + 1 }, 'year', M.exam_year_invalid],
      [{ ...wassce, declared: 12 }, 'declared', M.exam_declared_range],
      [{ ...wassce, document_type: 'transcript' }, 'document_type', M.exam_document_invalid],
      [{ exam: 'other', year: 2020, overall: 'B' }, 'other_name', M.examination_name_required],
      [{ exam: 'other', year: 2020, other_name: 'SAT' }, 'overall', M.grade_required],
      [
        { exam: 'baccalaureat', year: 2020, results: [{ subject: 'mathematics', grade: '12' }], declared: 21 },
        'declared',
        M.exam_declared_range,
      ],
    ];
    for (const [body, path, message] of cases) {
      const response = await call(account, 'POST', '/students/me/exam-sittings', body);
      expect(response.statusCode, path).toBe(400);
      expect(issues(response), path).toContainEqual([path, message]);
    }
    const [row] = await testApp.db.select({ id: students.id }).from(students).where(eq(students.user_id, account.id));
    expect(await testApp.db.select().from(examSittings).where(eq(examSittings.student_id, row!.id))).toEqual([]);
  });

  it("never reach another student's sittings, and a verified sitting can no longer be changed", async () => {
    const alice = await signInAs(testApp.app, 'student');
    const bob = await signInAs(testApp.app, 'student');
    const [sitting] = (await call(alice, 'POST', '/students/me/exam-sittings', wassce)).json().data;
    for (const response of [
      await call(bob, 'PUT', `/students/me/exam-sittings/${sitting.id}`, wassce),
      await call(bob, 'DELETE', `/students/me/exam-sittings/${sitting.id}`),
      await call(alice, 'DELETE', `/students/me/exam-sittings/${randomUUID()}`),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error.message).toBe(PROFILE_MESSAGES.sitting_not_found);
    }

    const staff = await signInAs(testApp.app, 'staff');
    const [row] = await testApp.db.select({ id: students.id }).from(students).where(eq(students.user_id, alice.id));
    const { sittings } = await verifySitting(
      testApp.db,
      { userId: staff.id, partnerId: staff.partnerId! },
      row!.id,
      sitting.id,
    );
    expect(sittings[0]!.verified).toMatchObject({ at: expect.any(String), by: expect.any(String) });
    for (const response of [
      await call(alice, 'PUT', `/students/me/exam-sittings/${sitting.id}`, { ...wassce, year: 2023 }),
      await call(alice, 'DELETE', `/students/me/exam-sittings/${sitting.id}`),
    ]) {
      expect(response.statusCode).toBe(409);
      expect(response.json().error.message).toBe(PROFILE_MESSAGES.sitting_verified);
    }
    const [kept] = await testApp.db.select().from(examSittings).where(eq(examSittings.id, sitting.id));
    expect(kept!.year).toBe(2024);
  });

  it('are for students only', async () => {
    await expectAccess(
      testApp.app,
      { method: 'POST', url: '/api/v1/students/me/exam-sittings', payload: wassce },
      { anonymous: 401, student: 201, staff: 403, admin: 403 },
    );
    await expectAccess(
      testApp.app,
      { method: 'DELETE', url: `/api/v1/students/me/exam-sittings/${randomUUID()}` },
      { anonymous: 401, student: 404, staff: 403, admin: 403 },
    );
  });
});
