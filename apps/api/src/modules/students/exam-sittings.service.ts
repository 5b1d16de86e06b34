import { and, count, eq } from 'drizzle-orm';
import {
  PROFILE_MESSAGES,
  SITTING_LIMITS,
  VALIDATION_MESSAGES,
  type ExamSitting,
  type ExamSittingInput,
} from '@kaminuza/shared';
import { examSystem, normalizeSitting, sittingIssues } from '@kaminuza/shared/exams';
import type { Db, DbOrTx } from '../../db/client.ts';
import { documents, examSittings } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { findStudent, refreshProfileCompletion } from './students.service.ts';
import { sittingsOf } from './exam-sittings.read.ts';

/*
 * The applicant's examination sittings (issue 25, ADR 050): added, changed and removed one at a time by
 * the applicant until an institution's staff verify one against its document, after which it is locked.
 */

type SittingRow = typeof examSittings.$inferSelect;

/** Checks a sitting against its examination and the student's documents (400, each issue at its field). */
async function checked(db: DbOrTx, studentId: string, input: ExamSittingInput): Promise<ExamSittingInput> {
  const issues = sittingIssues(input, examSystem);
  if (input.document_type) {
    const [own] = await db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.type, input.document_type), eq(documents.student_id, studentId)))
      .limit(1);
    if (!own) issues.push({ path: ['document_type'], message: VALIDATION_MESSAGES.exam_document_invalid });
  }
  if (issues.length > 0)
    throw new AppError(
      'INVALID_ARGUMENT',
      VALIDATION_MESSAGES.general,
      issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
  return normalizeSitting(input, examSystem(input.exam));
}

/** The student's sitting, locked until the transaction ends; 404 when it is not theirs. */
async function lockedSitting(db: DbOrTx, studentId: string, sittingId: string): Promise<SittingRow> {
  const [row] = await db
    .select()
    .from(examSittings)
    .where(and(eq(examSittings.id, sittingId), eq(examSittings.student_id, studentId)))
    .for('update');
  if (!row) throw new AppError('NOT_FOUND', PROFILE_MESSAGES.sitting_not_found);
  return row;
}

/** The student's own sitting, locked for the change; 404 for anyone else's, 409 once verified. */
async function ownUnverified(db: DbOrTx, studentId: string, sittingId: string): Promise<SittingRow> {
  const row = await lockedSitting(db, studentId, sittingId);
  if (row.verified_at) throw new AppError('ABORTED', PROFILE_MESSAGES.sitting_verified);
  return row;
}

export async function addSitting(db: Db, userId: string, input: ExamSittingInput): Promise<ExamSitting[]> {
  return db.transaction(async (tx) => {
    const student = await findStudent(tx, userId, true);
    const [held] = await tx
      .select({ value: count() })
      .from(examSittings)
      .where(eq(examSittings.student_id, student.id));
    if ((held?.value ?? 0) >= SITTING_LIMITS.sittings)
      throw new AppError('INVALID_ARGUMENT', VALIDATION_MESSAGES.exam_sittings_over_limit);
    const values = await checked(tx, student.id, input);
    await tx.insert(examSittings).values({ ...values, student_id: student.id });
    await refreshProfileCompletion(tx, userId);
    return sittingsOf(tx, student.id);
  });
}

export async function changeSitting(
  db: Db,
  userId: string,
  sittingId: string,
  input: ExamSittingInput,
): Promise<ExamSitting[]> {
  return db.transaction(async (tx) => {
    const student = await findStudent(tx, userId);
    await ownUnverified(tx, student.id, sittingId);
    const values = await checked(tx, student.id, input);
    await tx.update(examSittings).set(values).where(eq(examSittings.id, sittingId));
    return sittingsOf(tx, student.id);
  });
}

export async function removeSitting(db: Db, userId: string, sittingId: string): Promise<ExamSitting[]> {
  return db.transaction(async (tx) => {
    const student = await findStudent(tx, userId);
    await ownUnverified(tx, student.id, sittingId);
    await tx.delete(examSittings).where(eq(examSittings.id, sittingId));
    await refreshProfileCompletion(tx, userId);
    return sittingsOf(tx, student.id);
  });
}

/**
 * Staff of `partnerId` verify a student's sitting against its document (the caller has checked that the
 * student applied to them), in the caller's transaction. Verifying again keeps the first verification.
 * Answers the sitting as it was before, and the student's sittings as they now stand.
 */
export async function verifySitting(
  tx: DbOrTx,
  by: { userId: string; partnerId: string },
  studentId: string,
  sittingId: string,
): Promise<{ before: SittingRow; sittings: ExamSitting[] }> {
  const row = await lockedSitting(tx, studentId, sittingId);
  if (!row.verified_at)
    await tx
      .update(examSittings)
      .set({ verified_at: new Date().toISOString(), verified_by: by.userId, verified_by_partner: by.partnerId })
      .where(eq(examSittings.id, sittingId));
  return { before: row, sittings: await sittingsOf(tx, studentId) };
}
