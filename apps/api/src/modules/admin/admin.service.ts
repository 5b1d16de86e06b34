import type { z } from 'zod';
import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  type AdminJobs,
  type AdminJobsQuerySchema,
  ADMIN_MESSAGES,
  ANALYTICS_DAYS,
  PARTNER_STATUSES,
  SUBMISSION_STATUSES,
  type AdminAnalytics,
  type AdminApplicationPage,
  type AdminAuditAction,
  type AdminInstitution,
  type AdminInstitutionPage,
  type AuditEntryPage,
  type EmailTemplate,
  type SubmissionStatus,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { auditLog, partners, staff, students, submissions, users } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { JobQueue } from '../../lib/jobs/queue.ts';
import { enqueueEmail, type DbOrTransaction } from '../email/index.ts';
import { decidePendingInstitution } from '../partners/index.ts';
import { containsPattern, folded } from '../../lib/text-search.ts';

type PartnerStatus = (typeof PARTNER_STATUSES)[number];

export interface PageInput {
  page: number;
  page_size: number;
}

/**
 * Name search on the folded name and its trigram index: a substring match, or a close spelling
 * (trigram similarity) so "Nairoby" still finds Nairobi.
 */
function nameMatches(q: string): SQL {
  return sql`(${partners.search_name} like ${folded(containsPattern(q))} or ${partners.search_name} % ${folded(q)})`;
}

const primaryContact = {
  first_name: staff.first_name,
  last_name: staff.last_name,
  /** The job title given at sign-up; older records have only the role. */
  job_title: sql<string>`coalesce(${staff.job_title}, ${staff.role})`,
  /** The work email given at sign-up, else the account's. */
  email: sql<string>`coalesce(${staff.work_email}, ${staff.email})`,
  phone: staff.phone,
};

const institutionColumns = {
  id: partners.id,
  name: partners.name,
  institution_type: partners.institution_type,
  year_established: partners.year_established,
  city: partners.address_city,
  country: partners.address_country,
  website: partners.contact_website,
  contact_email: partners.contact_email,
  contact_phone: partners.contact_phone,
  accreditation_body: partners.accreditation_body,
  accreditation_number: partners.accreditation_number,
  program_count: partners.program_count,
  status: partners.status,
  published: partners.published,
  review_reason: partners.review_reason,
  reviewed_at: partners.reviewed_at,
  created_at: partners.created_at,
  contact: primaryContact,
};

type InstitutionRow = Omit<AdminInstitution, 'primary_contact'> & {
  contact: { first_name: string; last_name: string; job_title: string; email: string; phone: string | null } | null;
};

function toInstitution({ contact, ...row }: InstitutionRow): AdminInstitution {
  return {
    ...row,
    primary_contact: contact
      ? {
          name: `${contact.first_name} ${contact.last_name}`.trim(),
          job_title: contact.job_title,
          email: contact.email,
          phone: contact.phone,
        }
      : null,
  };
}

/** The primary contact: at most one per institution, the earliest if data ever held two. */
const primaryContactJoin = sql`${staff.id} = (select s.id from staff s where s.partner_id = ${partners.id} and s.primary_contact order by s.created_at limit 1)`;

export interface InstitutionListInput extends PageInput {
  q?: string | undefined;
  status?: PartnerStatus | undefined;
  /** `newest`: the review queue, newest sign-ups first. `name`: the directory, best match then name. */
  order: 'newest' | 'name';
}

/** Institutions with their submitted details and primary contact, filtered, searched and paged in SQL. */
export async function listInstitutions(db: Db, input: InstitutionListInput): Promise<AdminInstitutionPage> {
  const q = input.q?.trim() || undefined;
  const where = and(input.status ? eq(partners.status, input.status) : undefined, q ? nameMatches(q) : undefined);
  const order =
    input.order === 'newest'
      ? [desc(partners.created_at), asc(partners.name)]
      : q
        ? [desc(sql`similarity(${partners.search_name}, ${folded(q)})`), asc(partners.name)]
        : [asc(partners.name)];
  const [rows, [total]] = await Promise.all([
    db
      .select(institutionColumns)
      .from(partners)
      .leftJoin(staff, primaryContactJoin)
      .where(where)
      .orderBy(...order, asc(partners.id))
      .limit(input.page_size)
      .offset((input.page - 1) * input.page_size),
    db.select({ total: count() }).from(partners).where(where),
  ]);
  return {
    items: (rows as InstitutionRow[]).map(toInstitution),
    total: total?.total ?? 0,
    page: input.page,
    page_size: input.page_size,
  };
}

