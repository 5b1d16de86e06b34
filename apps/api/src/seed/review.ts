import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { submittedSitting, type FormSection, type OnBehalfSubmission, type SubmittedSitting } from '@kaminuza/shared';
import type { Db } from '../db/client.ts';
import {
  applications,
  documents,
  examSittings,
  files,
  partnerSettings,
  partners,
  payments,
  programs,
  staff,
  students,
  submissions,
  users,
} from '../db/schema/index.ts';
import type { Storage } from '../lib/storage/index.ts';
import { createVerifiedAccount } from '../modules/auth/accounts.ts';
import type { DbOrTx } from '../db/client.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { applicationForm, feeOf, openPrograms } from '../modules/catalogue/apply-setup.service.ts';
import { newStorageKey } from '../modules/documents/documents.service.ts';
import { formSnapshot } from '../modules/forms/forms.service.ts';
import { draftDecision, releaseDecisions } from '../modules/decisions/staff-decisions.service.ts';
import { getSettings } from '../modules/partner-settings/partner-settings.service.ts';
import type { StaffCaller } from '../modules/partners/partners.service.ts';
import { reviewContext } from '../modules/review/review-context.ts';
import { addNote, saveScore, updateReview } from '../modules/review/notes.service.ts';
import { reviewDocument } from '../modules/review/document-review.service.ts';
import { checkedAnswers, newReference, submitOnBehalf } from '../modules/submissions/submissions.service.ts';
import { DEMO_ACCOUNTS } from './accounts.ts';
import {
  DEMO_APPLICANTS,
  DEMO_REVIEW_STATES,
  DEMO_REVIEWER,
  DEMO_RUBRIC,
  DEMO_STAGES,
  type DemoApplicant,
  type DemoReviewState,
} from './review.data.ts';
import { samplePdf, samplePng } from './sample-files.ts';
import { demoSitting } from './exams.data.ts';
import { eligibilityOfSubmission } from '../modules/eligibility/eligibility.service.ts';
import { sittingsOf } from '../modules/students/exam-sittings.read.ts';

const DAY_MS = 86_400_000;

/** A demo applicant's submission as written, with what the review of it needs to know. */
export interface SeededSubmission {
  id: string;
  /** Position in DEMO_APPLICANTS, or -1 for the demo student. */
  index: number;
  average: number;
}

/** Answers of the demo form for an applicant: every question of a known type gets a plausible answer. */
function demoAnswers(sections: readonly FormSection[], applicant: DemoApplicant, documentIds: Record<string, string>) {
  const answers: OnBehalfSubmission['answers'] = {};
  for (const question of sections.flatMap((section) => section.questions)) {
    switch (question.type) {
      case 'long_text':
        answers[question.id] = applicant.why;
        break;
      case 'short_text':
        answers[question.id] = `${applicant.first_name} ${applicant.last_name}`;
        break;
      case 'number':
        answers[question.id] = applicant.average;
        break;
      case 'date':
        answers[question.id] = '2024-07-05';
        break;
      case 'country':
        answers[question.id] = applicant.country;
        break;
      case 'phone':
        answers[question.id] = applicant.phone;
        break;
      case 'yes_no':
        answers[question.id] = true;
        break;
      case 'single_choice':
        if (question.options?.[0]) answers[question.id] = question.options[0].id;
        break;
      case 'multiple_choice':
        if (question.options?.[0]) answers[question.id] = [question.options[0].id];
        break;
      case 'file': {
        const id = question.document_type ? documentIds[question.document_type] : undefined;
        if (id) answers[question.id] = id;
        break;
      }
    }
  }
  return answers;
}

