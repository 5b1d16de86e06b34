import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, asc, eq, inArray, isNotNull, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  REFEREE_LINK_DAYS,
  REFEREE_MESSAGES as R,
  REFERENCE_LETTER_MAX_BYTES,
  type FormSection,
  type Language,
  type Question,
  type Referee,
  type RefereeInvite,
  type ReferenceRequest,
  type ReferenceSubmit,
  type StaffReferee,
} from '@kaminuza/shared';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { applications, forms, partners, programs, referees, students, submissions } from '../../db/schema/index.ts';
import { uniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { safeFileName } from '../../lib/file-name.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { studentIdOf } from '../documents/index.ts';
import { emailLanguage, enqueueEmail, longDate } from '../email/index.ts';
import { notify } from '../notifications/index.ts';
import { sniffMimeType } from '../uploads/index.ts';
import { readRefereeToken, refereeLink, refereeToken } from './referee-links.ts';

/* Referees and their references (issue 26, ADR 054). */

const DAY_MS = 86_400_000;
const LINK_MS = REFEREE_LINK_DAYS * DAY_MS;
/** A referee is sent the invitation again at most once an hour, whoever asks. */
const RESEND_GAP_MS = 60 * 60_000;

export interface RefereeDeps {
  db: Db;
  publicUrl: string;
  /** Signs referees' links (the server's secret). */
  secret: string;
  storage: Storage;
}

type RefereeRow = typeof referees.$inferSelect;

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());
const expiredAt = (row: Pick<RefereeRow, 'expires_at' | 'submitted_at'>, now: Date) =>
  row.submitted_at === null && Date.parse(row.expires_at) <= now.getTime();

function statusOf(row: RefereeRow): Referee['status'] {
  if (row.submitted_at) return 'submitted';
  return row.opened_at ? 'opened' : 'invited';
}

function letterOf(row: RefereeRow): Referee['letter'] {
  if (!row.submitted_at) return null;
  return { text: row.letter_text, file_name: row.letter_storage_key ? row.letter_file_name : null };
}

/** A referee as the applicant sees them: the letter only when they did not waive reading it. */
function toReferee(row: RefereeRow, now = new Date()): Referee {
  return {
    id: row.id,
    question_id: row.question_id,
    kind: row.kind,
    name: row.name,
    title: row.title,
    organization: row.organization,
    email: row.email,
    phone: row.phone,
    waived: row.waived,
    language: row.language,
    status: statusOf(row),
    expired: expiredAt(row, now),
    invited_at: iso(row.invited_at)!,
    opened_at: iso(row.opened_at),
    submitted_at: iso(row.submitted_at),
    letter: row.waived ? null : letterOf(row),
  };
}

/** The applicant as the referee knows them: the name they go by, then their family name. */
const applicantName = sql<string>`trim(coalesce(nullif(${students.preferred_name}, ''), ${students.first_name}) || ' ' || ${students.last_name})`;

/** The referees questions of a form. */
export function refereeQuestions(sections: readonly FormSection[]) {
  return sections
    .flatMap((section) => section.questions)
    .filter((question): question is Extract<Question, { type: 'referees' }> => question.type === 'referees');
}

/* ---------------------------------------------------------------- the applicant */

