import { asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { letterKeysOf } from '../referees/index.ts';
import { ACCOUNT_DATA_MESSAGES, ACCOUNT_DELETION_GRACE_DAYS, type AccountDeletion } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import {
  accountDeletions,
  applications,
  decisions,
  documents,
  emailOutbox,
  files,
  payments,
  reviewNotes,
  reviewScores,
  schools,
  staff,
  students,
  submissions,
  users,
  waitlist,
} from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { isOwnPassword, assertUnder, countEvent, RateLimitedError, resetCounter, type Limit } from '../auth/index.ts';
import type { Tx } from '../../db/client.ts';
import { enqueueCustomEmail, catalogueText, emailLanguage } from '../email/index.ts';
import { releaseUnsubmittedCodeUses } from '../waivers/index.ts';

const DAY_MS = 86_400_000;
/** Wrong passwords on the deletion form, per account: the same bound as sign-in's. */
export const DELETION_PASSWORD_FAILURES: Limit = { name: 'deletion:failures', max: 10, windowMs: 15 * 60_000 };
/** Due deletions claimed per transaction. */
const DUE_BATCH = 10;

/** The profile an anonymised submission keeps: nothing that tells who applied. */
export const ANONYMISED_PROFILE = { anonymised: true } as const;

export async function getDeletion(db: Db, userId: string): Promise<AccountDeletion> {
  const [row] = await db
    .select({ scheduled_for: accountDeletions.scheduled_for })
    .from(accountDeletions)
    .where(eq(accountDeletions.user_id, userId));
  return { scheduled_for: row ? new Date(row.scheduled_for).toISOString() : null };
}

async function checkPassword(db: Db, userId: string, password: string): Promise<void> {
  await assertUnder(db, DELETION_PASSWORD_FAILURES, userId);
  if (!(await isOwnPassword(db, userId, password))) {
    const { count, reset_at } = await countEvent(db, DELETION_PASSWORD_FAILURES, userId);
    if (count > DELETION_PASSWORD_FAILURES.max) throw new RateLimitedError(reset_at);
    throw new AppError(
      'INVALID_ARGUMENT',
      ACCOUNT_DATA_MESSAGES.wrong_password,
      [{ path: 'password', message: ACCOUNT_DATA_MESSAGES.wrong_password }],
      { reason: 'wrong_password' },
    );
  }
  await resetCounter(db, DELETION_PASSWORD_FAILURES, userId);
}

/** The date in the person's own zone and language, for the confirmation email. */
function formatWhen(instant: string, language: string, timezone: string): string {
  const options = { dateStyle: 'long', timeStyle: 'short' } as const;
  try {
    return new Intl.DateTimeFormat(language, { ...options, timeZone: timezone }).format(new Date(instant));
  } catch {
    return new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(new Date(instant));
  }
}

/**
 * Schedules the caller's account for deletion ACCOUNT_DELETION_GRACE_DAYS from now, once the current
 * password confirms it is them, and emails when it will happen and how to cancel. Asking again while
 * one is scheduled changes nothing and sends nothing.
 */
export async function scheduleDeletion(
  db: Db,
  userId: string,
  password: string,
  publicUrl: string,
  now = new Date(),
): Promise<AccountDeletion> {
  await checkPassword(db, userId, password);
  const scheduledFor = new Date(now.getTime() + ACCOUNT_DELETION_GRACE_DAYS * DAY_MS).toISOString();
  await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(accountDeletions)
      .values({ user_id: userId, scheduled_for: scheduledFor })
      .onConflictDoNothing()
      .returning({ scheduled_for: accountDeletions.scheduled_for });
    if (!created) return false;
    const [person] = await tx
      .select({
        email: users.email,
        name: sql<string | null>`coalesce(${students.preferred_name}, ${students.first_name}, ${staff.first_name})`,
        language: sql<string | null>`coalesce(${students.language}, ${staff.language})`,
        timezone: sql<string | null>`coalesce(${students.timezone}, ${staff.timezone})`,
      })
      .from(users)
      .leftJoin(students, eq(students.user_id, users.id))
      .leftJoin(staff, eq(staff.user_id, users.id))
      .where(eq(users.id, userId));
    if (!person) throw new AppError('NOT_FOUND');
    const language = emailLanguage(person.language);
    const t = catalogueText(language);
    await enqueueCustomEmail(tx, {
      to: person.email,
      from: 'no_reply',
      language,
      ...(person.name ? { name: person.name } : {}),
      subject: t('account_data.email.subject'),
      text: t('account_data.email.text', {
        date: formatWhen(scheduledFor, language, person.timezone ?? 'UTC'),
        days: ACCOUNT_DELETION_GRACE_DAYS,
        link: `${publicUrl}/settings`,
      }),
    });
    return true;
  });
  return getDeletion(db, userId);
}

