import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  MESSAGE_PAGE_SIZE,
  SUPPORT_INBOX_PAGE_SIZE,
  SUPPORT_MESSAGES,
  type AttachableDocument,
  type CreateTicket,
  type SendMessage,
  type SupportAgent,
  type SupportConversation,
  type SupportMessage,
  type SupportTicket,
  type SupportTicketPage,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { documents, files, students, supportMessages, supportTickets, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { consume, type Limit } from '../auth/index.ts';
import { AppError } from '../../lib/errors.ts';
import { notifyNewMessage } from '../notifications/index.ts';
import { publish } from '../../lib/realtime.ts';
import { containsPattern } from '../../lib/text-search.ts';

/** Which side of a ticket reads it: the student who opened it, or the support team (admins). */
export type Side = 'student' | 'team';

/** The caller acting on a ticket: the user, and for students the student record they own. */
export type StudentActor = { side: 'student'; userId: string; studentId: string };
export type TeamActor = { side: 'team'; userId: string };
export type Actor = StudentActor | TeamActor;

/**
 * Messages per user: generous for a conversation, tight enough that a script cannot flood the team's
 * inbox. New tickets count here too, so opening tickets in a loop is bounded the same way.
 */
export const MESSAGE_LIMIT: Limit = { name: 'support-message:user', max: 30, windowMs: 60_000 };

const assignee = alias(users, 'assignee');
const iso = (value: string) => new Date(value).toISOString();
const isoOrNull = (value: string | null) => (value === null ? null : iso(value));

const studentName = sql<
  string | null
>`nullif(trim(concat_ws(' ', coalesce(${students.preferred_name}, ${students.first_name}), ${students.last_name})), '')`;

/** The ticket columns as the given side sees them: its unread count and the other side's receipt. */
function ticketColumns(side: Side) {
  const readAt =
    side === 'student' ? sql.raw('support_tickets.student_read_at') : sql.raw('support_tickets.team_read_at');
  const otherSide = side === 'student' ? 'team' : 'student';
  return {
    id: supportTickets.id,
    subject: supportTickets.subject,
    status: supportTickets.status,
    closed_by: supportTickets.closed_by,
    closed_at: supportTickets.closed_at,
    student_name: studentName,
    student_user_id: students.user_id,
    assigned_to: supportTickets.assigned_to,
    assigned_name: assignee.name,
    last_message_at: supportTickets.last_message_at,
    unread: sql<number>`(select count(*)::int from support_messages m where m.ticket_id = support_tickets.id and m.sender_side = ${otherSide} and (${readAt} is null or m.created_at > ${readAt}))`,
    other_read_at: side === 'student' ? supportTickets.team_read_at : supportTickets.student_read_at,
    created_at: supportTickets.created_at,
  };
}

function toTicket(row: TicketRow): SupportTicket {
  return {
    id: row.id,
    subject: row.subject,
    status: row.status,
    closed_by: row.closed_by,
    closed_at: isoOrNull(row.closed_at),
    student_name: row.student_name,
    assigned_to: row.assigned_to,
    assigned_name: row.assigned_name,
    last_message_at: iso(row.last_message_at),
    unread: Number(row.unread),
    other_read_at: isoOrNull(row.other_read_at),
    created_at: iso(row.created_at),
  };
}

type TicketRow = Awaited<ReturnType<typeof selectTickets>>[number];

function selectTickets(db: DbOrTx, side: Side) {
  return db
    .select(ticketColumns(side))
    .from(supportTickets)
    .innerJoin(students, eq(students.id, supportTickets.student_id))
    .leftJoin(assignee, eq(assignee.id, supportTickets.assigned_to));
}

/** The ticket as the actor may see it: a student's own only (another's is 404, as if it did not exist). */
async function findTicket(db: DbOrTx, actor: Actor, ticketId: string) {
  const owned =
    actor.side === 'student'
      ? and(eq(supportTickets.id, ticketId), eq(supportTickets.student_id, actor.studentId))
      : eq(supportTickets.id, ticketId);
  const [row] = await selectTickets(db, actor.side).where(owned).limit(1);
  if (!row) throw new AppError('NOT_FOUND', SUPPORT_MESSAGES.conversation_not_found);
  return row;
}

/** The student record of a student user; a student account without one has no tickets. */
export async function studentActor(db: Db, userId: string): Promise<StudentActor> {
  const [row] = await db.select({ id: students.id }).from(students).where(eq(students.user_id, userId)).limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return { side: 'student', userId, studentId: row.id };
}

/** Who hears about a ticket's changes: every tab of its student, and the support team. */
function audienceOf(studentUserId: string) {
  return { users: [studentUserId], supportTeam: true };
}

export async function listOwnTickets(db: Db, actor: StudentActor): Promise<SupportTicket[]> {
  const rows = await selectTickets(db, 'student')
    .where(eq(supportTickets.student_id, actor.studentId))
    .orderBy(desc(supportTickets.last_message_at))
    .limit(200);
  return rows.map(toTicket);
}

export async function listInbox(
  db: Db,
  adminId: string,
  query: { status: 'open' | 'closed'; q?: string | undefined; mine?: boolean | undefined; page: number },
): Promise<SupportTicketPage> {
  const filters: (SQL | undefined)[] = [eq(supportTickets.status, query.status)];
  if (query.mine) filters.push(eq(supportTickets.assigned_to, adminId));
  if (query.q) {
    const pattern = containsPattern(query.q);
    filters.push(
      or(ilike(supportTickets.subject, pattern), ilike(studentName, pattern), ilike(students.email, pattern)),
    );
  }
  const where = and(...filters);
  const [rows, [count]] = await Promise.all([
    selectTickets(db, 'team')
      .where(where)
      .orderBy(desc(supportTickets.last_message_at), desc(supportTickets.id))
      .limit(SUPPORT_INBOX_PAGE_SIZE)
      .offset((query.page - 1) * SUPPORT_INBOX_PAGE_SIZE),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(supportTickets)
      .innerJoin(students, eq(students.id, supportTickets.student_id))
      .where(where),
  ]);
  return {
    items: rows.map(toTicket),
    total: Number(count?.total ?? 0),
    page: query.page,
    page_size: SUPPORT_INBOX_PAGE_SIZE,
  };
}

function toMessage(row: {
  id: string;
  ticket_id: string;
  sender_side: 'student' | 'team';
  sender_name: string | null;
  body: string;
  document_id: string | null;
  document_type: string | null;
  document_name: string | null;
  created_at: string;
}): SupportMessage {
  return {
    id: row.id,
    ticket_id: row.ticket_id,
    sender_side: row.sender_side,
    sender_name: row.sender_name,
    body: row.body,
    document:
      row.document_id && row.document_type
        ? { id: row.document_id, type: row.document_type, name: row.document_name ?? row.document_type }
        : null,
    created_at: iso(row.created_at),
  };
}

const messageColumns = {
  id: supportMessages.id,
  ticket_id: supportMessages.ticket_id,
  sender_side: supportMessages.sender_side,
  sender_name: users.name,
  body: supportMessages.body,
  document_id: documents.id,
  document_type: documents.type,
  document_name: files.original_name,
  created_at: supportMessages.created_at,
};

function selectMessages(db: DbOrTx) {
  return db
    .select(messageColumns)
    .from(supportMessages)
    .leftJoin(users, eq(users.id, supportMessages.sender_id))
    .leftJoin(documents, eq(documents.id, supportMessages.document_id))
    .leftJoin(files, eq(files.id, documents.file_id));
}

/** The ticket with a page of its messages, newest page first (or the page before `before`), oldest first. */
export async function readConversation(
  db: Db,
  actor: Actor,
  ticketId: string,
  before?: string,
): Promise<SupportConversation> {
  const ticket = await findTicket(db, actor, ticketId);
  const filters: SQL[] = [eq(supportMessages.ticket_id, ticketId)];
  if (before) {
    // Keyset paging on (created_at, id): stable while new messages arrive at the other end.
    filters.push(
      sql`(${supportMessages.created_at}, ${supportMessages.id}) < (select c.created_at, c.id from support_messages c where c.id = ${before} and c.ticket_id = ${ticketId})`,
    );
  }
  const rows = await selectMessages(db)
    .where(and(...filters))
    .orderBy(desc(supportMessages.created_at), desc(supportMessages.id))
    .limit(MESSAGE_PAGE_SIZE + 1);
  const hasOlder = rows.length > MESSAGE_PAGE_SIZE;
  const page = rows.slice(0, MESSAGE_PAGE_SIZE).reverse();
  return {
    ticket: toTicket(ticket),
    messages: page.map(toMessage),
    older_cursor: hasOlder && page[0] ? page[0].id : null,
  };
}

/** A document of the student's own profile, or 400: a student cannot share another's file. */
async function assertOwnDocument(db: DbOrTx, studentId: string, documentId: string): Promise<void> {
  const [row] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.student_id, studentId)))
    .limit(1);
  if (!row) throw new AppError('INVALID_ARGUMENT', undefined, { document_id: 'not one of your documents' });
}

