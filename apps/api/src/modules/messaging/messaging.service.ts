import { and, eq, sql, type AnyColumn } from 'drizzle-orm';
import type { UnreadCounts } from '@kaminuza/shared';
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
import type { RequestUser } from '../auth/index.ts';

/** Messages newer than the reader's last read (never read: all of them). */
const after = (created: AnyColumn, readAt: AnyColumn) =>
  sql`${created} > coalesce(${readAt}, '-infinity'::timestamptz)`;

async function count(query: Promise<{ n: number }[]>): Promise<number> {
  const [row] = await query;
  return Number(row?.n ?? 0);
}

const total = { n: sql<number>`count(*)::int` };

/**
 * Unread messages for the navigation badges: a student's replies from the team and from institutions,
 * a staff member's messages from students to their institution (when they may read them), an admin's
 * messages from students in support.
 */
export async function unreadCounts(db: Db, user: RequestUser): Promise<UnreadCounts> {
  if (user.type === 'student') {
    const [support, chatsUnread] = await Promise.all([
      count(
        db
          .select(total)
          .from(supportMessages)
          .innerJoin(supportTickets, eq(supportTickets.id, supportMessages.ticket_id))
          .innerJoin(students, eq(students.id, supportTickets.student_id))
          .where(
            and(
              eq(students.user_id, user.id),
              eq(supportMessages.sender_side, 'team'),
              after(supportMessages.created_at, supportTickets.student_read_at),
            ),
          ),
      ),
      count(
        db
          .select(total)
          .from(chatMessages)
          .innerJoin(chats, eq(chats.id, chatMessages.chat_id))
          .innerJoin(students, eq(students.id, chats.student_id))
          .where(
            and(
              eq(students.user_id, user.id),
              eq(chatMessages.sender_side, 'partner'),
              after(chatMessages.created_at, chats.student_read_at),
            ),
          ),
      ),
    ]);
    return { support, chats: chatsUnread };
  }
  if (user.type === 'staff') {
    // Only a member who may read the institution's messages sees their count.
    const [member] = await db
      .select({ partner_id: staff.partner_id })
      .from(staff)
      .innerJoin(partners, eq(partners.id, staff.partner_id))
      .where(and(eq(staff.user_id, user.id), activeStaffHolding('message_applicants')))
      .limit(1);
    if (!member) return { support: 0, chats: 0 };
    const chatsUnread = await count(
      db
        .select(total)
        .from(chatMessages)
        .innerJoin(chats, eq(chats.id, chatMessages.chat_id))
        .where(
          and(
            eq(chats.partner_id, member.partner_id),
            eq(chatMessages.sender_side, 'student'),
            after(chatMessages.created_at, chats.partner_read_at),
          ),
        ),
    );
    return { support: 0, chats: chatsUnread };
  }
  const support = await count(
    db
      .select(total)
      .from(supportMessages)
      .innerJoin(supportTickets, eq(supportTickets.id, supportMessages.ticket_id))
      .where(
        and(
          eq(supportMessages.sender_side, 'student'),
          eq(supportTickets.status, 'open'),
          after(supportMessages.created_at, supportTickets.team_read_at),
        ),
      ),
  );
  return { support, chats: 0 };
}