/** The profile snapshot a submission keeps (the same keys the submit path writes). */
function profileOf(applicant: DemoApplicant, email: string) {
  return {
    first_name: applicant.first_name,
    last_name: applicant.last_name,
    preferred_name: applicant.first_name,
    email,
    phone: applicant.phone,
    date_of_birth: applicant.date_of_birth,
    gender: applicant.gender,
    nationality: applicant.nationality,
    country_of_residence: applicant.country,
    address: null,
    city: applicant.city,
    country: applicant.country,
    postal_code: null,
    education_level: 'high_school',
    last_school: applicant.school,
    graduation_year: 2024,
    gpa: null,
    major: null,
    degree_type: null,
    exam_sittings: [],
  };
}

const emailOf = (applicant: DemoApplicant) =>
  `${applicant.first_name}.${applicant.last_name}`
    .normalize('NFD')
    .replace(/[^A-Za-z.]/g, '')
    .toLowerCase() + '@applicants.kaminuza.example';

/** Stores the applicant's transcript and passport scan, and answers the documents the submission snapshots. */
async function documentsOf(db: Db, storage: Storage, userId: string, studentId: string, applicant: DemoApplicant) {
  const slug = applicant.last_name
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
  const uploads = [
    {
      type: 'transcript' as const,
      name: `transcript-${slug}.pdf`,
      mime: 'application/pdf' as const,
      bytes: samplePdf(`${applicant.first_name} ${applicant.last_name} - Secondary school transcript 2024`),
    },
    {
      type: 'passport' as const,
      name: `passport-${slug}.png`,
      mime: 'image/png' as const,
      bytes: samplePng(64, [40 + (applicant.average % 7) * 20, 90, 150]),
    },
  ];
  const snapshot = [];
  for (const upload of uploads) {
    const key = newStorageKey();
    await storage.put(key, Readable.from([upload.bytes]));
    const [file] = await db
      .insert(files)
      .values({
        owner_id: userId,
        storage_key: key,
        original_name: upload.name,
        mime_type: upload.mime,
        size: upload.bytes.length,
        sha256: createHash('sha256').update(upload.bytes).digest('hex'),
        purpose: 'document',
      })
      .returning({ id: files.id });
    const [document] = await db
      .insert(documents)
      .values({ student_id: studentId, type: upload.type, status: 'pending', file_id: file!.id })
      .returning({ id: documents.id });
    snapshot.push({
      type: upload.type,
      document_id: document!.id,
      file_id: file!.id,
      file_name: upload.name,
      status: 'pending',
    });
  }
  return snapshot;
}

interface Setup {
  partnerId: string;
  cycleId: string;
  form: ReturnType<typeof formSnapshot>;
  programs: Awaited<ReturnType<typeof openPrograms>>;
  fee: { amount: number; currency: string };
}

/**
 * One applicant's application, paid and submitted `daysAgo` days ago: the application row, its
 * succeeded payment, the submission and the student's lists, as the submit path leaves them.
 */