export async function listAttachableDocuments(db: Db, studentId: string): Promise<AttachableDocument[]> {
  const rows = await db
    .select({ id: documents.id, type: documents.type, name: files.original_name })
    .from(documents)
    .innerJoin(files, eq(files.id, documents.file_id))
    .where(eq(documents.student_id, studentId))
    .orderBy(documents.type);
  return rows;
}

/**
 * Database failures while storing a message are answered with the spec's text, so the sender knows the
 * message was not kept (it is acknowledged only once stored).
 */
async function storing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('UNAVAILABLE', SUPPORT_MESSAGES.database_failed, undefined, {
      reason: 'support_database_failed',
    });
  }
}

async function insertMessage(
  tx: DbOrTx,
  values: { ticketId: string; senderId: string; side: Side; body: string; documentId: string | null },
): Promise<string> {
  const [row] = await tx
    .insert(supportMessages)
    .values({
      ticket_id: values.ticketId,
      sender_id: values.senderId,
      sender_side: values.side,
      body: values.body,
      document_id: values.documentId,
      // The wall clock, not the transaction's start, so messages of one transaction keep their order.
      created_at: sql`clock_timestamp()`,
    })
    .returning({ id: supportMessages.id });
  if (!row) throw new Error('support message insert returned no row');
  return row.id;
}

