import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  PartnerApiDecisionPageSchema,
  PartnerApiDecisionSchema,
  PartnerApiSubmissionPageSchema,
  PartnerApiSubmissionSchema,
  ReviewApplicationSchema,
  type ApplicationDraft,
  type PartnerApiDecision,
  type PartnerApiSubmission,
  type ReviewApplication,
  type SubmissionReceipt,
} from '@kaminuza/shared';
import { decisions, documents, partners, students, submissions } from '../../db/schema/index.ts';
import { samplePdf } from '../../seed/sample-files.ts';
import { useTestApp } from '../../test/app.ts';
import { signInAs } from '../../test/auth.ts';
import { demoAnswers, markPaid, readyInstitution, type ReadyInstitution } from '../applications/test-helpers.ts';
import { uploadFile } from '../uploads/test-helpers.ts';

/*
 * The partner API and the staff review screens read the same submissions: whatever the API exposes
 * must be what staff see at that moment. Each field of the API's answer is compared with its staff
 * counterpart; a field added to the API without a comparison here fails the test.
 */

const testApp = useTestApp();

function ok<T>(response: { statusCode: number; body: string; json(): unknown }, status = 200): T {
  expect(response.statusCode, response.body).toBe(status);
  return (response.json() as { data: T }).data;
}

/**
 * A paid application with three documents, submitted by the applicant; staff then verify one,
 * reject one (with a reason), leave the third pending, and release an acceptance.
 */
async function reviewedSubmission(institution: ReadyInstitution) {
  const student = await signInAs(testApp.app, 'student');
  await testApp.database.db
    .update(students)
    .set({ first_name: 'Aline', last_name: 'Uwera', phone: '+250788000111', address: '12 KN Street' })
    .where(eq(students.user_id, student.id));
  for (const type of ['transcript', 'passport', 'recommendation_letter'] as const) {
    const upload = await uploadFile(testApp.app, student.headers, type, `${type}.pdf`, samplePdf(type));
    expect(upload.statusCode).toBe(204);
  }
  const [record] = await testApp.database.db
    .select({ id: students.id })
    .from(students)
    .where(eq(students.user_id, student.id));
  const docs = Object.fromEntries(
    (
      await testApp.database.db
        .select({ id: documents.id, type: documents.type })
        .from(documents)
        .where(eq(documents.student_id, record!.id))
    ).map((doc) => [doc.type, doc.id]),
  ) as Record<'transcript' | 'passport' | 'recommendation_letter', string>;
  const draft = ok<ApplicationDraft>(
    await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/partners/${institution.partnerId}/application`,
      headers: student.headers,
      payload: { program_id: institution.single.id },
    }),
    201,
  );
  await markPaid(testApp.database.db, draft, 25);
  const receipt = ok<SubmissionReceipt>(
    await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/applications/${draft.id}/submit`,
      headers: student.headers,
      payload: {
        version: draft.version,
        answers: demoAnswers({ transcript: docs.transcript, passport: docs.passport }),
      },
    }),
    201,
  );

  const review = `/api/v1/partners/${institution.partnerId}/review/submissions/${receipt.id}`;
  const staff = (method: 'POST' | 'PUT', url: string, payload: object) =>
    testApp.app.inject({ method, url, headers: institution.admin.headers, payload });
  ok(await staff('POST', `${review}/documents/${docs.transcript}/review`, { status: 'verified' }));
  ok(await staff('POST', `${review}/documents/${docs.passport}/review`, { status: 'rejected', reason: 'Blurred' }));
  ok(await staff('PUT', `${review}/decision`, { state: 'accepted' }));
  ok(
    await staff('POST', `/api/v1/partners/${institution.partnerId}/decisions/release`, {
      submission_ids: [receipt.id],
      when: 'now',
    }),
  );
  return { submissionId: receipt.id, docs };
}

async function apiKey(institution: ReadyInstitution): Promise<string> {
  const data = ok<{ key: string }>(
    await testApp.app.inject({
      method: 'POST',
      url: `/api/v1/partners/${institution.partnerId}/api-keys`,
      headers: institution.admin.headers,
      payload: { name: 'Registry sync', scopes: ['submissions:read', 'decisions:read'] },
    }),
    201,
  );
  return data.key;
}

const partnerGet = (key: string, url: string) =>
  testApp.app.inject({ method: 'GET', url: `/api/v1/partner-api${url}`, headers: { authorization: `Bearer ${key}` } });

