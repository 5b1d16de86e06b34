import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  MESSAGE_PAGE_SIZE,
  SUPPORT_MESSAGES,
  type Chat,
  type ChatMessage,
  type ChatMessagePage,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { chatMessages, chats, partners, students, users } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { notifyNewMessage } from '../notifications/index.ts';
import { publish } from '../../lib/realtime.ts';
import type { DbOrTx } from '../../db/client.ts';
import { consume, type Limit } from '../auth/index.ts';

/** Who reads a conversation: the student, or the institution's messaging staff (one side for all). */
export type ChatSide = 'student' | 'partner';

/**
 * The caller and the conversations within their reach: a student reaches their own chats, a staff
 * member their institution's. Every read and write of a chat is filtered by this, so another party's
 * chat is indistinguishable from a missing one (404).
 */
export type ChatViewer =
  { side: 'student'; userId: string; studentId: string } | { side: 'partner'; userId: string; partnerId: string };

/** Per user, across both sides: generous for a conversation, low enough to stop a flood. */
export const MESSAGE_LIMIT: Limit = { name: 'chat-messages:user', max: 30, windowMs: 60_000 };

const iso = (value: string) => new Date(value).toISOString();
const isoOrNull = (value: string | null) => (value === null ? null : iso(value));

const other = (side: ChatSide): ChatSide => (side === 'student' ? 'partner' : 'student');

/** The student record of a student user; a student account without one has no conversations. */
export async function studentViewer(db: Db, userId: string): Promise<ChatViewer> {
  const [row] = await db.select({ id: students.id }).from(students).where(eq(students.user_id, userId)).limit(1);
  if (!row) throw new AppError('NOT_FOUND', SUPPORT_MESSAGES.conversation_not_found);
  return { side: 'student', userId, studentId: row.id };
}

function scopeOf(viewer: ChatViewer): SQL {
  return viewer.side === 'student' ? eq(chats.student_id, viewer.studentId) : eq(chats.partner_id, viewer.partnerId);
}

function chatColumns(side: ChatSide) {
  const readAt = side === 'student' ? chats.student_read_at : chats.partner_read_at;
  return {
    id: chats.id,
    partner_id: chats.partner_id,
    partner_name: partners.name,
    student_name: users.name,
    last_message_at: chats.last_message_at,
    last_message: sql<
      string | null
    >`(select m.body from chat_messages m where m.chat_id = ${chats.id} order by m.created_at desc, m.id desc limit 1)`,
    // Unread: the other side's messages since this side last opened the conversation.
    unread: sql<number>`(select count(*)::int from chat_messages m where m.chat_id = ${chats.id} and m.sender_side = ${other(side)} and m.created_at > coalesce(${readAt}, '-infinity'::timestamptz))`,
    other_read_at: side === 'student' ? chats.partner_read_at : chats.student_read_at,
    created_at: chats.created_at,
  };
}

type ChatRow = {
  id: string;
  partner_id: string;
  partner_name: string;
  student_name: string | null;
  last_message_at: string;
  last_message: string | null;
  unread: number;
  other_read_at: string | null;
  created_at: string;
};

const toChat = (row: ChatRow): Chat => ({
  ...row,
  // The student's display name is their account name; an empty one is shown as unknown.
  student_name: row.student_name || null,
  unread: Number(row.unread),
  last_message_at: iso(row.last_message_at),
  other_read_at: isoOrNull(row.other_read_at),
  created_at: iso(row.created_at),
});

function chatQuery(db: DbOrTx, side: ChatSide) {
  return db
    .select(chatColumns(side))
    .from(chats)
    .innerJoin(partners, eq(partners.id, chats.partner_id))
    .innerJoin(students, eq(students.id, chats.student_id))
    .innerJoin(users, eq(users.id, students.user_id));
}

