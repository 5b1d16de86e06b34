import { eq } from 'drizzle-orm';
import type { Announcement, AnnouncementResult } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { auditLog, emailOutbox, staff, students, userPreferences, users } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { emailLanguage, renderCustom } from '../email/index.ts';
import { unsubscribeMarketing } from '../settings/index.ts';

/** The page a reader opens from the email: it asks before changing anything (link scanners only GET). */
export const unsubscribePageUrl = (publicUrl: string, token: string) =>
  new URL(`/unsubscribe/${token}`, publicUrl).toString();
/** The one-click endpoint of List-Unsubscribe (RFC 8058): a POST turns marketing emails off. */
export const unsubscribeApiUrl = (publicUrl: string, token: string) =>
  new URL(`/api/v1/unsubscribe/${token}`, publicUrl).toString();

/**
 * Emails an admin's announcement to every account that opted into marketing emails, each in its own
 * language, with its personal unsubscribe link and the one-click headers. The messages and the audit
 * entry commit together; the outbox delivers them. Answers how many were enqueued.
 */
export async function sendAnnouncement(
  db: Db,
  actorId: string,
  input: Announcement,
  publicUrl: string,
): Promise<AnnouncementResult> {
  const recipients = await db.transaction(async (tx) => {
    const rows = await tx
      .select({
        email: users.email,
        token: userPreferences.unsubscribe_token,
        student_language: students.language,
        staff_language: staff.language,
        language: userPreferences.language,
        preferred_name: students.preferred_name,
        student_first_name: students.first_name,
        staff_first_name: staff.first_name,
      })
      .from(userPreferences)
      .innerJoin(users, eq(users.id, userPreferences.user_id))
      .leftJoin(students, eq(students.user_id, users.id))
      .leftJoin(staff, eq(staff.user_id, users.id))
      .where(eq(userPreferences.email_marketing, true));
    for (const row of rows) {
      const language = emailLanguage(row.student_language ?? row.staff_language ?? row.language);
      const name = row.preferred_name ?? row.student_first_name ?? row.staff_first_name ?? undefined;
      const rendered = renderCustom(
        language,
        { subject: input.subject, text: input.body, name },
        { noReply: false, unsubscribeUrl: unsubscribePageUrl(publicUrl, row.token) },
      );
      await tx.insert(emailOutbox).values({
        to: row.email,
        from: 'info',
        template: 'marketing',
        language,
        data: { unsubscribe_url: unsubscribeApiUrl(publicUrl, row.token) },
        ...rendered,
      });
    }
    await tx.insert(auditLog).values({
      actor_id: actorId,
      action: 'announcement.sent',
      target_type: 'announcement',
      target_id: null,
      details: { name: input.subject, recipients: rows.length },
    });
    return rows.length;
  });
  return { recipients };
}

/**
 * Turns marketing emails off for the holder of this unsubscribe token, without signing in. Doing it
 * again changes nothing; an unknown token answers 404 and changes nothing.
 */
export async function unsubscribe(db: Db, token: string): Promise<void> {
  if (!(await unsubscribeMarketing(db, token))) throw new AppError('NOT_FOUND');
}