async function writeStudentSubmission(
  tx: DbOrTx,
  setup: Setup,
  input: {
    studentId: string;
    programIndex: number;
    profile: Record<string, unknown>;
    answers: Record<string, unknown>;
    daysAgo: number;
    now: Date;
  },
): Promise<string> {
  const program = setup.programs[input.programIndex % setup.programs.length]!;
  const campusId = program.campuses[0]!.id;
  const [rules] = await tx
    .select({ entry_rules: programs.entry_rules, requirements: programs.requirements })
    .from(programs)
    .where(eq(programs.id, program.id));
  const eligibility = eligibilityOfSubmission(
    rules!,
    (input.profile.exam_sittings as SubmittedSitting[] | undefined) ?? [],
  );
  const submittedAt = new Date(input.now.getTime() - input.daysAgo * DAY_MS).toISOString();
  const [application] = await tx
    .insert(applications)
    .values({
      student_id: input.studentId,
      partner_id: setup.partnerId,
      cycle_id: setup.cycleId,
      program_id: program.id,
      campus_id: campusId,
      form_id: setup.form.id,
      answers: input.answers,
      status: 'submitted',
      progress_percentage: 100,
      started_at: new Date(Date.parse(submittedAt) - 2 * DAY_MS).toISOString(),
      last_saved_at: submittedAt,
      submitted_at: submittedAt,
    })
    .returning({ id: applications.id });
  const id = application!.id;
  const [payment] = await tx
    .insert(payments)
    .values({
      application_id: id,
      student_id: input.studentId,
      partner_id: setup.partnerId,
      provider: 'sandbox',
      reference: `sbx_demo_${randomBytes(8).toString('hex')}`,
      amount: setup.fee.amount,
      currency: setup.fee.currency,
      status: 'succeeded',
      method: 'mobile_money',
      paid_at: submittedAt,
    })
    .returning({ id: payments.id });
  await tx.insert(submissions).values({
    id,
    reference: newReference(),
    student_id: input.studentId,
    partner_id: setup.partnerId,
    cycle_id: setup.cycleId,
    program_id: program.id,
    campus_id: campusId,
    form_id: setup.form.id,
    form_snapshot: setup.form,
    profile: input.profile,
    answers: checkedAnswers(setup.form.sections, input.answers),
    paid: true,
    amount: setup.fee.amount,
    currency: setup.fee.currency,
    payment_id: payment!.id,
    eligibility,
    created_at: submittedAt,
    updated_at: submittedAt,
  });
  await tx
    .update(students)
    .set({ completed_applications: sql`array_append(${students.completed_applications}, ${id}::uuid)` })
    .where(eq(students.id, input.studentId));
  return id;
}

/**
 * The demo institution's applications, written once (nothing happens while it has any submission): an
 * application from each demo applicant (one submitted on their behalf by staff) and one from the demo
 * student, submitted over the past weeks; its review settings (stages, rubric) and a second member who
 * reviews. Answers what was written, for the review that follows.
 */
