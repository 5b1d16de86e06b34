import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { UNREAD_EMAIL_DELAY_MS } from '@kaminuza/shared';
import {
  chatMessages,
  chats,
  emailOutbox,
  staff,
  students,
  supportMessages,
  supportTickets,
  userPreferences,
} from '../../db/schema/index.ts';
import { useTestApp, TEST_PUBLIC_URL } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { notifyUnreadMessages } from './unread-email.jobs.ts';

const testApp = useTestApp();

/** A moment `ms` ago, as the timestamp columns store it. */
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const overdue = ago(UNREAD_EMAIL_DELAY_MS + 60_000);

async function studentRecord(account: TestAccount) {
  const [row] = await testApp.database.db
    .select({ id: students.id, email: students.email })
    .from(students)
    .where(eq(students.user_id, account.id));
  return row!;
}

async function mailTo(email: string) {
  return testApp.database.db
    .select({ subject: emailOutbox.subject, text: emailOutbox.text, html: emailOutbox.html })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), eq(emailOutbox.template, 'unread_message')));
}

describe('emails about unread replies', () => {
  it('emails a student once about a support reply unread for the delay, not about one read or too recent', async () => {
    const student = await studentRecord(await signInAs(testApp.app, 'student'));
    const [ticket] = await testApp.database.db
      .insert(supportTickets)
      .values({ student_id: student.id, subject: 'Visa' })
      .returning({ id: supportTickets.id });
    await testApp.database.db.insert(supportMessages).values([
      { ticket_id: ticket!.id, sender_side: 'student', body: 'Help', created_at: overdue },
      { ticket_id: ticket!.id, sender_side: 'team', body: '<script>alert(1)</script>', created_at: overdue },
    ]);

    await notifyUnreadMessages(testApp.database.db, TEST_PUBLIC_URL);
    const mail = await mailTo(student.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('Unread message from the Kaminuza support team');
    expect(mail[0]!.text).toContain(`${TEST_PUBLIC_URL}/support`);
    // The message itself is never copied into the email.
    expect(mail[0]!.html).not.toContain('<script>');

    // Once per reply: the next pass finds nothing new.
    await notifyUnreadMessages(testApp.database.db, TEST_PUBLIC_URL);
    expect(await mailTo(student.email)).toHaveLength(1);

    // A reply just sent waits for the delay.
    await testApp.database.db
      .insert(supportMessages)
      .values({ ticket_id: ticket!.id, sender_side: 'team', body: 'And?' });
    await notifyUnreadMessages(testApp.database.db, TEST_PUBLIC_URL);
    expect(await mailTo(student.email)).toHaveLength(1);
  });

  it('does not email a student who turned application update emails off (ADR 019)', async () => {
    const account = await signInAs(testApp.app, 'student');
    const student = await studentRecord(account);
    await testApp.database.db.insert(userPreferences).values({ user_id: account.id, email_application_updates: false });
    const [ticket] = await testApp.database.db
      .insert(supportTickets)
      .values({ student_id: student.id, subject: 'Fees' })
      .returning({ id: supportTickets.id });
    await testApp.database.db
      .insert(supportMessages)
      .values({ ticket_id: ticket!.id, sender_side: 'team', body: 'Answer', created_at: overdue });
    await notifyUnreadMessages(testApp.database.db, TEST_PUBLIC_URL);
    expect(await mailTo(student.email)).toHaveLength(0);
  });

  it('does not email a reply the student has read', async () => {
    const student = await studentRecord(await signInAs(testApp.app, 'student'));
    const [ticket] = await testApp.database.db
      .insert(supportTickets)
      .values({ student_id: student.id, subject: 'Fees', student_read_at: sql`now()` })
      .returning({ id: supportTickets.id });
    await testApp.database.db
      .insert(supportMessages)
      .values({ ticket_id: ticket!.id, sender_side: 'team', body: 'Done', created_at: overdue });
    await notifyUnreadMessages(testApp.database.db, TEST_PUBLIC_URL);
    expect(await mailTo(student.email)).toHaveLength(0);
  });

  it("emails an institution's messaging staff about a student's message, and the student about the reply", async () => {
    const studentAccount = await signInAs(testApp.app, 'student');
    const student = await studentRecord(studentAccount);
    const messenger = await signInAs(testApp.app, 'staff', { permissions: ['message_applicants'] });
    const reviewer = await signInAs(testApp.app, 'staff', {
      partnerId: messenger.partnerId!,
      permissions: ['review_applications'],
    });
    await testApp.database.db.update(staff).set({ language: 'fr' }).where(eq(staff.user_id, messenger.id));
    const [chat] = await testApp.database.db
      .insert(chats)
      .values({ student_id: student.id, partner_id: messenger.partnerId! })
      .returning({ id: chats.id });
    await testApp.database.db.insert(chatMessages).values([
      { chat_id: chat!.id, sender_side: 'student', body: 'Hello', created_at: overdue },
      { chat_id: chat!.id, sender_side: 'partner', body: 'Welcome', created_at: overdue },
    ]);

    await notifyUnreadMessages(testApp.database.db, TEST_PUBLIC_URL);
    const staffMail = await mailTo(messenger.email);
    expect(staffMail).toHaveLength(1);
    expect(staffMail[0]!.subject).toBe('Message non lu de Test Student');
    expect(staffMail[0]!.text).toContain(`${TEST_PUBLIC_URL}/partner/messages`);
    expect(await mailTo(reviewer.email)).toHaveLength(0);

    const studentMail = await mailTo(student.email);
    expect(studentMail).toHaveLength(1);
    expect(studentMail[0]!.subject).toMatch(/^Unread message from Test Institution/);
    expect(studentMail[0]!.text).toContain(`/partners/${messenger.partnerId}/chat`);

    await notifyUnreadMessages(testApp.database.db, TEST_PUBLIC_URL);
    expect(await mailTo(messenger.email)).toHaveLength(1);
    expect(await mailTo(student.email)).toHaveLength(1);
  });
});
