import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DOCUMENT_TYPES, StudentHomeSchema, type ApplicationDraft, type StudentHome } from '@kaminuza/shared';
import { students } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';
import { addDocument, markPaid, readyInstitution } from '../applications/test-helpers.ts';

const testApp = useTestApp();

const HOME = '/api/v1/students/me/home';

async function home(account: TestAccount): Promise<StudentHome> {
  const response = await testApp.app.inject({ method: 'GET', url: HOME, headers: account.headers });
  expect(response.statusCode).toBe(200);
  return StudentHomeSchema.parse(response.json().data);
}

async function start(account: TestAccount, partnerId: string, programId: string): Promise<ApplicationDraft> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: `/api/v1/partners/${partnerId}/application`,
    headers: account.headers,
    payload: { program_id: programId },
  });
  expect(response.statusCode).toBe(201);
  return response.json().data as ApplicationDraft;
}

describe('the student home', () => {
  it('tells a new student what is missing and to finish onboarding first, then upload documents', async () => {
    const student = await signInAs(testApp.app, 'student');
    await testApp.database.db
      .update(students)
      .set({ preferred_name: 'Ally', timezone: 'Africa/Kigali', language: 'fr' })
      .where(eq(students.user_id, student.id));
    const answer = await home(student);
    expect(answer).toMatchObject({
      first_name: 'Test',
      preferred_name: 'Ally',
      timezone: 'Africa/Kigali',
      language: 'fr',
    });
    // profileCompletion's rules: 25, plus 50 × 2 of 14 fields (the names), no documents.
    expect(answer.completion.percent).toBe(32);
    const fields = answer.completion.missing.flatMap((item) => (item.kind === 'field' ? [item] : []));
    expect(fields.map((item) => item.field)).not.toContain('first_name');
    expect(fields.find((item) => item.field === 'phone')?.place).toBe('onboarding');
    expect(fields.find((item) => item.field === 'graduation_year')?.place).toBe('education');
    const documents = answer.completion.missing.flatMap((item) => (item.kind === 'document' ? [item.type] : []));
    expect(documents).toEqual([...DOCUMENT_TYPES]);
    expect(answer.next_steps).toEqual([
      { kind: 'onboarding', step: 0 },
      { kind: 'documents', types: [...DOCUMENT_TYPES] },
    ]);
  });

  it('counts uploaded documents and lists drafts, fees awaited and closing dates, only the caller’s', async () => {
    const fee = await readyInstitution(testApp.app, testApp.database.db, { fee: 50 });
    const free = await readyInstitution(testApp.app, testApp.database.db);
    const student = await signInAs(testApp.app, 'student');
    const other = await signInAs(testApp.app, 'student');
    const before = await home(student);
    await addDocument(testApp.database.db, student, 'transcript');
    const paying = await start(student, fee.partnerId, fee.single.id);
    const notPaying = await start(student, free.partnerId, free.single.id);
    await start(other, free.partnerId, free.single.id);

    const answer = await home(student);
    // One of the five document types adds 5.
    expect(answer.completion.percent).toBe(before.completion.percent + 5);
    expect(answer.completion.missing).not.toContainEqual({ kind: 'document', type: 'transcript', place: 'documents' });
    const kinds = answer.next_steps.map((step) => step.kind);
    expect(kinds).toEqual(['onboarding', 'documents', 'draft', 'draft', 'pay', 'deadline', 'deadline']);
    const drafts = answer.next_steps.filter((step) => step.kind === 'draft');
    expect(drafts.map((step) => step.application_id).sort()).toEqual([paying.id, notPaying.id].sort());
    expect(answer.next_steps.find((step) => step.kind === 'pay')).toMatchObject({
      application_id: paying.id,
      amount: 50,
      currency: 'USD',
    });
    const deadline = answer.next_steps.find((step) => step.kind === 'deadline');
    expect(deadline && 'closes_at' in deadline && Date.parse(deadline.closes_at) > Date.now()).toBe(true);
    expect(answer.next_steps.find((step) => step.kind === 'documents')).toEqual({
      kind: 'documents',
      types: DOCUMENT_TYPES.filter((type) => type !== 'transcript'),
    });

    await markPaid(testApp.database.db, { id: paying.id, partner_id: fee.partnerId }, 50);
    expect((await home(student)).next_steps.map((step) => step.kind)).not.toContain('pay');
  });

  it('is for students only', async () => {
    await expectAccess(
      testApp.app,
      { method: 'GET', url: HOME },
      { anonymous: 401, student: 200, staff: 403, admin: 403 },
    );
  });
});