export interface ReviewInput {
  partnerId: string;
  actorId: string;
  decision: 'approved' | 'rejected';
  reason?: string | undefined;
  /** Origin of the web app, for the email's link: sign in once approved, how to sign up once rejected. */
  publicUrl: string;
}

const DECISION: Record<ReviewInput['decision'], { action: AdminAuditAction; template: EmailTemplate }> = {
  approved: { action: 'institution.approved', template: 'institution_approved' },
  rejected: { action: 'institution.rejected', template: 'institution_rejected' },
};

/** Who hears about the review: the primary contact in their language, else the institution's address. */
async function reviewRecipient(
  tx: DbOrTransaction,
  partnerId: string,
  fallbackEmail: string | null,
): Promise<{ email: string; language: string; name?: string } | null> {
  const [contact] = await tx
    .select({ email: staff.email, language: staff.language, first_name: staff.first_name })
    .from(staff)
    .where(and(eq(staff.partner_id, partnerId), eq(staff.primary_contact, true)))
    .orderBy(asc(staff.created_at))
    .limit(1);
  if (contact) return { email: contact.email, language: contact.language, name: contact.first_name };
  return fallbackEmail ? { email: fallbackEmail, language: 'en' } : null;
}

/**
 * Approves or rejects an institution awaiting review, in one transaction: the status change (guarded
 * by `status = 'pending'`, so two admins deciding at once cannot both win), the review fields, the
 * email to the institution and the audit row commit together or not at all.
 *
 * Only pending institutions are decided here. A rejection is final for that sign-up: approving a
 * rejected (or reversing an approved) institution answers 409, and the institution signs up again.
 */
export async function reviewInstitution(db: Db, input: ReviewInput): Promise<AdminInstitution> {
  const { action, template } = DECISION[input.decision];
  const reason = input.decision === 'rejected' ? (input.reason ?? null) : null;
  return db.transaction(async (tx) => {
    const updated = await decidePendingInstitution(tx, {
      partnerId: input.partnerId,
      status: input.decision,
      reviewedBy: input.actorId,
      reason,
    });
    if (!updated) {
      const [existing] = await tx
        .select({ status: partners.status })
        .from(partners)
        .where(eq(partners.id, input.partnerId));
      if (!existing) throw new AppError('NOT_FOUND');
      throw new AppError('ABORTED', ADMIN_MESSAGES.already_reviewed, { status: existing.status });
    }

    const recipient = await reviewRecipient(tx, updated.id, updated.contact_email);
    if (recipient) {
      await enqueueEmail(tx, {
        to: recipient.email,
        template,
        language: recipient.language,
        data: {
          ...(recipient.name ? { name: recipient.name } : {}),
          institution_name: updated.name,
          ...(reason ? { reason } : {}),
          link: new URL(input.decision === 'approved' ? '/login' : '/about/partner', input.publicUrl).toString(),
        },
      });
    }

    await tx.insert(auditLog).values({
      actor_id: input.actorId,
      action,
      target_type: 'partner',
      target_id: updated.id,
      details: { name: updated.name, ...(reason ? { reason } : {}), notified: recipient?.email ?? null },
    });

    const [row] = await tx
      .select(institutionColumns)
      .from(partners)
      .leftJoin(staff, primaryContactJoin)
      .where(eq(partners.id, updated.id));
    return toInstitution(row as InstitutionRow);
  });
}

export interface ApplicationListInput extends PageInput {
  q?: string | undefined;
  status?: SubmissionStatus | undefined;
}

/** Staff-submitted applications may have no student row: the submitted profile snapshot names them. */
const applicantName = sql<string>`coalesce(nullif(trim(concat_ws(' ', ${students.first_name}, ${students.last_name})), ''), ${submissions.profile} ->> 'fullName', '')`;
const applicantEmail = sql<string | null>`coalesce(${students.email}, ${submissions.profile} ->> 'email')`;

/** Submitted applications with their applicant and university, searched and paged in SQL. */
export async function listApplications(db: Db, input: ApplicationListInput): Promise<AdminApplicationPage> {
  const q = input.q?.trim() || undefined;
  const pattern = q ? containsPattern(q) : '';
  const where = and(
    input.status ? eq(submissions.status, input.status) : undefined,
    q
      ? sql`(lower(${submissions.reference}) like ${pattern}
          or ${folded(applicantName)} like ${folded(pattern)}
          or lower(${applicantEmail}) like ${pattern}
          or ${partners.search_name} like ${folded(pattern)})`
      : undefined,
  );
  const base = () =>
    db
      .select({
        id: submissions.id,
        reference: submissions.reference,
        applicant_name: applicantName,
        applicant_email: applicantEmail,
        partner_id: submissions.partner_id,
        university: partners.name,
        status: submissions.status,
        paid: submissions.paid,
        created_at: submissions.created_at,
      })
      .from(submissions)
      .innerJoin(partners, eq(partners.id, submissions.partner_id))
      .leftJoin(students, eq(students.id, submissions.student_id));
  const [items, [total]] = await Promise.all([
    base()
      .where(where)
      .orderBy(desc(submissions.created_at), asc(submissions.id))
      .limit(input.page_size)
      .offset((input.page - 1) * input.page_size),
    db
      .select({ total: count() })
      .from(submissions)
      .innerJoin(partners, eq(partners.id, submissions.partner_id))
      .leftJoin(students, eq(students.id, submissions.student_id))
      .where(where),
  ]);
  return { items, total: total?.total ?? 0, page: input.page, page_size: input.page_size };
}