async function readMessage(db: DbOrTx, id: string): Promise<SupportMessage> {
  const [row] = await selectMessages(db).where(eq(supportMessages.id, id)).limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return toMessage(row);
}

export async function createTicket(db: Db, actor: StudentActor, input: CreateTicket): Promise<SupportConversation> {
  await consume(db, MESSAGE_LIMIT, actor.userId);
  const documentId = input.document_id ?? null;
  if (documentId) await assertOwnDocument(db, actor.studentId, documentId);
  const ticketId = await storing(() =>
    db.transaction(async (tx) => {
      const [ticket] = await tx
        .insert(supportTickets)
        // The first message's start stands in for a subject the student left empty.
        .values({
          student_id: actor.studentId,
          subject: input.subject || input.body.slice(0, 80),
          student_read_at: sql`clock_timestamp()`,
        })
        .returning({ id: supportTickets.id });
      if (!ticket) throw new Error('support ticket insert returned no row');
      await insertMessage(tx, {
        ticketId: ticket.id,
        senderId: actor.userId,
        side: 'student',
        body: input.body,
        documentId,
      });
      await publish(tx, audienceOf(actor.userId), { type: 'support.ticket', ticket_id: ticket.id });
      return ticket.id;
    }),
  );
  return readConversation(db, actor, ticketId);
}

/**
 * Stores a message on an open ticket. The ticket is locked and its status checked in the same
 * transaction, so a message never lands on a ticket closed a moment before.
 */