export async function seedDemoSubmissions(
  db: Db,
  storage: Storage,
  partnerId: string,
  publicUrl: string,
  now = new Date(),
): Promise<{ submissions: SeededSubmission[]; reviewerId: string; staffId: string } | null> {
  if ((await db.$count(submissions, eq(submissions.partner_id, partnerId))) > 0) return null;
  const settings = await getSettings(db, partnerId);
  const cycleId = settings.general.current_cycle_id;
  if (!cycleId) return null;
  const programs = await openPrograms(db, partnerId, cycleId);
  if (programs.length === 0) return null;
  const form = formSnapshot(await applicationForm(db, partnerId, cycleId, programs[0]!.id));
  const setup: Setup = { partnerId, cycleId, form, programs, fee: feeOf(settings) };

  await db
    .update(partnerSettings)
    .set({
      admissions: sql`${partnerSettings.admissions} || ${JSON.stringify({ custom_stages: DEMO_STAGES, rubric: DEMO_RUBRIC })}::jsonb`,
    })
    .where(eq(partnerSettings.partner_id, partnerId));

  const [demoStaff] = await db
    .select({ id: staff.id })
    .from(staff)
    .innerJoin(users, eq(users.id, staff.user_id))
    .where(and(eq(users.email, DEMO_ACCOUNTS.find((a) => a.type === 'staff')!.email), eq(staff.partner_id, partnerId)));
  if (!demoStaff) return null;

  // Nobody signs in as the demo applicants or the second reviewer: their password is random and unknown.
  const unusable = await hashPassword(randomBytes(24).toString('base64url'));
  await createVerifiedAccount(db, {
    type: 'staff',
    email: DEMO_REVIEWER.email,
    firstName: DEMO_REVIEWER.firstName,
    lastName: DEMO_REVIEWER.lastName,
    passwordHash: unusable,
    partnerId,
    role: DEMO_REVIEWER.role,
    permissions: ['review_applications'],
    primaryContact: false,
  });
  const [reviewer] = await db.select({ id: staff.id }).from(staff).where(eq(staff.email, DEMO_REVIEWER.email));

  const seeded: SeededSubmission[] = [];
  for (const [index, applicant] of DEMO_APPLICANTS.entries()) {
    const email = emailOf(applicant);
    const daysAgo = 2 + ((index * 5) % 40);
    if (index === 7) {
      // Submitted by the admissions office for an applicant who came to the campus in person.
      const program = programs[index % programs.length]!;
      const { receipt } = await submitOnBehalf(
        db,
        partnerId,
        demoStaff.id,
        {
          applicant: {
            first_name: applicant.first_name,
            last_name: applicant.last_name,
            email,
            phone: applicant.phone,
            date_of_birth: applicant.date_of_birth,
            nationality: applicant.nationality,
          },
          program_id: program.id,
          campus_id: program.campuses[0]!.id,
          answers: demoAnswers(form.sections, applicant, {}),
        },
        null,
        publicUrl,
      );
      seeded.push({ id: receipt.id, index, average: applicant.average });
      continue;
    }
    const user = await createVerifiedAccount(db, {
      type: 'student',
      email,
      firstName: applicant.first_name,
      lastName: applicant.last_name,
      passwordHash: unusable,
    });
    const [student] = await db.select({ id: students.id }).from(students).where(eq(students.user_id, user!.id));
    const { exam_sittings: _none, ...profile } = profileOf(applicant, email);
    await db
      .update(students)
      .set({ ...profile, is_complete: true, profile_completion: 80 })
      .where(eq(students.id, student!.id));
    const snapshotDocuments = await documentsOf(db, storage, user!.id, student!.id, applicant);
    const sitting = demoSitting(applicant.country, applicant.average, index);
    await db.insert(examSittings).values({ ...sitting, student_id: student!.id, document_type: 'transcript' });
    const sittings = (await sittingsOf(db, student!.id)).map(submittedSitting);
    const id = await db.transaction((tx) =>
      writeStudentSubmission(tx, setup, {
        studentId: student!.id,
        programIndex: index,
        profile: {
          ...profile,
          documents: snapshotDocuments,
          exam_sittings: sittings,
        },
        answers: demoAnswers(
          form.sections,
          applicant,
          Object.fromEntries(snapshotDocuments.map((doc) => [doc.type, doc.document_id])),
        ),
        daysAgo,
        now,
      }),
    );
    seeded.push({ id, index, average: applicant.average });
  }

  const demoStudent = await demoStudentSubmission(db, setup, now);
  if (demoStudent) seeded.push(demoStudent);
  return { submissions: seeded, reviewerId: reviewer!.id, staffId: demoStaff.id };
}

/** The demo student's own application to the demo institution, with the documents of their profile. */
async function demoStudentSubmission(db: Db, setup: Setup, now: Date): Promise<SeededSubmission | null> {
  const email = DEMO_ACCOUNTS.find((account) => account.type === 'student')!.email;
  const [student] = await db.select().from(students).where(eq(students.email, email)).limit(1);
  if (!student?.first_name || !student.last_name) return null;
  const docs = await db
    .select({
      type: documents.type,
      document_id: documents.id,
      file_id: documents.file_id,
      file_name: files.original_name,
      status: documents.status,
    })
    .from(documents)
    .innerJoin(files, eq(files.id, documents.file_id))
    .where(eq(documents.student_id, student.id));
  const applicant: DemoApplicant = {
    first_name: student.first_name,
    last_name: student.last_name,
    gender: 'female',
    date_of_birth: student.date_of_birth ?? '2006-03-14',
    nationality: student.nationality ?? 'RW',
    city: student.city ?? 'Kigali',
    country: student.country ?? 'RW',
    phone: student.phone ?? '+250788123456',
    school: student.last_school ?? 'Lycée de Kigali',
    average: 87,
    why: 'I want to build software that helps Rwandan farmers sell their harvest at a fair price.',
  };
  const documentIds = Object.fromEntries(docs.map((doc) => [doc.type, doc.document_id]));
  const profile = {
    ...profileOf(applicant, email),
    address: student.address,
    documents: docs,
    exam_sittings: (await sittingsOf(db, student.id)).map(submittedSitting),
  };
  const id = await db.transaction((tx) =>
    writeStudentSubmission(tx, setup, {
      studentId: student.id,
      programIndex: 0,
      profile,
      answers: demoAnswers(setup.form.sections, applicant, documentIds),
      daysAgo: 21,
      now,
    }),
  );
  return { id, index: -1, average: applicant.average };
}

