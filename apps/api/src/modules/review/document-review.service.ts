import { and, eq } from 'drizzle-orm';
import { staffLetter } from '../referees/index.ts';
import {
  PROFILE_MESSAGES,
  REVIEW_MESSAGES as R,
  type DocumentReview,
  type ExamSitting,
  type ReviewDocument,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { documents } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { openFile, setDocumentReview, type StoredFile } from '../documents/index.ts';
import { markUnderReview, recordEvent, submissionOfPartner } from '../submissions/index.ts';
import type { ReviewQueryContext } from './review-context.ts';
import { notifyDocumentReviewed } from '../notifications/index.ts';
import { verifySitting } from '../students/index.ts';
import { type SnapshotDocument, staffActor, submittedDocuments } from './review.service.ts';

/** Reviewing the documents a submission carries, and reading their files. */
/** The submitted document named, with the file the submission kept; 400 when the submission names no such document. */
function submittedDocument(submission: { profile: Record<string, unknown> }, documentId: string): SnapshotDocument {
  const document = submittedDocuments(submission.profile).find((entry) => entry.document_id === documentId);
  if (!document) throw new AppError('INVALID_ARGUMENT', R.document_not_submitted);
  return document;
}

/**
 * Marks a submitted document verified, or rejected with the reason the applicant will read; the applicant
 * gets a notification (and a push and an email, as their preferences say).
 */
export async function reviewDocument(
  db: Db,
  context: ReviewQueryContext,
  submissionId: string,
  documentId: string,
  input: DocumentReview,
  /** Where the applicant's email links point; without it (the demo seed) the applicant is not told. */
  publicUrl?: string,
): Promise<ReviewDocument> {
  return db.transaction(async (tx) => {
    const submission = await submissionOfPartner(tx, context.partnerId, submissionId, { lock: true });
    const document = submittedDocument(submission, documentId);
    const note = input.status === 'rejected' ? (input.reason ?? null) : null;
    const updated = await setDocumentReview(tx, {
      documentId,
      fileId: document.file_id,
      status: input.status,
      note,
      reviewerId: context.staffId,
    });
    if (!updated) throw new AppError('INVALID_ARGUMENT', R.document_replaced);
    await markUnderReview(tx, submissionId);
    await recordEvent(tx, {
      submissionId,
      partnerId: context.partnerId,
      actor: staffActor(context),
      action: 'document_reviewed',
      details: { document_id: documentId, type: document.type, status: input.status, reason: note },
    });
    // The applicant hears of it: in-app always, push and email as they chose.
    if (publicUrl !== undefined) {
      await notifyDocumentReviewed(tx, {
        studentId: submission.student_id,
        partnerId: context.partnerId,
        documentType: document.type,
        status: input.status,
        reason: note,
        publicUrl,
      });
    }
    return {
      document_id: documentId,
      type: document.type,
      file_name: document.file_name,
      status: updated.status,
      review_note: updated.review_note,
      available: true,
    } satisfies ReviewDocument;
  });
}

/** The file of a submitted document, while the applicant still holds it; 404 once replaced or removed. */
export async function submittedDocumentFile(
  db: Db,
  storage: Storage,
  context: ReviewQueryContext,
  submissionId: string,
  documentId: string,
): Promise<StoredFile> {
  const submission = await submissionOfPartner(db, context.partnerId, submissionId);
  const document = submittedDocuments(submission.profile).find((entry) => entry.document_id === documentId);
  if (!document) throw new AppError('NOT_FOUND');
  const [current] = await db
    .select({ file_id: documents.file_id })
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.file_id, document.file_id)))
    .limit(1);
  if (!current) throw new AppError('NOT_FOUND');
  return openFile(db, storage, current.file_id);
}

/** A referee's PDF letter of a submission of the caller's institution (waived or not: staff read it). */
export async function refereeLetterFile(
  db: Db,
  storage: Storage,
  context: ReviewQueryContext,
  { submissionId, refereeId }: { submissionId: string; refereeId: string },
) {
  const submission = await submissionOfPartner(db, context.partnerId, submissionId);
  return staffLetter(db, storage, submission.id, refereeId);
}

/**
 * Staff verify one of the applicant's examination sittings against its document (issue 25): from then on
 * the applicant can no longer change it. Recorded in the application's history; answers the applicant's
 * sittings as they now stand.
 */
export async function verifyExamSitting(
  db: Db,
  context: ReviewQueryContext,
  userId: string,
  submissionId: string,
  sittingId: string,
): Promise<ExamSitting[]> {
  const sittings = await db.transaction(async (tx) => {
    const submission = await submissionOfPartner(tx, context.partnerId, submissionId, { lock: true });
    if (!submission.student_id) throw new AppError('NOT_FOUND', PROFILE_MESSAGES.sitting_not_found);
    const verified = await verifySitting(
      tx,
      { userId, partnerId: context.partnerId },
      submission.student_id,
      sittingId,
    );
    if (!verified.before.verified_at) {
      await markUnderReview(tx, submissionId);
      await recordEvent(tx, {
        submissionId,
        partnerId: context.partnerId,
        actor: staffActor(context),
        action: 'exam_result_verified',
        details: { exam: verified.before.exam, other_name: verified.before.other_name, year: verified.before.year },
      });
    }
    return verified.sittings;
  });
  // An index number names the candidate: a blind reviewer reads the results without it.
  return context.blind ? sittings.map((sitting) => ({ ...sitting, index_number: '' })) : sittings;
}
