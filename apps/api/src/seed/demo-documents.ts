import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { DocumentStatus, DocumentType, FileMimeType } from '@kaminuza/shared';
import type { Db } from '../db/client.ts';
import { documents, files, students, users } from '../db/schema/index.ts';
import type { Storage } from '../lib/storage/index.ts';
import { newStorageKey } from '../modules/documents/documents.service.ts';
import { DEMO_ACCOUNTS } from './accounts.ts';
import { samplePdf, samplePng } from './sample-files.ts';

interface DemoDocument {
  type: DocumentType;
  status: DocumentStatus;
  name: string;
  mimeType: FileMimeType;
  bytes: () => Buffer;
  reviewNote?: string;
}

/** One document in each state, so the Documents tab of the demo student shows them all. */
const DEMO_DOCUMENTS: readonly DemoDocument[] = [
  {
    type: 'transcript',
    status: 'verified',
    name: 'transcript-2024.pdf',
    mimeType: 'application/pdf',
    bytes: () => samplePdf('Amani Uwase - Secondary school transcript 2024'),
  },
  {
    type: 'passport',
    status: 'pending',
    name: 'passport.png',
    mimeType: 'image/png',
    bytes: () => samplePng(64, [32, 96, 160]),
  },
  {
    type: 'test_scores',
    status: 'rejected',
    name: 'test-scores.pdf',
    mimeType: 'application/pdf',
    bytes: () => samplePdf('Amani Uwase - National examination results'),
    reviewNote: 'The scan is incomplete: please upload all pages.',
  },
];

/**
 * Gives the demo student their documents, written through the storage driver, when they have none
 * yet; does nothing without the demo student.
 */
export async function seedDemoDocuments(db: Db, storage: Storage): Promise<void> {
  const email = DEMO_ACCOUNTS.find((account) => account.type === 'student')!.email;
  const [student] = await db
    .select({ id: students.id, userId: users.id })
    .from(students)
    .innerJoin(users, eq(users.id, students.user_id))
    .where(eq(users.email, email));
  if (!student) return;
  if ((await db.$count(documents, eq(documents.student_id, student.id))) > 0) return;

  for (const demo of DEMO_DOCUMENTS) {
    const bytes = demo.bytes();
    const key = newStorageKey();
    await storage.put(key, Readable.from([bytes]));
    await db.transaction(async (tx) => {
      const [file] = await tx
        .insert(files)
        .values({
          owner_id: student.userId,
          storage_key: key,
          original_name: demo.name,
          mime_type: demo.mimeType,
          size: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          purpose: 'document',
        })
        .returning({ id: files.id });
      await tx.insert(documents).values({
        student_id: student.id,
        type: demo.type,
        status: demo.status,
        file_id: file!.id,
        review_note: demo.reviewNote ?? null,
      });
    });
  }
}
