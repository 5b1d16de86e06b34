import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import {
  DOCUMENT_TYPES,
  type DocumentType,
  type FileMimeType,
  type StudentDocument,
  type UploadPurpose,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { documents, files, students } from '../../db/schema/index.ts';
import type { RequestUser } from '../auth/index.ts';
import { AppError } from '../../lib/errors.ts';
import { safeFileName } from '../../lib/file-name.ts';
import { refreshProfileCompletion, setProfilePicture } from '../students/index.ts';
import { StoredFileNotFoundError, type Storage } from '../../lib/storage/index.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface StoredFile {
  stream: Readable;
  name: string;
  mimeType: string;
  size: number;
}

/** The student record of a user, or null for users without one. */
export async function studentIdOf(db: Db | Tx, userId: string): Promise<string | null> {
  const [row] = await db.select({ id: students.id }).from(students).where(eq(students.user_id, userId)).limit(1);
  return row?.id ?? null;
}

async function requireStudentId(db: Db, userId: string): Promise<string> {
  const id = await studentIdOf(db, userId);
  if (!id) throw new AppError('NOT_FOUND');
  return id;
}

/**
 * Who may read a student's files through the student routes: only the student. Institution staff read
 * the documents a submission names through the review, which checks the submission is theirs.
 */
export async function canReadStudentFiles(db: Db, viewer: RequestUser, studentId: string): Promise<boolean> {
  if (viewer.type !== 'student') return false;
  return (await studentIdOf(db, viewer.id)) === studentId;
}

/** All five document types of the student, with `not_uploaded` for the missing ones. */
export async function listDocuments(db: Db, userId: string): Promise<StudentDocument[]> {
  const studentId = await requireStudentId(db, userId);
  const rows = await db
    .select({
      type: documents.type,
      status: documents.status,
      review_note: documents.review_note,
      uploaded_at: documents.updated_at,
      file_name: files.original_name,
      mime_type: files.mime_type,
      size: files.size,
    })
    .from(documents)
    .innerJoin(files, eq(files.id, documents.file_id))
    .where(eq(documents.student_id, studentId));
  const byType = new Map(rows.map((row) => [row.type, row]));
  return DOCUMENT_TYPES.map((type) => {
    const row = byType.get(type);
    if (!row) {
      return {
        type,
        status: 'not_uploaded',
        file_name: null,
        mime_type: null,
        size: null,
        uploaded_at: null,
        review_note: null,
      };
    }
    return {
      type,
      status: row.status,
      file_name: row.file_name,
      mime_type: row.mime_type as FileMimeType,
      size: row.size,
      uploaded_at: new Date(row.uploaded_at).toISOString(),
      review_note: row.review_note,
    };
  });
}

export interface NewFile {
  ownerId: string;
  purpose: UploadPurpose;
  /** As the client sent it: stored cleaned (lib/file-name.ts). */
  originalName: string;
  mimeType: FileMimeType;
  size: number;
  sha256: string;
  /** Puts the finished upload's bytes under the new key of storage (wherever the upload was kept). */
  moveInto(key: string): Promise<void>;
}

/** A generated storage key: nothing of the uploaded name, spread over folders by its first characters. */
export function newStorageKey(): string {
  const id = randomUUID();
  return `${id.slice(0, 2)}/${id}`;
}

/**
 * Keeps a finished upload: moves its bytes into storage, records the file, and makes it the student's
 * document of that type (status pending again) or their profile picture. The file it replaces is
 * removed, its bytes once the change is committed.
 */
export async function storeFile(db: Db, storage: Storage, file: NewFile): Promise<{ fileId: string }> {
  const studentId = await requireStudentId(db, file.ownerId);
  const key = newStorageKey();
  await file.moveInto(key);
  let replacedKey: string | null;
  let fileId: string;
  try {
    ({ fileId, replacedKey } = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(files)
        .values({
          owner_id: file.ownerId,
          storage_key: key,
          original_name: safeFileName(file.originalName, file.mimeType),
          mime_type: file.mimeType,
          size: file.size,
          sha256: file.sha256,
          purpose: filePurposeOf(file.purpose),
        })
        .returning({ id: files.id });
      if (!row) throw new Error('file insert returned no row');
      // A bank slip is only kept: the payment it is sent with points at it (payments.slip_file_id).
      if (file.purpose === 'payment_slip') return { fileId: row.id, replacedKey: null };
      const replaced =
        file.purpose === 'profile_picture'
          ? await setProfilePicture(tx, studentId, row.id)
          : await setDocument(tx, studentId, file.purpose, row.id);
      await refreshProfileCompletion(tx, file.ownerId);
      return { fileId: row.id, replacedKey: replaced ? await dropFile(tx, replaced) : null };
    }));
  } catch (error) {
    await storage.delete(key);
    throw error;
  }
  if (replacedKey) await storage.delete(replacedKey);
  return { fileId };
}

const filePurposeOf = (purpose: UploadPurpose) =>
  purpose === 'profile_picture' || purpose === 'payment_slip' ? purpose : 'document';