export async function sendMessage(db: Db, actor: Actor, ticketId: string, input: SendMessage): Promise<SupportMessage> {
  const ticket = await findTicket(db, actor, ticketId);
  await consume(db, MESSAGE_LIMIT, actor.userId);
  const documentId = input.document_id ?? null;
  if (documentId) {
    // Only the student shares profile documents; the team answers in words.
    if (actor.side !== 'student') throw new AppError('INVALID_ARGUMENT', undefined, { document_id: 'students only' });
    await assertOwnDocument(db, actor.studentId, documentId);
  }
  const { messageId } = await storing(() =>
    db.transaction(async (tx) => {
      const readColumn = actor.side === 'student' ? 'student_read_at' : 'team_read_at';
      const [open] = await tx
        .update(supportTickets)
        .set({ last_message_at: sql`clock_timestamp()`, [readColumn]: sql`clock_timestamp()` })
        .where(and(eq(supportTickets.id, ticketId), eq(supportTickets.status, 'open')))
        .returning({ id: supportTickets.id });
      if (!open) throw new AppError('ABORTED', SUPPORT_MESSAGES.ticket_closed, undefined, { reason: 'ticket_closed' });
      const id = await insertMessage(tx, {
        ticketId,
        senderId: actor.userId,
        side: actor.side,
        body: input.body,
        documentId,
      });
      await publish(tx, audienceOf(ticket.student_user_id), { type: 'support.message', ticket_id: ticketId });
      // The team answered: the student gets a notification (and a push if they want messages pushed).
      if (actor.side === 'team') {
        await notifyNewMessage(tx, { userId: ticket.student_user_id, sender: null, link: '/support' });
      }
      return { messageId: id };
    }),
  );
  return readMessage(db, messageId);
}

/** Closes an open ticket: resolved by its student, or closed by the team. A closed ticket stays closed. */
export async function closeTicket(db: Db, actor: Actor, ticketId: string): Promise<SupportTicket> {
  const ticket = await findTicket(db, actor, ticketId);
  await db.transaction(async (tx) => {
    const [closed] = await tx
      .update(supportTickets)
      .set({ status: 'closed', closed_by: actor.side, closed_at: sql`now()` })
      .where(and(eq(supportTickets.id, ticketId), eq(supportTickets.status, 'open')))
      .returning({ id: supportTickets.id });
    if (!closed) throw new AppError('ABORTED', SUPPORT_MESSAGES.ticket_closed, undefined, { reason: 'ticket_closed' });
    await publish(tx, audienceOf(ticket.student_user_id), { type: 'support.ticket', ticket_id: ticketId });
  });
  return toTicket(await findTicket(db, actor, ticketId));
}

/** Read receipt: the side has read everything up to now. */
export async function markRead(db: Db, actor: Actor, ticketId: string): Promise<SupportTicket> {
  const ticket = await findTicket(db, actor, ticketId);
  // Nothing new to acknowledge: no write and no event, so clients refetching on events never loop.
  if (Number(ticket.unread) === 0) return toTicket(ticket);
  await db.transaction(async (tx) => {
    await tx
      .update(supportTickets)
      .set(actor.side === 'student' ? { student_read_at: sql`now()` } : { team_read_at: sql`now()` })
      .where(eq(supportTickets.id, ticketId));
    await publish(tx, audienceOf(ticket.student_user_id), { type: 'support.read', ticket_id: ticketId });
  });
  return toTicket(await findTicket(db, actor, ticketId));
}

export async function listAgents(db: Db): Promise<SupportAgent[]> {
  return db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.type, 'admin'))
    .orderBy(users.name, users.email)
    .limit(500);
}

/** Hands the ticket to an admin (the caller or another), or back to nobody. Closed tickets may be reassigned too. */
export async function assignTicket(
  db: Db,
  actor: TeamActor,
  ticketId: string,
  adminId: string | null,
): Promise<SupportTicket> {
  const ticket = await findTicket(db, actor, ticketId);
  if (adminId) {
    const [admin] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, adminId), eq(users.type, 'admin')))
      .limit(1);
    if (!admin) throw new AppError('INVALID_ARGUMENT', undefined, { admin_id: 'not a support agent' });
  }
  await db.transaction(async (tx) => {
    await tx.update(supportTickets).set({ assigned_to: adminId }).where(eq(supportTickets.id, ticketId));
    await publish(tx, audienceOf(ticket.student_user_id), { type: 'support.ticket', ticket_id: ticketId });
  });
  return toTicket(await findTicket(db, actor, ticketId));
}