/** The caller's application with what inviting needs; another student's answers 404 like a missing one. */
async function ownApplication(db: DbOrTx, userId: string, applicationId: string, lock = false) {
  const studentId = await studentIdOf(db, userId);
  if (!studentId) throw new AppError('NOT_FOUND');
  const query = db
    .select({
      id: applications.id,
      status: applications.status,
      partner_id: applications.partner_id,
      sections: sql<FormSection[] | null>`coalesce(${submissions.form_snapshot}->'sections', ${forms.sections})`,
      applicant_email: students.email,
      applicant_name: applicantName,
      institution_name: partners.name,
      program_name: programs.name,
    })
    .from(applications)
    .innerJoin(students, eq(students.id, applications.student_id))
    .innerJoin(partners, eq(partners.id, applications.partner_id))
    .innerJoin(programs, eq(programs.id, applications.program_id))
    .leftJoin(forms, and(eq(forms.id, applications.form_id), eq(forms.partner_id, applications.partner_id)))
    .leftJoin(submissions, eq(submissions.id, applications.id))
    .where(and(eq(applications.id, applicationId), eq(applications.student_id, studentId)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: applications }) : await query;
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export async function listReferees(db: Db, userId: string, applicationId: string): Promise<Referee[]> {
  await ownApplication(db, userId, applicationId);
  const rows = await db
    .select()
    .from(referees)
    .where(eq(referees.application_id, applicationId))
    .orderBy(asc(referees.invited_at), asc(referees.id));
  const now = new Date();
  return rows.map((row) => toReferee(row, now));
}

interface Invitation {
  referee: RefereeRow;
  applicantName: string;
  institutionName: string;
  programName: string;
}

/** The invitation (or a reminder) in the referee's language, with their link, in the caller's transaction. */
async function sendInvitation(
  tx: DbOrTx,
  deps: Pick<RefereeDeps, 'publicUrl' | 'secret'>,
  invitation: Invitation,
  reminder: boolean,
) {
  const { referee } = invitation;
  const language = emailLanguage(referee.language);
  await enqueueEmail(tx, {
    to: referee.email,
    template: reminder ? 'referee_reminder' : 'referee_invitation',
    language,
    data: {
      name: referee.name,
      applicant_name: invitation.applicantName,
      institution_name: invitation.institutionName,
      program_name: invitation.programName,
      link: refereeLink(deps.publicUrl, refereeToken(deps.secret, referee.id, referee.link_version)),
      ...(reminder
        ? { deadline: longDate(referee.expires_at.slice(0, 10), language as Language) }
        : { expires_in_minutes: REFEREE_LINK_DAYS * 24 * 60 }),
    },
  });
}

/**
 * Invites a referee for one referees question of the caller's application in progress: the kind must be
 * one the question accepts, the question not full, the address not the applicant's own nor already invited
 * for it. The invitation email goes out with the referee's signed link.
 */
export async function inviteReferee(
  deps: RefereeDeps,
  userId: string,
  applicationId: string,
  input: RefereeInvite,
): Promise<Referee> {
  try {
    return await deps.db.transaction(async (tx) => {
      const application = await ownApplication(tx, userId, applicationId, true);
      if (application.status !== 'in_progress') throw new AppError('ABORTED', R.application_submitted);
      const question = refereeQuestions(application.sections ?? []).find(
        (candidate) => candidate.id === input.question_id,
      );
      if (!question) throw new AppError('INVALID_ARGUMENT', R.question_not_referees);
      if (!question.kinds.includes(input.kind)) throw new AppError('INVALID_ARGUMENT', R.kind_not_accepted);
      if (input.email.trim().toLowerCase() === application.applicant_email.trim().toLowerCase())
        throw new AppError('INVALID_ARGUMENT', R.referee_is_you);
      const [{ invited } = { invited: 0 }] = await tx
        .select({ invited: sql<number>`count(*)::int` })
        .from(referees)
        .where(and(eq(referees.application_id, applicationId), eq(referees.question_id, question.id)));
      if (invited >= question.count) throw new AppError('ABORTED', R.referees_full);
      const [referee] = await tx
        .insert(referees)
        .values({
          application_id: applicationId,
          question_id: question.id,
          kind: input.kind,
          name: input.name,
          title: input.title,
          organization: input.organization,
          email: input.email.trim(),
          phone: input.phone || null,
          waived: input.waived,
          language: input.language,
          expires_at: new Date(Date.now() + LINK_MS).toISOString(),
        })
        .returning();
      await sendInvitation(
        tx,
        deps,
        {
          referee: referee!,
          applicantName: application.applicant_name,
          institutionName: application.institution_name,
          programName: application.program_name,
        },
        false,
      );
      return toReferee(referee!);
    });
  } catch (error) {
    if (uniqueViolation(error) === 'referees_application_question_email_unique')
      throw new AppError('ABORTED', R.referee_already_invited);
    throw error;
  }
}

async function ownReferee(tx: DbOrTx, applicationId: string, refereeId: string, lock = false) {
  const query = tx
    .select()
    .from(referees)
    .where(and(eq(referees.id, refereeId), eq(referees.application_id, applicationId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('NOT_FOUND', R.referee_not_found);
  return row;
}

/**
 * Sends the invitation again with a link that works for REFEREE_LINK_DAYS more (the same link: its
 * signature does not change), before or after submitting; at most once an hour per referee.
 */
export async function resendInvitation(
  deps: RefereeDeps,
  userId: string,
  applicationId: string,
  refereeId: string,
): Promise<Referee> {
  return deps.db.transaction(async (tx) => {
    const application = await ownApplication(tx, userId, applicationId);
    const referee = await ownReferee(tx, applicationId, refereeId, true);
    if (referee.submitted_at) throw new AppError('ABORTED', R.letter_received);
    const retryAfter = Date.parse(referee.last_sent_at) + RESEND_GAP_MS - Date.now();
    if (retryAfter > 0)
      throw new AppError('RESOURCE_EXHAUSTED', R.resend_too_soon, undefined, {
        retryAfterSeconds: Math.ceil(retryAfter / 1000),
      });
    const [updated] = await tx
      .update(referees)
      .set({
        expires_at: new Date(Date.now() + LINK_MS).toISOString(),
        last_sent_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where(eq(referees.id, refereeId))
      .returning();
    await sendInvitation(
      tx,
      deps,
      {
        referee: updated!,
        applicantName: application.applicant_name,
        institutionName: application.institution_name,
        programName: application.program_name,
      },
      false,
    );
    return toReferee(updated!);
  });
}

/** Removes a referee whose letter has not arrived, while the application is in progress; their link dies with them. */
export async function removeReferee(deps: RefereeDeps, userId: string, applicationId: string, refereeId: string) {
  const key = await deps.db.transaction(async (tx) => {
    const application = await ownApplication(tx, userId, applicationId, true);
    if (application.status !== 'in_progress') throw new AppError('ABORTED', R.application_submitted);
    const referee = await ownReferee(tx, applicationId, refereeId, true);
    if (referee.submitted_at) throw new AppError('ABORTED', R.letter_received);
    await tx.delete(referees).where(eq(referees.id, refereeId));
    return referee.letter_storage_key;
  });
  if (key) await deps.storage.delete(key);
}

/** The PDF letter of a referee, to the applicant: never when they waived reading it. */
export async function applicantLetter(deps: RefereeDeps, userId: string, applicationId: string, refereeId: string) {
  await ownApplication(deps.db, userId, applicationId);
  const referee = await ownReferee(deps.db, applicationId, refereeId);
  if (referee.waived) throw new AppError('PERMISSION_DENIED', R.letter_waived);
  return letterFile(deps.storage, referee);
}

async function letterFile(storage: Storage, referee: RefereeRow) {
  if (!referee.submitted_at || !referee.letter_storage_key) throw new AppError('NOT_FOUND', R.letter_not_received);
  return {
    stream: await storage.read(referee.letter_storage_key),
    name: referee.letter_file_name ?? 'letter.pdf',
    size: referee.letter_size ?? undefined,
  };
}

/* ---------------------------------------------------------------- the referee (no account) */

/**
 * The referee a link names, when its signature, version and expiry hold and the reference is not in yet.
 * A link that is not ours or was replaced is 404; an expired or used one 410 with its reason.
 */
async function refereeOfLink(tx: DbOrTx, secret: string, token: string, lock = false) {
  const named = readRefereeToken(secret, token);
  if (!named) throw new AppError('NOT_FOUND', R.link_invalid);
  const query = tx
    .select({
      referee: referees,
      application_status: applications.status,
      applicant_user_id: students.user_id,
      partner_id: applications.partner_id,
      applicant_name: applicantName,
      institution_name: partners.name,
      program_name: programs.name,
      sections: sql<FormSection[] | null>`coalesce(${submissions.form_snapshot}->'sections', ${forms.sections})`,
    })
    .from(referees)
    .innerJoin(applications, eq(applications.id, referees.application_id))
    .innerJoin(students, eq(students.id, applications.student_id))
    .innerJoin(partners, eq(partners.id, applications.partner_id))
    .innerJoin(programs, eq(programs.id, applications.program_id))
    .leftJoin(forms, and(eq(forms.id, applications.form_id), eq(forms.partner_id, applications.partner_id)))
    .leftJoin(submissions, eq(submissions.id, applications.id))
    .where(eq(referees.id, named.refereeId))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: referees }) : await query;
  if (!row || row.referee.link_version !== named.version) throw new AppError('NOT_FOUND', R.link_invalid);
  if (row.referee.submitted_at)
    throw new AppError('NOT_FOUND', R.link_used, undefined, { http: 410, reason: 'reference_link_used' });
  if (Date.parse(row.referee.expires_at) <= Date.now())
    throw new AppError('NOT_FOUND', R.link_expired, undefined, { http: 410, reason: 'reference_link_expired' });
  const question = refereeQuestions(row.sections ?? []).find((candidate) => candidate.id === row.referee.question_id);
  return { ...row, prompts: question?.prompts ?? [] };
}

/** What the link opens (marking it opened the first time): who asks, for what, and the institution's questions. */
export async function openReference(deps: RefereeDeps, token: string): Promise<ReferenceRequest> {
  const row = await refereeOfLink(deps.db, deps.secret, token);
  if (!row.referee.opened_at) {
    await deps.db
      .update(referees)
      .set({ opened_at: sql`now()`, updated_at: sql`now()` })
      .where(and(eq(referees.id, row.referee.id), isNull(referees.opened_at)));
  }
  return {
    referee_name: row.referee.name,
    kind: row.referee.kind,
    applicant_name: row.applicant_name,
    institution_name: row.institution_name,
    program_name: row.program_name,
    waived: row.referee.waived,
    language: row.referee.language,
    prompts: row.prompts,
    expires_at: iso(row.referee.expires_at)!,
    letter_file_name: row.referee.letter_storage_key ? row.referee.letter_file_name : null,
  };
}

/**
 * Keeps the referee's PDF letter (replacing one uploaded before), until they send the reference. The
 * bytes must be a PDF whatever the request says, and at most REFERENCE_LETTER_MAX_BYTES.
 */
export async function uploadLetter(deps: RefereeDeps, token: string, bytes: Buffer, fileName: string | undefined) {
  await refereeOfLink(deps.db, deps.secret, token);
  if (bytes.length > REFERENCE_LETTER_MAX_BYTES) throw new AppError('INVALID_ARGUMENT', R.letter_too_large);
  if (sniffMimeType(bytes.subarray(0, 16)) !== 'application/pdf')
    throw new AppError('INVALID_ARGUMENT', R.letter_not_pdf);
  const key = `references/${randomUUID()}`;
  await deps.storage.put(key, Readable.from([bytes]));
  let previous: string | null = null;
  try {
    await deps.db.transaction(async (tx) => {
      const row = await refereeOfLink(tx, deps.secret, token, true);
      previous = row.referee.letter_storage_key;
      await tx
        .update(referees)
        .set({
          letter_storage_key: key,
          letter_file_name: safeFileName(fileName ?? '', 'application/pdf'),
          letter_size: bytes.length,
          letter_sha256: createHash('sha256').update(bytes).digest('hex'),
          updated_at: sql`now()`,
        })
        .where(eq(referees.id, row.referee.id));
    });
  } catch (error) {
    await deps.storage.delete(key);
    throw error;
  }
  if (previous) await deps.storage.delete(previous);
  return { file_name: safeFileName(fileName ?? '', 'application/pdf') };
}

/**
 * Sends the reference: an answer to each of the institution's questions and a letter, typed or the PDF
 * uploaded before. Once sent, the link is used: it opens nothing any more. The applicant is told.
 */
export async function submitReference(deps: RefereeDeps, token: string, input: ReferenceSubmit): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await refereeOfLink(tx, deps.secret, token, true);
    const answers = row.prompts.map((_, i) => input.answers[i]?.trim() ?? '');
    if (answers.some((answer) => answer === ''))
      throw new AppError('INVALID_ARGUMENT', R.answer_required, [{ path: 'answers', message: R.answer_required }]);
    const letterText = input.letter_text?.trim() || null;
    if (!letterText && !row.referee.letter_storage_key)
      throw new AppError('INVALID_ARGUMENT', R.letter_required, [{ path: 'letter_text', message: R.letter_required }]);
    await tx
      .update(referees)
      .set({ answers, letter_text: letterText, submitted_at: sql`now()`, updated_at: sql`now()` })
      .where(and(eq(referees.id, row.referee.id), isNull(referees.submitted_at)));
    if (row.applicant_user_id) {
      await notify(tx, {
        userId: row.applicant_user_id,
        category: 'status_updates',
        type: 'reference_received',
        data: { referee: row.referee.name, institution: row.institution_name, program: row.program_name },
        link: `/partners/${row.partner_id}/application`,
      });
    }
  });
}

/* ---------------------------------------------------------------- submitting and staff */

/** A referee as submitting reads them: which question, and whether their letter has arrived. */
export interface InvitedReferee {
  id: string;
  question_id: string;
  received: boolean;
}

/**
 * The application's referees as submitting reads them, as a column of the query that locks the application
 * (on deadline day a round trip less), in the order they were invited.
 */
export function invitedRefereesOf(applicationId: AnyPgColumn) {
  return sql<InvitedReferee[]>`coalesce((
    select json_agg(json_build_object('id', r.id, 'question_id', r.question_id, 'received', r.submitted_at is not null)
      order by r.invited_at, r.id)
    from ${referees} r where r.application_id = ${applicationId}), '[]'::json)`;
}

/**
 * At submission: each referees question answered with the referees invited for it (the server's record,
 * whatever the draft held); `missingLetters` when a question that wants its letters first has some not
 * arrived.
 */
export function refereeAnswers(sections: readonly FormSection[], invited: readonly InvitedReferee[]) {
  const answers: Record<string, string[]> = {};
  let missingLetters = false;
  for (const question of refereeQuestions(sections)) {
    const mine = invited.filter((referee) => referee.question_id === question.id);
    answers[question.id] = mine.map((referee) => referee.id);
    if (!question.submit_before_letters && mine.some((referee) => !referee.received)) missingLetters = true;
  }
  return { answers, missingLetters };
}

/** The referees of a submission as staff read them: status, answers and letters, waived or not. */
export async function refereesOfSubmission(db: DbOrTx, submissionId: string, sections: readonly FormSection[]) {
  const rows = await db
    .select()
    .from(referees)
    .where(eq(referees.application_id, submissionId))
    .orderBy(asc(referees.invited_at), asc(referees.id));
  const questions = refereeQuestions(sections);
  const now = new Date();
  return rows.map((row): StaffReferee => {
    const prompts = questions.find((question) => question.id === row.question_id)?.prompts ?? [];
    const { letter: _hidden, ...shown } = toReferee(row, now);
    return {
      ...shown,
      answers: row.submitted_at ? prompts.map((prompt, i) => ({ prompt, answer: row.answers[i] ?? '' })) : [],
      letter: letterOf(row),
    };
  });
}

/** The PDF letter of a submission's referee, for staff of its institution (the caller checked the submission). */
export async function staffLetter(db: DbOrTx, storage: Storage, submissionId: string, refereeId: string) {
  const [referee] = await db
    .select()
    .from(referees)
    .where(and(eq(referees.id, refereeId), eq(referees.application_id, submissionId)))
    .limit(1);
  if (!referee) throw new AppError('NOT_FOUND', R.referee_not_found);
  return letterFile(storage, referee);
}

/** Letters arrived and letters asked for, per submission (the queue's completeness). */
export function lettersColumns(submissionId: AnyPgColumn) {
  return {
    letters_received: sql<number>`(select count(*)::int from ${referees} r where r.application_id = ${submissionId} and r.submitted_at is not null)`,
    letters_invited: sql<number>`(select count(*)::int from ${referees} r where r.application_id = ${submissionId})`,
  };
}

/**
 * The stored PDF letters of these applications' referees: their rows go with the applications (a discarded
 * draft, a deleted account), the caller removes the files once that is committed.
 */
export async function letterKeysOf(tx: DbOrTx, applicationIds: SQLWrapper | string[]): Promise<string[]> {
  const rows = await tx
    .select({ key: referees.letter_storage_key })
    .from(referees)
    .where(
      and(
        Array.isArray(applicationIds)
          ? inArray(referees.application_id, applicationIds.length > 0 ? applicationIds : [randomUUID()])
          : inArray(referees.application_id, applicationIds),
        isNotNull(referees.letter_storage_key),
      ),
    );
  return rows.map((row) => row.key!);
}

/* ---------------------------------------------------------------- reminders (job) */

/**
 * Reminds referees whose letter has not arrived REFEREE_REMINDER_DAYS after their invitation, while their
 * link works and the application is in progress or submitted: one reminder per step, a batch per pass,
 * rows locked so two instances never send the same one.
 */
export async function remindReferees(
  deps: Pick<RefereeDeps, 'db' | 'publicUrl' | 'secret'>,
  now: Date,
  days: readonly number[],
) {
  return deps.db.transaction(async (tx: Tx) => {
    const steps = sql.join(
      days.map((day, i) => sql`when ${i} then ${day}::int`),
      sql` `,
    );
    const due = await tx
      .select({
        referee: referees,
        applicant_name: applicantName,
        institution_name: partners.name,
        program_name: programs.name,
      })
      .from(referees)
      .innerJoin(applications, eq(applications.id, referees.application_id))
      .innerJoin(students, eq(students.id, applications.student_id))
      .innerJoin(partners, eq(partners.id, applications.partner_id))
      .innerJoin(programs, eq(programs.id, applications.program_id))
      .where(
        sql`${referees.submitted_at} is null and ${referees.expires_at} > ${now.toISOString()}
          and ${referees.reminders_sent} < ${days.length}
          and ${referees.invited_at} + (case ${referees.reminders_sent} ${steps} end) * interval '1 day' <= ${now.toISOString()}
          and ${referees.last_sent_at} + interval '1 day' <= ${now.toISOString()}
          and ${applications.status} in ('in_progress', 'submitted')`,
      )
      .orderBy(asc(referees.invited_at))
      .limit(200)
      .for('update', { of: referees, skipLocked: true });
    for (const row of due) {
      await tx
        .update(referees)
        .set({
          reminders_sent: sql`${referees.reminders_sent} + 1`,
          last_sent_at: now.toISOString(),
          updated_at: sql`now()`,
        })
        .where(eq(referees.id, row.referee.id));
      await sendInvitation(
        tx,
        deps,
        {
          referee: row.referee,
          applicantName: row.applicant_name,
          institutionName: row.institution_name,
          programName: row.program_name,
        },
        true,
      );
    }
    return due.length;
  });
}
