import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import {
  APPLICATION_MESSAGES as A,
  answersSchema,
  formProgress,
  VALIDATION_MESSAGES,
  type FormSection,
  type FormSnapshot,
  type OnBehalfForm,
  type OnBehalfSetup,
  type OnBehalfSubmission,
  type SubmissionEligibility,
  type SubmissionReceipt,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { campuses, cycles, emailOutbox, partners, programs, submissions } from '../../db/schema/index.ts';
import { perConnection, preparedSql } from '../../db/per-database.ts';
import { uniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { claimIdempotencyKey, keyReused, requestFingerprint, sameRequest } from '../../lib/idempotency.ts';
import type { DbOrTx } from '../../db/client.ts';
import { outboxEmail } from '../email/index.ts';
import { getSettings } from '../partner-settings/index.ts';
import {
  applicationForm,
  applyCycle,
  chosenCampus,
  feeOf,
  openCurrentCycle,
  openProgram,
  openPrograms,
} from '../catalogue/index.ts';
import { claimForApplicantAccount } from './on-behalf-account.ts';

/* ---------------------------------------------------------------- references */

/** Crockford's base32: no I, L, O or U, so a reference read aloud or retyped is not misread. */
const REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `KZ-XXXX-XXXX`: 40 random bits, short enough to read out on the phone. */
export function newReference(): string {
  const chars = [...randomBytes(8)].map((byte) => REFERENCE_ALPHABET[byte & 31]).join('');
  return `KZ-${chars.slice(0, 4)}-${chars.slice(4)}`;
}

/** How often a colliding reference is drawn again before giving up (40 bits: practically never). */
const REFERENCE_ATTEMPTS = 5;

/* ---------------------------------------------------------------- answers */

/**
 * The answers as submitted: checked against the form's questions (unknown ids dropped, empties
 * stripped), or 400 with one issue per question id, as other validation errors are answered.
 */
/**
 * The answers' schema of each form recently submitted to, by its sections' text: building a Zod schema
 * for every question costs more than checking answers with it, and on deadline day hundreds of
 * submissions a minute go to the same few forms. An edited form has other text, so another schema.
 */
const schemaOfForm = new Map<string, ReturnType<typeof answersSchema>>();
const SCHEMAS_KEPT = 64;

function formAnswersSchema(sections: readonly FormSection[]): ReturnType<typeof answersSchema> {
  const key = JSON.stringify(sections);
  let schema = schemaOfForm.get(key);
  if (!schema) {
    if (schemaOfForm.size >= SCHEMAS_KEPT) schemaOfForm.delete(schemaOfForm.keys().next().value!);
    schemaOfForm.set(key, (schema = answersSchema(sections)));
  }
  return schema;
}

export function checkedAnswers(sections: readonly FormSection[], answers: unknown): Record<string, unknown> {
  const result = formAnswersSchema(sections).safeParse(answers);
  if (result.success) {
    return Object.fromEntries(Object.entries(result.data).filter(([, value]) => value !== undefined));
  }
  const details = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  throw new AppError('INVALID_ARGUMENT', VALIDATION_MESSAGES.general, details);
}

/** A form without its file questions (staff submitting on behalf hold no applicant's documents). */
export function withoutFileQuestions(sections: readonly FormSection[]): FormSection[] {
  return sections
    .map((section) => ({ ...section, questions: section.questions.filter((question) => question.type !== 'file') }))
    .filter((section) => section.questions.length > 0);
}

/* ---------------------------------------------------------------- receipts */

/** A submission's receipt; `studentId` restricts it to that student's own (others are 404). */
export async function submissionReceipt(
  db: DbOrTx,
  submissionId: string,
  studentId?: string,
): Promise<SubmissionReceipt> {
  const [row] = await db
    .select({
      id: submissions.id,
      reference: submissions.reference,
      partner_id: submissions.partner_id,
      partner_name: partners.name,
      cycle_name: cycles.name,
      program_name: programs.name,
      campus_name: campuses.name,
      submitted_at: submissions.created_at,
      submitted_by_staff: submissions.submitted_by_staff,
      profile: submissions.profile,
      paid: submissions.paid,
      amount: submissions.amount,
      currency: submissions.currency,
      payment_id: submissions.payment_id,
      waived: submissions.fee_waived,
    })
    .from(submissions)
    .innerJoin(partners, eq(partners.id, submissions.partner_id))
    .innerJoin(campuses, eq(campuses.id, submissions.campus_id))
    .leftJoin(cycles, eq(cycles.id, submissions.cycle_id))
    .leftJoin(programs, eq(programs.id, submissions.program_id))
    .where(and(eq(submissions.id, submissionId), studentId ? eq(submissions.student_id, studentId) : undefined))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  const { profile, paid, amount, currency, payment_id, waived, submitted_at, ...receipt } = row;
  const name = [profile.first_name, profile.last_name].filter((part) => typeof part === 'string' && part).join(' ');
  return {
    ...receipt,
    cycle_name: receipt.cycle_name ?? '',
    program_name: receipt.program_name ?? '',
    // The same instant the first answer gave, in the same ISO form, whichever way the row is read back.
    submitted_at: new Date(submitted_at).toISOString(),
    applicant_name: name,
    payment: { paid, amount, currency, payment_id, waived },
  };
}

/** The receipt of the submission an Idempotency-Key already made for this institution, if any. */
export async function submissionByKey(db: DbOrTx, partnerId: string, key: string) {
  const [row] = await db
    .select({
      id: submissions.id,
      student_id: submissions.student_id,
      staff_id: submissions.staff_id,
      submitted_by_staff: submissions.submitted_by_staff,
      idempotency_fingerprint: submissions.idempotency_fingerprint,
    })
    .from(submissions)
    .where(and(eq(submissions.partner_id, partnerId), eq(submissions.idempotency_key, key)))
    .limit(1);
  return row ?? null;
}

/* ---------------------------------------------------------------- the writer */

export interface NewSubmission {
  /** A student's submission takes its application's id; one on behalf gets a new one. */
  id?: string;
  partnerId: string;
  cycleId: string;
  programId: string;
  campusId: string;
  /** What the receipt names, as the caller already read them. */
  names: { partner: string; cycle: string; program: string; campus: string };
  form: FormSnapshot;
  profile: Record<string, unknown>;
  answers: Record<string, unknown>;
  studentId: string | null;
  staffId: string | null;
  /** `waived` when an approved fee waiver stands in for the payment. */
  payment: { paid: boolean; amount: number; currency: string; payment_id: string | null; waived?: boolean };
  /** The request's Idempotency-Key and fingerprint (lib/idempotency.ts), remembered with the submission. */
  idempotency: { key: string; fingerprint: string } | null;
  /** Eligibility for the program as the applicant's results stood (issue 25); null when not computed. */
  eligibility: SubmissionEligibility | null;
  /** Whether a job drafts the automatic decision on that eligibility (the institution decides on it). */
  autoDecide: boolean;
  /**
   * Who the receipt email goes to, in which language, and the site it links to; a submission on behalf
   * that joined a student's account tells them so with its own template.
   */
  receipt: { to: string; language: string; publicUrl: string; template?: 'submission_receipt' | 'submitted_on_behalf' };
}

/**
 * The submission with its receipt email in ONE statement: the outbox row (rendered at its delivery, ADR
 * 048) is inserted only if the submission was. A reference already taken inserts neither and answers no row. Built once per database
 * and run on the transaction's connection (perConnection, ADR 047): Drizzle's building of this insert
 * cost more than PostgreSQL's running it.
 */
function prepareWriteSubmission(db: DbOrTx) {
  const value = sql.placeholder;
  const written = db
    .insert(submissions)
    .values({
      id: value('id'),
      reference: value('reference'),
      student_id: value('studentId'),
      staff_id: value('staffId'),
      submitted_by_staff: value('byStaff'),
      partner_id: value('partnerId'),
      cycle_id: value('cycleId'),
      program_id: value('programId'),
      campus_id: value('campusId'),
      form_id: value('formId'),
      form_snapshot: value('form'),
      profile: value('profile'),
      answers: value('answers'),
      paid: value('paid'),
      amount: value('amount'),
      currency: value('currency'),
      payment_id: value('paymentId'),
      fee_waived: value('waived'),
      idempotency_key: value('key'),
      idempotency_fingerprint: value('fingerprint'),
      eligibility: value('eligibility'),
      auto_decide: value('autoDecide'),
      created_at: value('submittedAt'),
      updated_at: value('submittedAt'),
    })
    // Only a reference collision is skipped here; any other conflict (the id, the key) is the caller's.
    .onConflictDoNothing({ target: submissions.reference })
    .returning({ id: submissions.id });
  return preparedSql<{ id: string }>(
    db,
    'write_submission',
    sql`
      with written as (${written.getSQL()}),
      mailed as (
        insert into ${emailOutbox} ("to", "from", "template", "language", "data")
        select ${value('mailTo')}, ${value('mailFrom')}, ${value('mailTemplate')}, ${value('mailLanguage')},
               ${value('mailData')}::jsonb
        from written
      )
      select id from written`,
  );
}

const writeStatement = perConnection(prepareWriteSubmission);

/**
 * Writes a submission in the caller's transaction together with its receipt email, in one statement
 * (prepareWriteSubmission): a rolled-back submission never mails anyone, and a deadline-day submit costs
 * as few round trips as possible. The reference is drawn again on the rare collision. Answers the receipt.
 */
export async function writeSubmission(tx: DbOrTx, input: NewSubmission): Promise<SubmissionReceipt> {
  const applicantName = [input.profile.first_name, input.profile.last_name]
    .filter((part) => typeof part === 'string' && part)
    .join(' ');
  for (let attempt = 0; attempt < REFERENCE_ATTEMPTS; attempt += 1) {
    const reference = newReference();
    const submittedAt = new Date().toISOString();
    const receipt: SubmissionReceipt = {
      id: input.id ?? randomUUID(),
      reference,
      partner_id: input.partnerId,
      partner_name: input.names.partner,
      cycle_name: input.names.cycle,
      program_name: input.names.program,
      campus_name: input.names.campus,
      submitted_at: submittedAt,
      submitted_by_staff: input.staffId !== null,
      applicant_name: applicantName,
      payment: { ...input.payment, waived: input.payment.waived ?? false },
    };
    const mail = outboxEmail({
      to: input.receipt.to,
      template: input.receipt.template ?? 'submission_receipt',
      language: input.receipt.language,
      data: {
        name: applicantName,
        institution_name: receipt.partner_name,
        program_name: receipt.program_name,
        campus_name: receipt.campus_name,
        reference,
        submitted_on: submittedAt.slice(0, 10),
        link: new URL(`/partners/${input.partnerId}/application/submitted`, input.receipt.publicUrl).toString(),
      },
    });
    const { rows } = await writeStatement(tx).execute({
      id: receipt.id,
      reference,
      studentId: input.studentId,
      staffId: input.staffId,
      byStaff: receipt.submitted_by_staff,
      partnerId: input.partnerId,
      cycleId: input.cycleId,
      programId: input.programId,
      campusId: input.campusId,
      formId: input.form.id,
      form: input.form,
      profile: input.profile,
      answers: input.answers,
      paid: input.payment.paid,
      amount: input.payment.amount,
      currency: input.payment.currency,
      paymentId: input.payment.payment_id,
      waived: receipt.payment.waived,
      key: input.idempotency?.key ?? null,
      fingerprint: input.idempotency?.fingerprint ?? null,
      eligibility: input.eligibility,
      autoDecide: input.autoDecide,
      submittedAt,
      mailTo: mail.to,
      mailFrom: mail.from,
      mailTemplate: mail.template,
      mailLanguage: mail.language,
      mailData: JSON.stringify(mail.data),
    });
    if (rows.length > 0) return receipt;
  }
  throw new Error('no free submission reference after several attempts');
}

/* ---------------------------------------------------------------- on behalf (spec section 6) */

/** The current cycle and the programs open in it (none without a current cycle). */
export async function onBehalfSetup(db: Db, partnerId: string): Promise<OnBehalfSetup> {
  const { general } = await getSettings(db, partnerId);
  const cycle = await applyCycle(db, partnerId, general.current_cycle_id, general.timezone);
  return { cycle, programs: cycle ? await openPrograms(db, partnerId, cycle.id) : [] };
}

/** The form a staff member fills for a program: its questions without the file questions. */
export async function onBehalfForm(db: Db, partnerId: string, programId: string): Promise<OnBehalfForm> {
  const settings = await getSettings(db, partnerId);
  const cycle = await openCurrentCycle(db, partnerId, settings);
  const program = await openProgram(db, partnerId, cycle.id, programId);
  const form = await applicationForm(db, partnerId, cycle.id, program.id);
  return { cycle, program, form: { ...form, sections: withoutFileQuestions(form.sections) } };
}

/**
 * A staff member's submission for a named applicant: the same cycle, program, campus and form rules
 * as a student's; unpaid, submitted_by_staff, staff_id set, no student. An Idempotency-Key already used
 * by this member for the same body answers its submission again (`created` false); the key on another
 * request is 422, and while its first request runs, 409 (lib/idempotency.ts).
 */
export async function submitOnBehalf(
  db: Db,
  partnerId: string,
  staffId: string,
  input: OnBehalfSubmission,
  idempotencyKey: string | null,
  publicUrl: string,
): Promise<{ created: boolean; receipt: SubmissionReceipt }> {
  const idempotency = idempotencyKey
    ? {
        key: idempotencyKey,
        fingerprint: requestFingerprint({
          action: 'submit_on_behalf',
          target: { partner_id: partnerId, staff_id: staffId },
          body: input,
        }),
      }
    : null;
  const attempt = () =>
    db.transaction(async (tx) => {
      if (idempotency) {
        await claimIdempotencyKey(tx, 'submit', idempotency.key);
        const earlier = await submissionByKey(tx, partnerId, idempotency.key);
        if (earlier) return replay(tx, earlier, staffId, idempotency.fingerprint);
      }
      const settings = await getSettings(tx, partnerId);
      const cycle = await openCurrentCycle(tx, partnerId, settings);
      const program = await openProgram(tx, partnerId, cycle.id, input.program_id);
      if (!input.campus_id) throw new AppError('INVALID_ARGUMENT', A.campus_required);
      const campusId = chosenCampus(program, input.campus_id)!;
      const form = await applicationForm(tx, partnerId, cycle.id, program.id);
      const [partner] = await tx.select({ name: partners.name }).from(partners).where(eq(partners.id, partnerId));
      const answers = checkedAnswers(withoutFileQuestions(form.sections), input.answers);
      // Staff are answered alike whether or not this finds an account: only the applicant learns of it.
      const claimed = await claimForApplicantAccount(tx, {
        email: input.applicant.email,
        partnerId,
        cycleId: cycle.id,
        programId: program.id,
        campusId,
        formId: form.id,
        answers,
        progress: formProgress(form.sections, answers),
      });
      const receipt = await writeSubmission(tx, {
        ...(claimed ? { id: claimed.applicationId } : {}),
        partnerId,
        cycleId: cycle.id,
        programId: program.id,
        campusId,
        names: {
          partner: partner?.name ?? '',
          cycle: cycle.name,
          program: program.name,
          campus: program.campuses.find((campus) => campus.id === campusId)?.name ?? '',
        },
        form,
        profile: { ...input.applicant },
        answers,
        studentId: claimed?.account.studentId ?? null,
        staffId,
        payment: { paid: false, amount: 0, currency: feeOf(settings).currency, payment_id: null },
        idempotency,
        // Staff type the applicant in without examination results: eligibility is theirs to judge.
        eligibility: null,
        autoDecide: false,
        receipt: claimed
          ? {
              to: claimed.account.email,
              language: claimed.account.language,
              publicUrl,
              template: 'submitted_on_behalf',
            }
          : { to: input.applicant.email, language: settings.general.default_language, publicUrl },
      });
      return { created: true, receipt };
    });
  try {
    return await attempt();
  } catch (error) {
    // A racing request with the same key committed first: answer what it made.
    if (idempotency && uniqueViolation(error) === 'submissions_partner_idempotency_unique') {
      const earlier = await submissionByKey(db, partnerId, idempotency.key);
      if (earlier) return replay(db, earlier, staffId, idempotency.fingerprint);
    }
    throw error;
  }
}

async function replay(
  db: DbOrTx,
  earlier: NonNullable<Awaited<ReturnType<typeof submissionByKey>>>,
  staffId: string,
  fingerprint: string,
): Promise<{ created: boolean; receipt: SubmissionReceipt }> {
  const legacyMatch = earlier.submitted_by_staff && earlier.staff_id === staffId;
  if (!sameRequest(earlier.idempotency_fingerprint, fingerprint, legacyMatch)) throw keyReused();
  return { created: false, receipt: await submissionReceipt(db, earlier.id) };
}
