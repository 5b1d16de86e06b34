import { and, asc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  applications,
  campuses,
  chatMessages,
  chats,
  cycles,
  decisions,
  documents,
  files,
  notifications,
  partners,
  payments,
  programs,
  staff,
  students,
  submissions,
  supportMessages,
  supportTickets,
  userPreferences,
  users,
} from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';

/** One stored file of the archive: its path in the zip and the storage key its bytes are read from. */
export interface ExportFile {
  path: string;
  key: string;
}

export interface AccountExport {
  data: Record<string, unknown>;
  files: ExportFile[];
}

/** A name safe in any unzip tool: no folders, no control characters, nothing but a few punctuation marks. */
const safeName = (name: string) => name.replace(/[^\p{L}\p{N}._ -]/gu, '_').slice(0, 120) || 'file';

/**
 * Everything Kaminuza holds about one account, as its owner may see it (the right of access of Rwanda's
 * Law 058/2021, Nigeria's NDPA, Kenya's DPA and POPIA). Only rows that name this account: another person
 * appears only as the side of a conversation ("institution", "support"), never by name or id, and what
 * institution staff write about the applicant among themselves (notes, scores, unreleased decisions) is
 * theirs, not part of it. Secrets (password hash, session tokens, the unsubscribe token) are left out.
 */
