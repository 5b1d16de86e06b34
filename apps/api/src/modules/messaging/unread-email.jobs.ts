import { and, eq, exists, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { UNREAD_EMAIL_DELAY_MS } from '@kaminuza/shared';
import { activeStaffHolding } from '../partners/index.ts';
import type { Db } from '../../db/client.ts';
import {
  chatMessages,
  chats,
  partners,
  staff,
  students,
  supportMessages,
  supportTickets,
} from '../../db/schema/index.ts';
import { enqueueEmail } from '../email/index.ts';
import { scheduledPass, type JobDefinition } from '../../lib/jobs/queue.ts';
import type { DbOrTx } from '../../db/client.ts';
import { readPreferences } from '../settings/index.ts';

/** Conversations handled per pass and kind; the next pass takes the rest. */
const BATCH_SIZE = 50;

export interface UnreadRecipient {
  userId: string;
  email: string;
  kind: 'student' | 'staff';
}

/**
 * Whether this person wants to be emailed about unread messages. Email preferences have no "messages"
 * category (spec section 3): a reply left unread is an update on the person's applications (or, for staff,
 * on their applicants), so `email.application_updates` governs it (ADR 019). Runs in the claiming
 * transaction, so a preference changed meanwhile is read as committed.
 */
export async function wantsUnreadEmail(db: DbOrTx, recipient: UnreadRecipient): Promise<boolean> {
  if (recipient.email.length === 0) return false;
  return (await readPreferences(db, recipient.userId)).email.application_updates;
}

/**
 * A message from the other side that is older than the delay, newer than the reader's last read and
 * newer than the last email about this conversation: each reply is emailed at most once.
 */
function dueMessage(
  db: Db,
  messages: typeof supportMessages | typeof chatMessages,
  belongs: SQL,
  fromSide: string,
  readAt: AnyColumn,
  notifiedAt: AnyColumn,
) {
  return exists(
    db
      .select({ one: sql`1` })
      .from(messages)
      .where(
        and(
          belongs,
          eq(messages.sender_side, fromSide as never),
          sql`${messages.created_at} <= now() - make_interval(secs => ${UNREAD_EMAIL_DELAY_MS / 1000})`,
          sql`${messages.created_at} > coalesce(${readAt}, '-infinity'::timestamptz)`,
          sql`${messages.created_at} > coalesce(${notifiedAt}, '-infinity'::timestamptz)`,
        ),
      ),
  );
}

function studentName(row: { preferred_name: string | null; first_name: string | null }): string | undefined {
  return row.preferred_name ?? row.first_name ?? undefined;
}

/**
 * Emails the recipients of replies left unread for UNREAD_EMAIL_DELAY_MS, once per conversation and
 * reply: students about support tickets and institution chats, an institution's messaging staff about
 * students' messages. Each conversation is claimed by moving its *_notified_at in the transaction that
 * enqueues its emails, guarded by the value read, so two api instances never email the same reply twice.
 * Returns how many emails were enqueued.
 */
export async function notifyUnreadMessages(db: Db, publicUrl: string): Promise<number> {
  let sent = 0;
  const link = (path: string) => new URL(path, publicUrl).toString();

  const tickets = await db
    .select({
      id: supportTickets.id,
      notified: supportTickets.student_notified_at,
      user_id: students.user_id,
      email: students.email,
      language: students.language,
      preferred_name: students.preferred_name,
      first_name: students.first_name,
    })
    .from(supportTickets)
    .innerJoin(students, eq(students.id, supportTickets.student_id))
    .where(
      dueMessage(
        db,
        supportMessages,
        eq(supportMessages.ticket_id, supportTickets.id),
        'team',
        supportTickets.student_read_at,
        supportTickets.student_notified_at,
      ),
    )
    .limit(BATCH_SIZE);
  for (const ticket of tickets) {
    sent += await db.transaction(async (tx) => {
      const claimed = await tx
        .update(supportTickets)
        .set({ student_notified_at: sql`now()` })
        .where(
          and(
            eq(supportTickets.id, ticket.id),
            sql`${supportTickets.student_notified_at} is not distinct from ${ticket.notified}::timestamptz`,
          ),
        )
        .returning({ id: supportTickets.id });
      if (claimed.length === 0) return 0;
      if (!(await wantsUnreadEmail(tx, { userId: ticket.user_id, email: ticket.email, kind: 'student' }))) return 0;
      await enqueueEmail(tx, {
        to: ticket.email,
        template: 'unread_message',
        language: ticket.language,
        data: { name: studentName(ticket), link: link('/support') },
      });
      return 1;
    });
  }

  const ofChat = eq(chatMessages.chat_id, chats.id);

  const toStudents = await db
    .select({
      id: chats.id,
      partner_id: chats.partner_id,
      partner_name: partners.name,
      notified: chats.student_notified_at,
      user_id: students.user_id,
      email: students.email,
      language: students.language,
      preferred_name: students.preferred_name,
      first_name: students.first_name,
    })
    .from(chats)
    .innerJoin(students, eq(students.id, chats.student_id))
    .innerJoin(partners, eq(partners.id, chats.partner_id))
    .where(dueMessage(db, chatMessages, ofChat, 'partner', chats.student_read_at, chats.student_notified_at))
    .limit(BATCH_SIZE);
  for (const chat of toStudents) {
    sent += await db.transaction(async (tx) => {
      const claimed = await tx
        .update(chats)
        .set({ student_notified_at: sql`now()` })
        .where(
          and(
            eq(chats.id, chat.id),
            sql`${chats.student_notified_at} is not distinct from ${chat.notified}::timestamptz`,
          ),
        )
        .returning({ id: chats.id });
      if (claimed.length === 0) return 0;
      if (!(await wantsUnreadEmail(tx, { userId: chat.user_id, email: chat.email, kind: 'student' }))) return 0;
      await enqueueEmail(tx, {
        to: chat.email,
        template: 'unread_message',
        language: chat.language,
        data: {
          name: studentName(chat),
          institution_name: chat.partner_name,
          link: link(`/partners/${chat.partner_id}/chat`),
        },
      });
      return 1;
    });
  }

  const toPartners = await db
    .select({
      id: chats.id,
      partner_id: chats.partner_id,
      notified: chats.partner_notified_at,
      preferred_name: students.preferred_name,
      first_name: students.first_name,
      last_name: students.last_name,
    })
    .from(chats)
    .innerJoin(students, eq(students.id, chats.student_id))
    .where(dueMessage(db, chatMessages, ofChat, 'student', chats.partner_read_at, chats.partner_notified_at))
    .limit(BATCH_SIZE);
  for (const chat of toPartners) {
    sent += await db.transaction(async (tx) => {
      const claimed = await tx
        .update(chats)
        .set({ partner_notified_at: sql`now()` })
        .where(
          and(
            eq(chats.id, chat.id),
            sql`${chats.partner_notified_at} is not distinct from ${chat.notified}::timestamptz`,
          ),
        )
        .returning({ id: chats.id });
      if (claimed.length === 0) return 0;
      // The institution reads as one side: every member who may answer students hears of it.
      const members = await tx
        .select({ user_id: staff.user_id, email: staff.email, language: staff.language, first_name: staff.first_name })
        .from(staff)
        .innerJoin(partners, eq(partners.id, staff.partner_id))
        .where(and(eq(staff.partner_id, chat.partner_id), activeStaffHolding('message_applicants')));
      const from = [chat.preferred_name ?? chat.first_name, chat.last_name].filter(Boolean).join(' ');
      let count = 0;
      for (const member of members) {
        if (!(await wantsUnreadEmail(tx, { userId: member.user_id, email: member.email, kind: 'staff' }))) continue;
        await enqueueEmail(tx, {
          to: member.email,
          template: 'unread_message',
          language: member.language,
          data: {
            name: member.first_name,
            ...(from ? { institution_name: from } : {}),
            link: link('/partner/messages'),
          },
        });
        count += 1;
      }
      return count;
    });
  }

  return sent;
}

/** Looks for unread replies every minute (the delay before an email is five). */
export function unreadEmailJobs({ db, publicUrl }: { db: Db; publicUrl: string }): JobDefinition[] {
  return [
    scheduledPass({
      name: 'messages.unread-emails',
      schedule: '* * * * *',
      pass: () => notifyUnreadMessages(db, publicUrl),
      done: 'emailed unread messages',
    }),
  ];
}
