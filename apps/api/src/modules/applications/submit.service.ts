import { and, eq, sql } from 'drizzle-orm';
import {
  ANSWER_MESSAGES,
  APPLICATION_MESSAGES as A,
  formProgress,
  type SubmittedSitting,
  type FormSection,
  type SubmissionReceipt,
  type SubmitApplication,
  REFEREE_MESSAGES,
  VALIDATION_MESSAGES,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import {
  applications,
  campuses,
  cycles,
  documents,
  examSittings,
  files,
  forms,
  partnerSettings,
  partners,
  payments,
  programCampuses,
  programs,
  students,
} from '../../db/schema/index.ts';
import { perConnection, preparedSql } from '../../db/per-database.ts';
import { uniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { claimIdempotencyKey, keyReused, requestFingerprint, sameRequest } from '../../lib/idempotency.ts';
import type { DbOrTx } from '../../db/client.ts';
import { studentIdOf } from '../documents/index.ts';
import { formSnapshot } from '../forms/index.ts';
import { storedSettings } from '../partner-settings/index.ts';
import { checkedAnswers, submissionByKey, submissionReceipt, writeSubmission } from '../submissions/index.ts';
import { applicationsOpen, feeOf } from '../catalogue/index.ts';
import { feeWaivedCondition } from '../waivers/index.ts';
import { staleDraft } from './drafts.service.ts';
import { eligibilityDecision, eligibilityOfSubmission } from '../eligibility/index.ts';
import { invitedRefereesOf, refereeAnswers } from '../referees/index.ts';

/* Submitting (spec sections 7–8): the draft becomes a submission, once. */

/** What a submission keeps of the applicant (spec section 3: a snapshot of the applicant's details). */
const applicantColumns = {
  first_name: students.first_name,
  last_name: students.last_name,
  preferred_name: students.preferred_name,
  email: students.email,
  phone: students.phone,
  date_of_birth: students.date_of_birth,
  gender: students.gender,
  nationality: students.nationality,
  country_of_residence: students.country_of_residence,
  address: students.address,
  city: students.city,
  country: students.country,
  postal_code: students.postal_code,
  education_level: students.education_level,
  last_school: students.last_school,
  graduation_year: students.graduation_year,
  gpa: students.gpa,
  major: students.major,
  degree_type: students.degree_type,
  exam_sittings: sql<SubmittedSitting[]>`coalesce((
    select json_agg(json_build_object('id', s.id, 'exam', s.exam, 'other_name', s.other_name, 'year', s.year,
      'index_number', s.index_number, 'results', s.results, 'declared', s.declared, 'overall', s.overall,
      'document_type', s.document_type, 'verified', s.verified_at is not null) order by s.year desc, s.created_at, s.id)
    from ${examSittings} s where s.student_id = ${students.id}), '[]'::json)`,
};

interface SnapshotDocument {
  type: string;
  document_id: string;
  file_id: string;
  file_name: string;
  status: string;
}

/** The applicant's documents as the submission keeps them, read in the same query as the application. */
const applicantDocuments = sql<SnapshotDocument[]>`coalesce((
  select json_agg(json_build_object('type', d.type, 'document_id', d.id, 'file_id', d.file_id,
    'file_name', f.original_name, 'status', d.status) order by d.type)
  from ${documents} d join ${files} f on f.id = d.file_id
  where d.student_id = ${students.id}), '[]'::json)`;

/** The application's paid fee, if any (what succeededPaymentOf answers), in the same query. */
const paidFeeOfApplication = sql<{ id: string; amount: number; currency: string } | null>`(
  select json_build_object('id', p.id, 'amount', p.amount, 'currency', p.currency)
  from ${payments} p where p.application_id = ${applications.id} and p.status = 'succeeded' limit 1)`;

/** File questions are answered with the applicant's own documents: any other id is refused per question. */
function assertOwnDocuments(
  sections: readonly FormSection[],
  answers: Record<string, unknown>,
  documents: ReadonlyArray<{ document_id: string }>,
): void {
  const own = new Set(documents.map((document) => document.document_id));
  const details = sections
    .flatMap((section) => section.questions)
    .filter((question) => question.type === 'file' && question.id in answers && !own.has(String(answers[question.id])))
    .map((question) => ({ path: question.id, message: ANSWER_MESSAGES.document_invalid }));
  if (details.length > 0) throw new AppError('INVALID_ARGUMENT', VALIDATION_MESSAGES.general, details);
}

/**
 * The caller's application locked for its submission, with everything the submission needs read in the
 * same query (applicant, documents, settings, cycle, form, names, paid fee): on deadline day every round
 * trip to the database counts. Concurrent submits of one application queue on the row lock. Built once
 * per database and run on the transaction's connection (perConnection, ADR 047).
 */
function prepareLockForSubmission(db: DbOrTx) {
  return (
    db
      .select({
        id: applications.id,
        student_id: applications.student_id,
        partner_id: applications.partner_id,
        cycle_id: applications.cycle_id,
        program_id: applications.program_id,
        campus_id: applications.campus_id,
        form_id: applications.form_id,
        status: applications.status,
        version: applications.version,
        last_saved_at: applications.last_saved_at,
        applicant: applicantColumns,
        language: students.language,
        documents: applicantDocuments,
        paid_fee: paidFeeOfApplication,
        fee_waived: feeWaivedCondition(applications.id),
        referees: invitedRefereesOf(applications.id),
        general: partnerSettings.general,
        theme: partnerSettings.theme,
        admissions: partnerSettings.admissions,
        cycle: { name: cycles.name, status: cycles.status, opens_on: cycles.opens_on, closes_on: cycles.closes_on },
        form: { id: forms.id, name: forms.name, version: forms.version, sections: forms.sections },
        partner_name: partners.name,
        program_name: programs.name,
        entry_rules: programs.entry_rules,
        program_requirements: programs.requirements,
        campus_name: campuses.name,
        campus_offered: sql<boolean>`exists (select 1 from ${programCampuses} pc where pc.program_id = ${applications.program_id} and pc.campus_id = ${applications.campus_id})`,
      })
      .from(applications)
      .innerJoin(
        students,
        and(eq(students.id, applications.student_id), eq(students.user_id, sql.placeholder('userId'))),
      )
      .innerJoin(partners, eq(partners.id, applications.partner_id))
      .innerJoin(cycles, eq(cycles.id, applications.cycle_id))
      .innerJoin(programs, eq(programs.id, applications.program_id))
      .leftJoin(campuses, eq(campuses.id, applications.campus_id))
      .leftJoin(forms, and(eq(forms.id, applications.form_id), eq(forms.partner_id, applications.partner_id)))
      .leftJoin(partnerSettings, eq(partnerSettings.partner_id, applications.partner_id))
      .where(eq(applications.id, sql.placeholder('applicationId')))
      .limit(1)
      .for('update', { of: applications })
      // A named statement: each connection plans this eight-table join once, not on every submit.
      .prepare('lock_application_for_submission')
  );
}

const lockStatement = perConnection(prepareLockForSubmission);

const GENERIC_PLANS = sql`set local plan_cache_mode = force_generic_plan`;

async function lockForSubmission(tx: DbOrTx, userId: string, applicationId: string) {
  const [row] = await lockStatement(tx).execute({ userId, applicationId });
  return row ?? null;
}

/**
 * The application marked submitted and its id moved between the student's lists, in one statement;
 * built once per database (perConnection, ADR 047), so the columns Drizzle would compute on update are
 * set here (`updated_at`).
 */
function prepareMarkSubmitted(db: DbOrTx) {
  const value = sql.placeholder;
  const submitted = db
    .update(applications)
    .set({
      status: 'submitted',
      answers: sql`${value('answers')}::jsonb`,
      progress_percentage: sql`${value('progress')}::int`,
      version: sql`${applications.version} + 1`,
      submitted_at: sql`now()`,
      last_saved_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where(
      and(
        eq(applications.id, value('applicationId')),
        eq(applications.student_id, value('studentId')),
        eq(applications.status, 'in_progress'),
      ),
    );
  const moved = db
    .update(students)
    .set({
      current_applications: sql`array_remove(${students.current_applications}, ${value('applicationId')}::uuid)`,
      completed_applications: sql`case when ${value('applicationId')}::uuid = any(${students.completed_applications}) then ${students.completed_applications} else array_append(${students.completed_applications}, ${value('applicationId')}::uuid) end`,
      last_activity: sql`now()`,
      updated_at: sql`now()`,
    })
    .where(eq(students.id, value('studentId')));
  return preparedSql(
    db,
    'mark_application_submitted',
    sql`with submitted as (${submitted.getSQL()}) ${moved.getSQL()}`,
  );
}

const markStatement = perConnection(prepareMarkSubmitted);

/**
 * Submits the application in one transaction (spec sections 3–5): the row is locked first, so
 * concurrent submits run one after the other and the later ones see it submitted. A request with the
 * Idempotency-Key of the submission already made and the same body answers its receipt again
 * (`created` false); with another body or for another application, 422; while the key's first request
 * is still running, 409 (lib/idempotency.ts).
 * Round trips: the plan setting, the locking read, the submission with its receipt email, the moves, and
 * the commit; with a key, one more for claiming it.
 */
export async function submitApplication(
  db: Db,
  userId: string,
  applicationId: string,
  input: SubmitApplication,
  idempotencyKey: string | null,
  publicUrl: string,
): Promise<{ created: boolean; receipt: SubmissionReceipt }> {
  const idempotency = idempotencyKey
    ? {
        key: idempotencyKey,
        fingerprint: requestFingerprint({ action: 'submit', target: { application_id: applicationId }, body: input }),
      }
    : null;
  const attempt = (keyMayBeUsed: boolean) =>
    db.transaction(async (tx) => {
      // The submit's named statements keep one generic plan per connection (planning the eight-table lock
      // with its values on every deadline-day submit cost more than running it); every other query of the
      // connection is still planned with its values.
      await tx.execute(GENERIC_PLANS);
      if (idempotency) await claimIdempotencyKey(tx, 'submit', idempotency.key);
      const row = await lockForSubmission(tx, userId, applicationId);
      if (!row) {
        // Students without a student record get the spec's message rather than a bare 404.
        if (!(await studentIdOf(tx, userId))) throw new AppError('NOT_FOUND', A.student_required);
        throw new AppError('NOT_FOUND');
      }
      if (row.status === 'submitted' || keyMayBeUsed) {
        const earlier = await alreadyAnswered(tx, row.id, row.partner_id, idempotency);
        if (earlier) return earlier;
        if (row.status === 'submitted')
          throw new AppError('ABORTED', A.already_submitted, undefined, { reason: 'already_submitted' });
      }

      const settings = storedSettings(row);
      if (!applicationsOpen(settings.general, row.cycle_id, row.cycle))
        throw new AppError('ABORTED', A.cycle_closed, undefined, { reason: 'cycle_closed' });
      if (row.version !== input.version) {
        throw staleDraft({ version: row.version, last_saved_at: row.last_saved_at });
      }
      if (!row.campus_id || row.campus_name === null) throw new AppError('INVALID_ARGUMENT', A.campus_required);
      // The institution may have stopped teaching the program at the chosen campus since.
      if (!row.campus_offered) throw new AppError('INVALID_ARGUMENT', A.campus_not_offered);
      if (!row.form) throw new AppError('NOT_FOUND', A.form_not_found.replace('{id}', row.form_id));
      const form = formSnapshot(row.form);
      // Referees questions are answered with the referees the applicant invited, as recorded here.
      const invited = refereeAnswers(form.sections, row.referees);
      const answers = checkedAnswers(form.sections, { ...input.answers, ...invited.answers });
      if (invited.missingLetters)
        throw new AppError('ABORTED', REFEREE_MESSAGES.letters_missing, undefined, { reason: 'letters_missing' });
      assertOwnDocuments(form.sections, answers, row.documents);
      const fee = feeOf(settings);
      const payment = fee.amount > 0 ? row.paid_fee : null;
      // An approved fee waiver (a code, or a request staff approved) stands in for the payment.
      const waived = fee.amount > 0 && !payment && row.fee_waived;
      if (fee.amount > 0 && !payment && !waived) throw new AppError('ABORTED', A.payment_required);

      // Eligibility as the results stand now, kept with the submission for the queue (issue 25).
      const eligibility = eligibilityOfSubmission(
        { entry_rules: row.entry_rules, requirements: row.program_requirements },
        row.applicant.exam_sittings,
      );
      const receipt = await writeSubmission(tx, {
        id: row.id,
        partnerId: row.partner_id,
        cycleId: row.cycle_id,
        programId: row.program_id,
        campusId: row.campus_id,
        names: { partner: row.partner_name, cycle: row.cycle.name, program: row.program_name, campus: row.campus_name },
        form,
        profile: { ...row.applicant, documents: row.documents },
        answers,
        studentId: row.student_id,
        staffId: null,
        payment: payment
          ? { paid: true, amount: payment.amount, currency: payment.currency, payment_id: payment.id, waived: false }
          : { paid: false, amount: 0, currency: fee.currency, payment_id: null, waived },
        idempotency,
        eligibility,
        autoDecide: eligibilityDecision(settings.admissions, eligibility) !== null,
        receipt: { to: row.applicant.email, language: row.language, publicUrl },
      });
      await markStatement(tx).execute({
        answers: JSON.stringify(answers),
        progress: formProgress(form.sections, answers),
        applicationId: row.id,
        studentId: row.student_id,
      });
      return { created: true, receipt };
    });
  try {
    return await attempt(false);
  } catch (error) {
    // A racing transaction committed the submission first, or the key was already used: answer as a retry would.
    const index = uniqueViolation(error);
    if (index === 'submissions_pkey' || index === 'submissions_partner_idempotency_unique') return attempt(true);
    throw error;
  }
}

/**
 * A retried submit: the same key and body for this application's submission answer it again; a key
 * the institution already saw for another request (another body, application or submitter) is 422.
 */
async function alreadyAnswered(
  tx: DbOrTx,
  applicationId: string,
  partnerId: string,
  idempotency: { key: string; fingerprint: string } | null,
): Promise<{ created: boolean; receipt: SubmissionReceipt } | null> {
  if (!idempotency) return null;
  const earlier = await submissionByKey(tx, partnerId, idempotency.key);
  if (!earlier) return null;
  const legacyMatch = earlier.id === applicationId;
  if (!sameRequest(earlier.idempotency_fingerprint, idempotency.fingerprint, legacyMatch)) throw keyReused();
  return { created: false, receipt: await submissionReceipt(tx, earlier.id) };
}

/** The receipt of the student's submitted application; 404 until it is submitted. */
export async function ownSubmission(db: Db, userId: string, applicationId: string): Promise<SubmissionReceipt> {
  const studentId = await studentIdOf(db, userId);
  if (!studentId) throw new AppError('NOT_FOUND');
  return submissionReceipt(db, applicationId, studentId);
}