export async function accountExport(db: Db, userId: string, now = new Date()): Promise<AccountExport> {
  const [account] = await db
    .select({
      id: users.id,
      email: users.email,
      type: users.type,
      contact_verified: users.contact_verified,
      terms_accepted: users.terms_accepted,
      created_at: users.created_at,
      updated_at: users.updated_at,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!account) throw new AppError('NOT_FOUND');

  const [preferenceRow] = await db.select().from(userPreferences).where(eq(userPreferences.user_id, userId));
  const preferences = preferenceRow
    ? (({ unsubscribe_token: _secret, user_id: _user, ...rest }) => rest)(preferenceRow)
    : null;
  const notificationRows = await db
    .select({
      type: notifications.type,
      category: notifications.category,
      data: notifications.data,
      link: notifications.link,
      read_at: notifications.read_at,
      created_at: notifications.created_at,
    })
    .from(notifications)
    .where(eq(notifications.user_id, userId))
    .orderBy(asc(notifications.created_at));
  const fileRows = await db
    .select({
      id: files.id,
      key: files.storage_key,
      original_name: files.original_name,
      mime_type: files.mime_type,
      size: files.size,
      purpose: files.purpose,
      created_at: files.created_at,
    })
    .from(files)
    .where(eq(files.owner_id, userId))
    .orderBy(asc(files.created_at));
  const archived = fileRows.map((file) => ({ ...file, path: `files/${file.id}-${safeName(file.original_name)}` }));

  const data: Record<string, unknown> = {
    exported_at: now.toISOString(),
    account,
    preferences,
    notifications: notificationRows,
    files: archived.map(({ key: _key, ...file }) => file),
  };

  if (account.type === 'staff') {
    const [member] = await db
      .select({
        email: staff.email,
        first_name: staff.first_name,
        last_name: staff.last_name,
        phone: staff.phone,
        job_title: staff.job_title,
        work_email: staff.work_email,
        language: staff.language,
        currency: staff.currency,
        timezone: staff.timezone,
        role: staff.role,
        permissions: staff.permissions,
        active: staff.active,
        institution: partners.name,
        created_at: staff.created_at,
      })
      .from(staff)
      .innerJoin(partners, eq(partners.id, staff.partner_id))
      .where(eq(staff.user_id, userId));
    data.staff_profile = member ?? null;
    data.chat_messages_written = await db
      .select({ body: chatMessages.body, created_at: chatMessages.created_at })
      .from(chatMessages)
      .where(eq(chatMessages.sender_id, userId))
      .orderBy(asc(chatMessages.created_at));
  }
  if (account.type === 'admin') {
    data.support_messages_written = await db
      .select({ body: supportMessages.body, created_at: supportMessages.created_at })
      .from(supportMessages)
      .where(eq(supportMessages.sender_id, userId))
      .orderBy(asc(supportMessages.created_at));
  }
  if (account.type === 'student') Object.assign(data, await studentRecords(db, userId));

  return { data, files: archived.map(({ path, key }) => ({ path, key })) };
}

async function studentRecords(db: Db, userId: string): Promise<Record<string, unknown>> {
  const [student] = await db.select().from(students).where(eq(students.user_id, userId));
  if (!student) return { profile: null };
  const { id: studentId, user_id: _user, ...profile } = student;

  const applicationRows = await db
    .select({
      id: applications.id,
      institution: partners.name,
      cycle: cycles.name,
      program: programs.name,
      campus: campuses.name,
      status: applications.status,
      answers: applications.answers,
      progress_percentage: applications.progress_percentage,
      started_at: applications.started_at,
      last_saved_at: applications.last_saved_at,
      submitted_at: applications.submitted_at,
    })
    .from(applications)
    .innerJoin(partners, eq(partners.id, applications.partner_id))
    .innerJoin(cycles, eq(cycles.id, applications.cycle_id))
    .innerJoin(programs, eq(programs.id, applications.program_id))
    .leftJoin(campuses, eq(campuses.id, applications.campus_id))
    .where(eq(applications.student_id, studentId))
    .orderBy(asc(applications.started_at));

  // What the applicant sent, not the institution's handling of it (stage, assignee, scores).
  const submissionRows = await db
    .select({
      id: submissions.id,
      reference: submissions.reference,
      institution: partners.name,
      program: programs.name,
      campus: campuses.name,
      profile: submissions.profile,
      answers: submissions.answers,
      paid: submissions.paid,
      amount: submissions.amount,
      currency: submissions.currency,
      created_at: submissions.created_at,
    })
    .from(submissions)
    .innerJoin(partners, eq(partners.id, submissions.partner_id))
    .leftJoin(programs, eq(programs.id, submissions.program_id))
    .leftJoin(campuses, eq(campuses.id, submissions.campus_id))
    .where(eq(submissions.student_id, studentId))
    .orderBy(asc(submissions.created_at));

  // Only released decisions: a draft is the institution's until it is released.
  const decisionRows = await db
    .select({
      submission_id: decisions.submission_id,
      state: decisions.state,
      program_name: decisions.program_name,
      university_name: decisions.university_name,
      released_at: decisions.released_at,
      response: decisions.response,
      response_date: decisions.response_date,
      letter: decisions.letter,
    })
    .from(decisions)
    .where(and(eq(decisions.student_id, studentId), isNotNull(decisions.released_at)))
    .orderBy(asc(decisions.released_at));

  const applicationIds = applicationRows.map((row) => row.id);
  const paymentRows = await db
    .select({
      application_id: payments.application_id,
      provider: payments.provider,
      reference: payments.reference,
      amount: payments.amount,
      currency: payments.currency,
      status: payments.status,
      method: payments.method,
      failure_reason: payments.failure_reason,
      paid_at: payments.paid_at,
      created_at: payments.created_at,
    })
    .from(payments)
    .where(
      or(
        eq(payments.student_id, studentId),
        applicationIds.length > 0 ? inArray(payments.application_id, applicationIds) : undefined,
      ),
    )
    .orderBy(asc(payments.created_at));

  const documentRows = await db
    .select({
      type: documents.type,
      status: documents.status,
      review_note: documents.review_note,
      file_id: documents.file_id,
      file_name: files.original_name,
      uploaded_at: documents.updated_at,
    })
    .from(documents)
    .innerJoin(files, eq(files.id, documents.file_id))
    .where(eq(documents.student_id, studentId));

  const chatRows = await db
    .select({ id: chats.id, institution: partners.name, created_at: chats.created_at })
    .from(chats)
    .innerJoin(partners, eq(partners.id, chats.partner_id))
    .where(eq(chats.student_id, studentId))
    .orderBy(asc(chats.created_at));
  const chatMessageRows =
    chatRows.length === 0
      ? []
      : await db
          .select({
            chat_id: chatMessages.chat_id,
            from: chatMessages.sender_side,
            body: chatMessages.body,
            created_at: chatMessages.created_at,
          })
          .from(chatMessages)
          .where(
            inArray(
              chatMessages.chat_id,
              chatRows.map((chat) => chat.id),
            ),
          )
          .orderBy(asc(chatMessages.created_at));

  const ticketRows = await db
    .select({
      id: supportTickets.id,
      subject: supportTickets.subject,
      status: supportTickets.status,
      closed_by: supportTickets.closed_by,
      closed_at: supportTickets.closed_at,
      created_at: supportTickets.created_at,
    })
    .from(supportTickets)
    .where(eq(supportTickets.student_id, studentId))
    .orderBy(asc(supportTickets.created_at));
  const ticketMessageRows =
    ticketRows.length === 0
      ? []
      : await db
          .select({
            ticket_id: supportMessages.ticket_id,
            from: supportMessages.sender_side,
            body: supportMessages.body,
            created_at: supportMessages.created_at,
          })
          .from(supportMessages)
          .where(
            inArray(
              supportMessages.ticket_id,
              ticketRows.map((ticket) => ticket.id),
            ),
          )
          .orderBy(asc(supportMessages.created_at));

  return {
    profile,
    applications: applicationRows,
    submissions: submissionRows,
    decisions: decisionRows,
    payments: paymentRows,
    documents: documentRows,
    chats: chatRows.map(({ id, ...chat }) => ({
      ...chat,
      messages: chatMessageRows.filter((message) => message.chat_id === id).map(({ chat_id: _chat, ...m }) => m),
    })),
    support_tickets: ticketRows.map(({ id, ...ticket }) => ({
      ...ticket,
      messages: ticketMessageRows.filter((message) => message.ticket_id === id).map(({ ticket_id: _t, ...m }) => m),
    })),
  };
}
