import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { ApplicationDraft, PartnerAdmissionsSettings, SubmissionReceipt } from '@kaminuza/shared';
import type { App } from '../../app.ts';
import type { Db } from '../../db/client.ts';
import { documents, partnerSettings, staff, students, submissions } from '../../db/schema/index.ts';
import { samplePdf } from '../../seed/sample-files.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { demoAnswers, type ReadyInstitution } from '../applications/test-helpers.ts';
import { uploadFile } from '../uploads/test-helpers.ts';

/** Merges admissions settings (stages, rubric, blind review, thresholds) into the institution's row. */
export async function setAdmissions(db: Db, partnerId: string, values: Partial<PartnerAdmissionsSettings>) {
  await db
    .update(partnerSettings)
    .set({ admissions: sql`${partnerSettings.admissions} || ${JSON.stringify(values)}::jsonb` })
    .where(eq(partnerSettings.partner_id, partnerId));
}

export async function staffIdOf(db: Db, account: TestAccount): Promise<string> {
  const [row] = await db.select({ id: staff.id }).from(staff).where(eq(staff.user_id, account.id));
  return row!.id;
}

/**
 * A student who uploads a transcript and a passport and submits an application through the api, as
 * the applicant would; answers the receipt with the student and their two document ids.
 */
export async function submittedApplication(
  app: App,
  db: Db,
  institution: ReadyInstitution,
  name: { first: string; last: string } = { first: 'Test', last: 'Student' },
  /** What the student does before applying (enter examination results). */
  prepare?: (student: TestAccount) => Promise<void>,
) {
  const student = await signInAs(app, 'student');
  await prepare?.(student);
  await db
    .update(students)
    .set({ first_name: name.first, last_name: name.last, phone: '+250788000111', address: '12 KN Street' })
    .where(eq(students.user_id, student.id));
  for (const type of ['transcript', 'passport'] as const) {
    const upload = await uploadFile(app, student.headers, type, `${type}.pdf`, samplePdf(type));
    if (upload.statusCode !== 204) throw new Error(`upload failed: ${upload.statusCode} ${upload.body}`);
  }
  const [record] = await db.select({ id: students.id }).from(students).where(eq(students.user_id, student.id));
  const docs = await db
    .select({ id: documents.id, type: documents.type })
    .from(documents)
    .where(eq(documents.student_id, record!.id));
  const ids = Object.fromEntries(docs.map((doc) => [doc.type, doc.id])) as { transcript: string; passport: string };
  const started = await app.inject({
    method: 'POST',
    url: `/api/v1/partners/${institution.partnerId}/application`,
    headers: student.headers,
    payload: { program_id: institution.single.id },
  });
  const draft = (started.json() as { data: ApplicationDraft }).data;
  const submitted = await app.inject({
    method: 'POST',
    url: `/api/v1/applications/${draft.id}/submit`,
    headers: student.headers,
    payload: { version: draft.version, answers: demoAnswers(ids) },
  });
  if (submitted.statusCode !== 201) throw new Error(`submit failed: ${submitted.statusCode} ${submitted.body}`);
  return { student, documents: ids, receipt: (submitted.json() as { data: SubmissionReceipt }).data };
}

let counter = 0;

/**
 * A submission written directly (for the queue's filters and sorts, where many varied rows matter more
 * than the submit path, which submittedApplication covers), on a program and campus of the institution.
 */
export async function insertSubmission(
  db: Db,
  institution: ReadyInstitution,
  values: Partial<typeof submissions.$inferInsert> & { first_name?: string; last_name?: string } = {},
): Promise<{ id: string; reference: string }> {
  counter += 1;
  const { first_name = 'Applicant', last_name = `Number${counter}`, ...rest } = values;
  const reference = `KZ-${randomBytes(4).toString('hex').toUpperCase().slice(0, 4)}-${String(counter).padStart(4, '0')}`;
  const [row] = await db
    .insert(submissions)
    .values({
      reference,
      partner_id: institution.partnerId,
      cycle_id: institution.cycleId,
      program_id: institution.single.id,
      campus_id: institution.single.campusId,
      profile: { first_name, last_name, email: `${last_name.toLowerCase()}@example.com` },
      ...rest,
    })
    .returning({ id: submissions.id, reference: submissions.reference });
  return row!;
}