/** Points the document of the type at the new file; returns the file it pointed at before. */
async function setDocument(tx: Tx, studentId: string, type: DocumentType, fileId: string): Promise<string | null> {
  const [previous] = await tx
    .select({ file_id: documents.file_id })
    .from(documents)
    .where(and(eq(documents.student_id, studentId), eq(documents.type, type)))
    .for('update');
  await tx
    .insert(documents)
    .values({ student_id: studentId, type, status: 'pending', file_id: fileId })
    .onConflictDoUpdate({
      target: [documents.student_id, documents.type],
      set: {
        file_id: fileId,
        status: 'pending',
        reviewed_by: null,
        review_note: null,
        updated_at: new Date().toISOString(),
      },
    });
  return previous?.file_id ?? null;
}

/** Deletes a file record and returns its storage key, for its bytes to be removed after commit. */
async function dropFile(tx: Tx, fileId: string): Promise<string | null> {
  const [row] = await tx.delete(files).where(eq(files.id, fileId)).returning({ key: files.storage_key });
  return row?.key ?? null;
}

/** A stored file by its id (callers have checked the reader may have it); 404 when it is gone. */
export async function openFile(db: Db, storage: Storage, fileId: string): Promise<StoredFile> {
  const [row] = await db.select().from(files).where(eq(files.id, fileId)).limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  try {
    return {
      stream: await storage.read(row.storage_key),
      // Names stored before they were cleaned on upload are cleaned as they are sent.
      name: safeFileName(row.original_name, row.mime_type),
      mimeType: row.mime_type,
      size: row.size,
    };
  } catch (error) {
    if (error instanceof StoredFileNotFoundError) throw new AppError('NOT_FOUND');
    throw error;
  }
}

async function documentFileId(db: Db, studentId: string, type: DocumentType): Promise<string | null> {
  const [row] = await db
    .select({ file_id: documents.file_id })
    .from(documents)
    .where(and(eq(documents.student_id, studentId), eq(documents.type, type)))
    .limit(1);
  return row?.file_id ?? null;
}

/** A document of a student for a viewer allowed to read it; 404 otherwise, never a hint it exists. */
export async function readDocument(
  db: Db,
  storage: Storage,
  viewer: RequestUser,
  studentId: string,
  type: DocumentType,
): Promise<StoredFile> {
  if (!(await canReadStudentFiles(db, viewer, studentId))) throw new AppError('NOT_FOUND');
  const fileId = await documentFileId(db, studentId, type);
  if (!fileId) throw new AppError('NOT_FOUND');
  return openFile(db, storage, fileId);
}

export async function readOwnDocument(db: Db, storage: Storage, viewer: RequestUser, type: DocumentType) {
  return readDocument(db, storage, viewer, await requireStudentId(db, viewer.id), type);
}

export async function deleteOwnDocument(db: Db, storage: Storage, userId: string, type: DocumentType): Promise<void> {
  const studentId = await requireStudentId(db, userId);
  const key = await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(documents)
      .where(and(eq(documents.student_id, studentId), eq(documents.type, type)))
      .returning({ file_id: documents.file_id });
    if (!row) throw new AppError('NOT_FOUND');
    await refreshProfileCompletion(tx, userId);
    return dropFile(tx, row.file_id);
  });
  if (key) await storage.delete(key);
}

export async function readOwnProfilePicture(db: Db, storage: Storage, viewer: RequestUser): Promise<StoredFile> {
  const studentId = await requireStudentId(db, viewer.id);
  const [row] = await db
    .select({ profile_picture: students.profile_picture })
    .from(students)
    .where(eq(students.id, studentId));
  if (!row?.profile_picture) throw new AppError('NOT_FOUND');
  return openFile(db, storage, row.profile_picture);
}

export async function deleteOwnProfilePicture(db: Db, storage: Storage, userId: string): Promise<void> {
  const studentId = await requireStudentId(db, userId);
  const key = await db.transaction(async (tx) => {
    const previous = await setProfilePicture(tx, studentId, null);
    if (!previous) throw new AppError('NOT_FOUND');
    await refreshProfileCompletion(tx, userId);
    return dropFile(tx, previous);
  });
  if (key) await storage.delete(key);
}

/**
 * An institution's verdict on a document an applicant submitted: verified, or rejected with the reason
 * the applicant sees (a new upload sets it back to pending). Only while the document still holds the
 * file that was submitted (`fileId`); answers null when it no longer does. Runs in the caller's
 * transaction, with the review's history.
 */
export async function setDocumentReview(
  tx: Db | Tx,
  input: {
    documentId: string;
    fileId: string;
    status: 'verified' | 'rejected';
    note: string | null;
    reviewerId: string;
  },
) {
  const [row] = await tx
    .update(documents)
    .set({
      status: input.status,
      review_note: input.note,
      reviewed_by: input.reviewerId,
      updated_at: new Date().toISOString(),
    })
    .where(and(eq(documents.id, input.documentId), eq(documents.file_id, input.fileId)))
    .returning({
      id: documents.id,
      type: documents.type,
      status: documents.status,
      review_note: documents.review_note,
    });
  return row ?? null;
}