export async function cancelDeletion(db: Db, userId: string): Promise<AccountDeletion> {
  await db.delete(accountDeletions).where(eq(accountDeletions.user_id, userId));
  return { scheduled_for: null };
}

/**
 * Deletes one account's personal data inside the job's transaction and answers the storage keys of its
 * files. What is kept, and why, is ADR 018: submissions stay for the institution's records, anonymised
 * (no profile, no answers, no student id), with their released decisions (state, program and university
 * names, dates) but not the letter that names the person; the review notes and score comments staff
 * wrote about the person go.
 */
async function deleteAccountData(tx: Tx, userId: string): Promise<string[]> {
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) return [];
  const keys = (await tx.select({ key: files.storage_key }).from(files).where(eq(files.owner_id, userId))).map(
    (row) => row.key,
  );
  const [student] = await tx.select({ id: students.id }).from(students).where(eq(students.user_id, userId));

  if (student) {
    const submitted = tx.select({ id: submissions.id }).from(submissions).where(eq(submissions.student_id, student.id));
    await tx.delete(reviewNotes).where(inArray(reviewNotes.submission_id, submitted));
    await tx.update(reviewScores).set({ comment: null }).where(inArray(reviewScores.submission_id, submitted));
    await tx
      .update(decisions)
      .set({ letter: null, verification_code: null, student_id: null, updated_at: sql`now()` })
      .where(eq(decisions.student_id, student.id));
    // A fee payment belongs to the application, which goes with the student (applications.student_id is
    // required); the submission keeps what was paid (paid, amount, currency). See ADR 018.
    const own = tx.select({ id: applications.id }).from(applications).where(eq(applications.student_id, student.id));
    const feePayments = tx.select({ id: payments.id }).from(payments).where(inArray(payments.application_id, own));
    await tx
      .update(submissions)
      .set({
        profile: ANONYMISED_PROFILE,
        answers: {},
        student_id: null,
        idempotency_key: null,
        payment_id: null,
        updated_at: sql`now()`,
      })
      .where(eq(submissions.student_id, student.id));
    await tx.update(submissions).set({ payment_id: null }).where(inArray(submissions.payment_id, feePayments));
    await tx.delete(payments).where(inArray(payments.application_id, own));
    await releaseUnsubmittedCodeUses(tx, own);
    // Referees' letters name the person too: their rows go with the applications, their files here.
    keys.push(...(await letterKeysOf(tx, own)));
    // Documents first: their files would otherwise be held by the documents' restrict.
    await tx.delete(documents).where(eq(documents.student_id, student.id));
  }
  await tx.update(schools).set({ created_by: null }).where(eq(schools.created_by, userId));
  await tx.delete(emailOutbox).where(eq(sql`lower(${emailOutbox.to})`, user.email.toLowerCase()));
  await tx.delete(waitlist).where(eq(sql`lower(${waitlist.email})`, user.email.toLowerCase()));
  // The rest follows the user by its foreign keys: the student or staff record, sessions, credentials,
  // files, preferences, notifications, push subscriptions, drafts, saved institutions, chats and support
  // tickets with their messages, and this deletion's own row.
  await tx.delete(users).where(eq(users.id, userId));
  return keys;
}

/**
 * Runs the deletions whose grace period is over. Rows are claimed with FOR UPDATE SKIP LOCKED, so two
 * api instances never run one deletion twice; the stored files are removed before the transaction
 * commits (removing a missing key is no error, so a pass that fails after it is simply run again).
 */
export async function runDueDeletions(db: Db, storage: Storage, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const due = await tx
        .select({ user_id: accountDeletions.user_id })
        .from(accountDeletions)
        .where(lte(accountDeletions.scheduled_for, now.toISOString()))
        .orderBy(asc(accountDeletions.scheduled_for))
        .limit(DUE_BATCH)
        .for('update', { skipLocked: true });
      for (const { user_id } of due) {
        const keys = await deleteAccountData(tx, user_id);
        for (const key of keys) await storage.delete(key);
      }
      return due.length;
    });
    total += count;
    if (count < DUE_BATCH) return total;
  }
}