/** A reviewer's scores of an applicant: the criteria follow the applicant's record, each reader a little apart. */
function scoresFor(average: number, spread: number): Record<string, number> {
  const clamp = (value: number) => Math.max(0, Math.min(100, Math.round(value)));
  return { academic: clamp(average + spread), motivation: clamp(average - 4 + spread * 2), fit: clamp(average + 3) };
}

/**
 * The demo institution's review, done through the review and decision services as its staff would: the
 * applications of seedDemoSubmissions read, noted and scored by two members, moved along the stages,
 * decided, and some decisions released (their applicants are emailed and the offers carry letters). The
 * demo student's application is accepted and released, so the demo student has an offer to answer. Runs
 * once: nothing happens while the demo institution has any submission.
 */
export async function seedDemoReview(db: Db, storage: Storage, publicUrl: string): Promise<boolean> {
  const staffEmail = DEMO_ACCOUNTS.find((account) => account.type === 'staff')!.email;
  const [demoStaff] = await db
    .select({ partner_id: users.partner_id })
    .from(users)
    .innerJoin(partners, and(eq(partners.id, users.partner_id), eq(partners.is_demo, true)))
    .where(eq(users.email, staffEmail));
  // Only a demo institution receives demo applications, never a real one the demo member was attached to.
  if (!demoStaff?.partner_id) return false;
  const partnerId = demoStaff.partner_id;
  const seeded = await seedDemoSubmissions(db, storage, partnerId, publicUrl);
  if (!seeded) return false;

  const admin: StaffCaller = { staffId: seeded.staffId, partnerId, permissions: ['all'] };
  const reviewer: StaffCaller = { staffId: seeded.reviewerId, partnerId, permissions: ['review_applications'] };
  const adminContext = await reviewContext(db, admin);
  const reviewerContext = await reviewContext(db, reviewer);
  const toRelease: string[] = [];

  for (const submission of seeded.submissions) {
    const state: DemoReviewState =
      submission.index < 0
        ? { kind: 'released', state: 'accepted', notes: ['Excellent mathematics; a clear plan for her studies.'] }
        : DEMO_REVIEW_STATES[submission.index]!;
    if (state.kind === 'new') continue;
    for (const body of state.notes) await addNote(db, adminContext, submission.id, { body });
    await saveScore(db, reviewerContext, submission.id, { criteria: scoresFor(submission.average, -2) });
    if (state.kind === 'in_review') {
      if (state.stage) await updateReview(db, adminContext, submission.id, { stage_id: state.stage });
      if (state.assigned) await updateReview(db, adminContext, submission.id, { assigned_to: seeded.reviewerId });
      continue;
    }
    await saveScore(db, adminContext, submission.id, { criteria: scoresFor(submission.average, 1) });
    const [transcript] = await db
      .select({ profile: submissions.profile })
      .from(submissions)
      .where(eq(submissions.id, submission.id));
    const documentId = (transcript?.profile.documents as { type: string; document_id: string }[] | undefined)?.find(
      (document) => document.type === 'transcript',
    )?.document_id;
    if (documentId && submission.index >= 0) {
      await reviewDocument(db, adminContext, submission.id, documentId, { status: 'verified' });
    }
    await draftDecision(
      db,
      admin,
      submission.id,
      { state: state.state, message: '', conditions: [], reply_by: null, override_capacity: false },
      publicUrl,
    );
    if (state.kind === 'released') toRelease.push(submission.id);
  }
  await releaseDecisions(db, admin, { submission_ids: toRelease, when: 'now', override_capacity: false }, publicUrl);
  return true;
}
