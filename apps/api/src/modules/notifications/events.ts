import { eq } from 'drizzle-orm';
import { partners, students } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { enqueueEmail, catalogueText, emailLanguage } from '../email/index.ts';
import { readPreferences } from '../settings/index.ts';
import { notify } from './notifications.service.ts';

/** Where a student reads their documents and the review of each. */
export const DOCUMENTS_PATH = '/profile?tab=documents';

/**
 * Tells an applicant staff verified or rejected one of their submitted documents: a notification always,
 * a push if they want status updates pushed, an email if they want application updates emailed. In the
 * caller's transaction. A submission without an account behind it (an applicant entered by staff) tells nobody.
 */
export async function notifyDocumentReviewed(
  tx: DbOrTx,
  input: {
    studentId: string | null;
    partnerId: string;
    documentType: string;
    status: 'verified' | 'rejected';
    reason: string | null;
    publicUrl: string;
  },
): Promise<void> {
  if (!input.studentId) return;
  const [student] = await tx
    .select({
      user_id: students.user_id,
      email: students.email,
      language: students.language,
      name: students.preferred_name,
      first_name: students.first_name,
    })
    .from(students)
    .where(eq(students.id, input.studentId))
    .limit(1);
  const [partner] = await tx
    .select({ name: partners.name })
    .from(partners)
    .where(eq(partners.id, input.partnerId))
    .limit(1);
  if (!student || !partner) return;
  const type = input.status === 'verified' ? 'document_verified' : 'document_rejected';
  const preferences = await readPreferences(tx, student.user_id);
  await notify(tx, {
    userId: student.user_id,
    preferences,
    category: 'status_updates',
    type,
    data: { institution: partner.name, document_type: input.documentType, reason: input.reason },
    link: DOCUMENTS_PATH,
  });
  if (!preferences.email.application_updates) return;
  const language = emailLanguage(student.language);
  const t = catalogueText(language);
  const name = student.name ?? student.first_name;
  await enqueueEmail(tx, {
    to: student.email,
    template: type,
    language,
    data: {
      ...(name ? { name } : {}),
      institution_name: partner.name,
      document_name: t(`documents.types.${input.documentType}`, { defaultValue: input.documentType }),
      ...(input.reason ? { reason: input.reason } : {}),
      link: new URL(DOCUMENTS_PATH, input.publicUrl).toString(),
    },
  });
}

/** Fee decisions an applicant is told of by email as well as in the app. */
export type FeeDecisionType = 'fee_waiver_approved' | 'fee_waiver_declined' | 'payment_slip_rejected';

/**
 * Tells an applicant of a decision on their fee: a waiver request approved or declined, a bank slip rejected
 * (with the reason staff gave). A notification always, a push if they want status updates pushed, an email in
 * their language if they want application updates emailed, linking to `path` on the public URL. In the
 * caller's transaction, so the decision, the notification and the email commit together.
 */
export async function notifyFeeDecision(
  tx: DbOrTx,
  input: {
    userId: string;
    type: FeeDecisionType;
    institution: string;
    program: string;
    reason: string | null;
    /** What the in-app notification's text reads beyond the institution, program and reason. */
    data?: Record<string, unknown>;
    path: string;
    publicUrl: string;
  },
): Promise<void> {
  const [student] = await tx
    .select({
      email: students.email,
      language: students.language,
      name: students.preferred_name,
      first_name: students.first_name,
    })
    .from(students)
    .where(eq(students.user_id, input.userId))
    .limit(1);
  const preferences = await readPreferences(tx, input.userId);
  await notify(tx, {
    userId: input.userId,
    preferences,
    category: 'status_updates',
    type: input.type,
    data: {
      institution: input.institution,
      program: input.program,
      ...input.data,
      ...(input.reason ? { reason: input.reason } : {}),
    },
    link: input.path,
  });
  if (!student || !preferences.email.application_updates) return;
  const name = student.name ?? student.first_name;
  await enqueueEmail(tx, {
    to: student.email,
    template: input.type,
    language: emailLanguage(student.language),
    data: {
      ...(name ? { name } : {}),
      institution_name: input.institution,
      program_name: input.program,
      ...(input.reason ? { reason: input.reason } : {}),
      link: new URL(input.path, input.publicUrl).toString(),
    },
  });
}

/**
 * Tells a student staff or the support team replied: a notification always, a push if they want messages
 * pushed. (The email about an unread reply is the unread-message worker's, later, and only if still unread.)
 */
export async function notifyNewMessage(
  tx: DbOrTx,
  input: { userId: string; sender: string | null; link: string },
): Promise<boolean> {
  return notify(tx, {
    userId: input.userId,
    category: 'messages',
    type: 'new_message',
    data: { sender: input.sender },
    link: input.link,
  });
}