/** How each field of the API's submission is found on the staff screen (or, for updated_at, on the row). */
function submissionComparisons(
  staffView: ReviewApplication,
  row: typeof submissions.$inferSelect,
): Record<keyof PartnerApiSubmission, unknown> {
  expect(row.profile.documents, 'the submission kept the applicant’s documents').toHaveLength(3);
  return {
    id: staffView.id,
    reference: staffView.reference,
    status: staffView.status,
    cycle_id: staffView.cycle?.id ?? null,
    program_id: staffView.program?.id ?? null,
    campus_id: staffView.campus.id,
    form_id: staffView.form?.id ?? null,
    // Staff see the profile as submitted and, beside it, the documents as they stand now.
    profile: { ...staffView.profile, documents: staffView.documents },
    answers: staffView.answers,
    paid: staffView.payment.paid,
    amount: staffView.payment.amount,
    currency: staffView.payment.currency,
    submitted_at: staffView.submitted_at,
    // Not on the staff screen: the row's own time of the last change.
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function decisionComparisons(
  staffView: ReviewApplication,
  row: typeof decisions.$inferSelect,
  institutionName: string,
): Record<keyof PartnerApiDecision, unknown> {
  const decision = staffView.decision!;
  return {
    id: decision.id,
    submission_id: staffView.id,
    state: decision.state,
    program_name: staffView.program?.name,
    // Not on the staff screen, which is the institution's own: its name, and when the decision was first drafted.
    university_name: institutionName,
    released_at: decision.released_at,
    response: decision.response,
    response_date: decision.response_date,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: decision.updated_at,
  };
}

describe('the partner API against what staff see', () => {
  it('answers every field of a submission and its decision as the staff review screens show them', async () => {
    const institution = await readyInstitution(testApp.app, testApp.database.db, { fee: 25 });
    const { submissionId, docs } = await reviewedSubmission(institution);
    const key = await apiKey(institution);

    const staffView = ReviewApplicationSchema.parse(
      ok(
        await testApp.app.inject({
          method: 'GET',
          url: `/api/v1/partners/${institution.partnerId}/review/submissions/${submissionId}`,
          headers: institution.admin.headers,
        }),
      ),
    );
    // The scenario is what it says: three documents in three states, paid, decided.
    expect(Object.fromEntries(staffView.documents.map((doc) => [doc.document_id, doc.status]))).toEqual({
      [docs.transcript]: 'verified',
      [docs.passport]: 'rejected',
      [docs.recommendation_letter]: 'pending',
    });
    expect(staffView.payment).toMatchObject({ paid: true, amount: 25 });
    expect(staffView.decision).toMatchObject({ state: 'accepted', released_at: expect.any(String) });
    expect(staffView.blind).toBe(false);

    const [row] = await testApp.database.db.select().from(submissions).where(eq(submissions.id, submissionId));
    const expected = submissionComparisons(staffView, row!);
    expect(Object.keys(expected).sort()).toEqual(Object.keys(PartnerApiSubmissionSchema.shape).sort());

    const one = PartnerApiSubmissionSchema.parse(ok(await partnerGet(key, `/submissions/${submissionId}`)));
    const listed = PartnerApiSubmissionPageSchema.parse(ok(await partnerGet(key, '/submissions'))).items.find(
      (item) => item.id === submissionId,
    );
    for (const answer of [one, listed!]) {
      for (const field of Object.keys(expected) as Array<keyof PartnerApiSubmission>) {
        expect(answer[field], `submission.${field}`).toEqual(expected[field]);
      }
    }

    const decision = PartnerApiDecisionPageSchema.parse(ok(await partnerGet(key, '/decisions'))).items.find(
      (item) => item.submission_id === submissionId,
    );
    const [decisionRow] = await testApp.database.db
      .select()
      .from(decisions)
      .where(eq(decisions.submission_id, submissionId));
    const [partner] = await testApp.database.db.select().from(partners).where(eq(partners.id, institution.partnerId));
    const expectedDecision = decisionComparisons(staffView, decisionRow!, partner!.name);
    expect(Object.keys(expectedDecision).sort()).toEqual(Object.keys(PartnerApiDecisionSchema.shape).sort());
    for (const field of Object.keys(expectedDecision) as Array<keyof PartnerApiDecision>) {
      expect(decision?.[field], `decision.${field}`).toEqual(expectedDecision[field]);
    }
  });
});