interface AnalyticsRow extends Record<string, unknown> {
  institutions: Record<string, number> | null;
  students: number;
  applications: Record<string, number> | null;
  per_day: { date: string; count: number }[];
}

function countsFor<K extends string>(keys: readonly K[], found: Record<string, number> | null): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, Number(found?.[key] ?? 0)])) as Record<K, number>;
}

/** The dashboard's headline figures, aggregated by PostgreSQL in a single statement. */
export async function analytics(db: Db): Promise<AdminAnalytics> {
  // Days are UTC calendar days, whatever the server's time zone.
  const result = await db.execute<AnalyticsRow>(sql`
    with days as (
      select generate_series(
        (now() at time zone 'UTC')::date - ${ANALYTICS_DAYS - 1}::int,
        (now() at time zone 'UTC')::date,
        interval '1 day'
      )::date as day
    ),
    recent as (
      select (created_at at time zone 'UTC')::date as day, count(*)::int as n
      from submissions
      where created_at >= ((now() at time zone 'UTC')::date - ${ANALYTICS_DAYS - 1}::int) at time zone 'UTC'
      group by 1
    )
    select
      (select json_object_agg(status, n) from (select status, count(*)::int as n from partners group by status) p)
        as institutions,
      (select count(*)::int from students) as students,
      (select json_object_agg(status, n) from (select status, count(*)::int as n from submissions group by status) s)
        as applications,
      (select json_agg(json_build_object('date', to_char(days.day, 'YYYY-MM-DD'), 'count', coalesce(recent.n, 0))
        order by days.day) from days left join recent on recent.day = days.day)
        as per_day
  `);
  const row = result.rows[0];
  if (!row) throw new Error('analytics query returned no row');
  return {
    institutions_by_status: countsFor(PARTNER_STATUSES, row.institutions),
    students: Number(row.students),
    applications_by_status: countsFor(SUBMISSION_STATUSES, row.applications),
    submissions_per_day: row.per_day.map((day) => ({ date: day.date, count: Number(day.count) })),
  };
}

/** Admin actions, newest first, with the acting admin's email. */
export async function auditEntries(db: Db, input: PageInput): Promise<AuditEntryPage> {
  const [items, [total]] = await Promise.all([
    db
      .select({
        id: auditLog.id,
        action: auditLog.action,
        target_type: auditLog.target_type,
        target_id: auditLog.target_id,
        actor_email: users.email,
        details: auditLog.details,
        created_at: auditLog.created_at,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actor_id))
      .orderBy(desc(auditLog.created_at), desc(auditLog.id))
      .limit(input.page_size)
      .offset((input.page - 1) * input.page_size),
    db.select({ total: count() }).from(auditLog),
  ]);
  return { items, total: total?.total ?? 0, page: input.page, page_size: input.page_size };
}

/** The queues' counts and one page of failed jobs, most recent first. */
export async function jobsOverview(jobs: JobQueue, query: z.output<typeof AdminJobsQuerySchema>): Promise<AdminJobs> {
  const [queues, failed] = await Promise.all([
    jobs.counts(),
    jobs.failed({ limit: query.page_size, offset: (query.page - 1) * query.page_size }),
  ]);
  return {
    queues,
    failed: { items: failed.jobs, total: failed.total, page: query.page, page_size: query.page_size },
  };
}

/** Puts a failed job back in its queue, and says who did in the audit log. */
export async function retryFailedJob(
  db: Db,
  jobs: JobQueue,
  input: { actorId: string; queue: string; id: string },
): Promise<void> {
  if (!(await jobs.retry(input.queue, input.id))) throw new AppError('NOT_FOUND');
  await db.insert(auditLog).values({
    actor_id: input.actorId,
    action: 'job.retried',
    target_type: 'job',
    target_id: input.id,
    details: { queue: input.queue },
  });
}