/** One conversation within the viewer's reach, or 404. */
export async function getChat(db: DbOrTx, viewer: ChatViewer, chatId: string): Promise<Chat> {
  const [row] = await chatQuery(db, viewer.side)
    .where(and(eq(chats.id, chatId), scopeOf(viewer)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', SUPPORT_MESSAGES.conversation_not_found);
  return toChat(row);
}

/**
 * The viewer's conversations, latest activity first. Staff see only conversations the student has
 * written in: opening a chat screen without writing must not fill the institution's inbox. Students
 * see those with institutions still listed.
 */
export async function listChats(db: Db, viewer: ChatViewer): Promise<Chat[]> {
  const written = sql`exists (select 1 from chat_messages m where m.chat_id = ${chats.id})`;
  // A student's list shows the institutions they can still write to; a hidden one's page is gone too.
  const listed = and(eq(partners.status, 'approved'), eq(partners.published, true));
  const rows = await chatQuery(db, viewer.side)
    .where(viewer.side === 'partner' ? and(scopeOf(viewer), written) : and(scopeOf(viewer), listed))
    .orderBy(desc(chats.last_message_at), desc(chats.id));
  return rows.map(toChat);
}

/** Institutions students may write to are the ones they may see: approved and published. */
async function assertListed(db: DbOrTx, partnerId: string): Promise<void> {
  const [row] = await db
    .select({ status: partners.status, published: partners.published })
    .from(partners)
    .where(eq(partners.id, partnerId))
    .limit(1);
  // An unknown institution answers like a hidden one: which ids exist is not the student's business.
  if (!row || row.status !== 'approved' || !row.published) {
    throw new AppError('PERMISSION_DENIED', SUPPORT_MESSAGES.institution_unavailable, undefined, {
      reason: 'institution_unavailable',
    });
  }
}

/** The student's conversation with a listed institution, created on first use (one per pair). */
export async function startChat(db: Db, userId: string, partnerId: string): Promise<Chat> {
  const viewer = await studentViewer(db, userId);
  if (viewer.side !== 'student') throw new Error('unreachable');
  await assertListed(db, partnerId);
  // The unique pair makes concurrent starts (two tabs) land on one row.
  await db
    .insert(chats)
    .values({ student_id: viewer.studentId, partner_id: partnerId })
    .onConflictDoNothing({ target: [chats.student_id, chats.partner_id] });
  const [row] = await chatQuery(db, 'student')
    .where(and(eq(chats.student_id, viewer.studentId), eq(chats.partner_id, partnerId)))
    .limit(1);
  if (!row) throw new Error('chat upsert found no row');
  return toChat(row);
}

const messageColumns = {
  id: chatMessages.id,
  chat_id: chatMessages.chat_id,
  sender_side: chatMessages.sender_side,
  sender_name: users.name,
  body: chatMessages.body,
  created_at: chatMessages.created_at,
};

const toMessage = (row: {
  id: string;
  chat_id: string;
  sender_side: ChatSide;
  sender_name: string | null;
  body: string;
  created_at: string;
}): ChatMessage => ({ ...row, sender_name: row.sender_name || null, created_at: iso(row.created_at) });

/** A page of messages, oldest first: the newest page, or the page before the message `before`. */
export async function listMessages(
  db: Db,
  viewer: ChatViewer,
  chatId: string,
  before?: string,
): Promise<ChatMessagePage> {
  await getChat(db, viewer, chatId);
  const conditions = [eq(chatMessages.chat_id, chatId)];
  if (before) {
    // Keyset paging on (created_at, id): stable while new messages keep arriving at the other end.
    conditions.push(
      sql`(${chatMessages.created_at}, ${chatMessages.id}) < (select c.created_at, c.id from chat_messages c where c.id = ${before} and c.chat_id = ${chatId})`,
    );
  }
  const rows = await db
    .select(messageColumns)
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.sender_id))
    .where(and(...conditions))
    .orderBy(desc(chatMessages.created_at), desc(chatMessages.id))
    .limit(MESSAGE_PAGE_SIZE + 1);
  const has_more = rows.length > MESSAGE_PAGE_SIZE;
  return { messages: rows.slice(0, MESSAGE_PAGE_SIZE).reverse().map(toMessage), has_more };
}

/** Both sides of a conversation, for realtime: the student's user and the institution's staff. */
async function audienceOf(db: DbOrTx, chatId: string) {
  const [row] = await db
    .select({ studentUser: students.user_id, partnerId: chats.partner_id })
    .from(chats)
    .innerJoin(students, eq(students.id, chats.student_id))
    .where(eq(chats.id, chatId))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', SUPPORT_MESSAGES.conversation_not_found);
  return { users: [row.studentUser], partnerId: row.partnerId };
}

/**
 * Stores a message and only then answers: the insert, the conversation's activity time, the sender's
 * own read mark and the realtime notice commit together. Sending also marks the conversation read for
 * the sender, since they have it open.
 */
export async function sendMessage(db: Db, viewer: ChatViewer, chatId: string, body: string): Promise<ChatMessage> {
  await consume(db, MESSAGE_LIMIT, viewer.userId);
  const chat = await getChat(db, viewer, chatId);
  const id = await db.transaction(async (tx) => {
    if (viewer.side === 'student') await assertListed(tx, chat.partner_id);
    const [inserted] = await tx
      .insert(chatMessages)
      .values({ chat_id: chatId, sender_id: viewer.userId, sender_side: viewer.side, body })
      .returning({ id: chatMessages.id, created_at: chatMessages.created_at });
    if (!inserted) throw new Error('chat message insert returned no row');
    await tx
      .update(chats)
      .set(
        viewer.side === 'student'
          ? { last_message_at: inserted.created_at, student_read_at: inserted.created_at }
          : { last_message_at: inserted.created_at, partner_read_at: inserted.created_at },
      )
      .where(eq(chats.id, chatId));
    const audience = await audienceOf(tx, chatId);
    await publish(tx, audience, { type: 'chat.message', chat_id: chatId });
    // The institution answered: the student gets a notification (and a push if they want messages pushed).
    if (viewer.side === 'partner') {
      await notifyNewMessage(tx, {
        userId: audience.users[0]!,
        sender: chat.partner_name,
        link: `/partners/${chat.partner_id}/chat`,
      });
    }
    return inserted.id;
  });
  const [row] = await db
    .select(messageColumns)
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.sender_id))
    .where(eq(chatMessages.id, id));
  if (!row) throw new Error('stored chat message not found');
  return toMessage(row);
}

/** The viewer's side has read the conversation up to now (a read receipt for the other side). */
export async function markRead(db: Db, viewer: ChatViewer, chatId: string): Promise<Chat> {
  await getChat(db, viewer, chatId);
  await db.transaction(async (tx) => {
    await tx
      .update(chats)
      .set(viewer.side === 'student' ? { student_read_at: sql`now()` } : { partner_read_at: sql`now()` })
      .where(eq(chats.id, chatId));
    await publish(tx, await audienceOf(tx, chatId), { type: 'chat.read', chat_id: chatId });
  });
  return getChat(db, viewer, chatId);
}
