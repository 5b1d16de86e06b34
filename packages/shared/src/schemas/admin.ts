import { z } from 'zod';
import { PartnerStatusSchema, InstitutionTypeSchema, PARTNER_STATUSES } from './catalogue.ts';
import { SubmissionStatusSchema, SUBMISSION_STATUSES } from './submissions.ts';

export const REVIEW_REASON_MIN_LENGTH = 10;
export const REVIEW_REASON_MAX_LENGTH = 1000;
export const ADMIN_PAGE_SIZE_DEFAULT = 20;
export const ADMIN_PAGE_SIZE_MAX = 100;
/** How many days the submissions-per-day chart covers, today included. */
export const ANALYTICS_DAYS = 30;

/** The admin screens' own messages; the web shows them translated under `admin.errors.<key>`. */
export const ADMIN_MESSAGES = {
  reason_required: 'A reason is required',
  reason_too_short: 'The reason must be at least 10 characters',
  reason_too_long: 'The reason must be at most 1000 characters',
  already_reviewed: 'This institution has already been reviewed',
} as const;
export type AdminMessageKey = keyof typeof ADMIN_MESSAGES;

export function adminMessageKey(text: string): AdminMessageKey | null {
  const found = Object.entries(ADMIN_MESSAGES).find(([, value]) => value === text);
  return found ? (found[0] as AdminMessageKey) : null;
}

/** A rejection must say why: the reason is sent to the institution and kept in the audit log. */
export const RejectInstitutionSchema = z.object({
  reason: z
    .string({ error: ADMIN_MESSAGES.reason_required })
    .trim()
    .min(1, { error: ADMIN_MESSAGES.reason_required, abort: true })
    .min(REVIEW_REASON_MIN_LENGTH, ADMIN_MESSAGES.reason_too_short)
    .max(REVIEW_REASON_MAX_LENGTH, ADMIN_MESSAGES.reason_too_long),
});
export type RejectInstitution = z.infer<typeof RejectInstitutionSchema>;

export const InstitutionIdParamsSchema = z.object({ id: z.uuid() });

const searchText = z.string().trim().max(200).optional();
const pageFields = {
  page: z.coerce.number<number>().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number<number>().int().min(1).max(ADMIN_PAGE_SIZE_MAX).default(ADMIN_PAGE_SIZE_DEFAULT),
};

export const AdminInstitutionsQuerySchema = z.object({
  q: searchText,
  status: PartnerStatusSchema.optional(),
  ...pageFields,
});
export type AdminInstitutionsQuery = z.input<typeof AdminInstitutionsQuerySchema>;

export const AdminApplicationsQuerySchema = z.object({
  q: searchText,
  status: SubmissionStatusSchema.optional(),
  ...pageFields,
});
export type AdminApplicationsQuery = z.input<typeof AdminApplicationsQuerySchema>;

export const AdminAuditLogQuerySchema = z.object({ ...pageFields });
export type AdminAuditLogQuery = z.input<typeof AdminAuditLogQuerySchema>;

/** The person who signed the institution up (its primary contact staff record). */
export const InstitutionContactSchema = z.object({
  name: z.string(),
  /** The staff record's role, which is the job title (spec section 6). */
  job_title: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
});

/** An institution as submitted at sign-up, with where its review stands. */
export const AdminInstitutionSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  institution_type: InstitutionTypeSchema,
  year_established: z.number().int(),
  city: z.string(),
  country: z.string(),
  website: z.string().nullable(),
  contact_email: z.string().nullable(),
  contact_phone: z.string().nullable(),
  accreditation_body: z.string().nullable(),
  accreditation_number: z.string().nullable(),
  program_count: z.number().int(),
  status: PartnerStatusSchema,
  published: z.boolean(),
  review_reason: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  created_at: z.string(),
  primary_contact: InstitutionContactSchema.nullable(),
});
export type AdminInstitution = z.infer<typeof AdminInstitutionSchema>;

export const AdminApplicationSchema = z.object({
  id: z.uuid(),
  reference: z.string(),
  applicant_name: z.string(),
  applicant_email: z.string().nullable(),
  partner_id: z.uuid(),
  university: z.string(),
  status: SubmissionStatusSchema,
  paid: z.boolean(),
  created_at: z.string(),
});
export type AdminApplication = z.infer<typeof AdminApplicationSchema>;

export const AuditEntrySchema = z.object({
  id: z.uuid(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.uuid().nullable(),
  actor_email: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** One page of a list and how many rows match in all. */
export function pageOf<S extends z.ZodType>(item: S) {
  return z.object({
    items: z.array(item),
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    page_size: z.number().int().min(1),
  });
}

export const AdminInstitutionPageSchema = pageOf(AdminInstitutionSchema);
export type AdminInstitutionPage = z.infer<typeof AdminInstitutionPageSchema>;
export const AdminApplicationPageSchema = pageOf(AdminApplicationSchema);
export type AdminApplicationPage = z.infer<typeof AdminApplicationPageSchema>;
export const AuditEntryPageSchema = pageOf(AuditEntrySchema);
export type AuditEntryPage = z.infer<typeof AuditEntryPageSchema>;

const countsOf = <T extends readonly [string, ...string[]]>(keys: T) =>
  z.object(Object.fromEntries(keys.map((key) => [key, z.number().int().min(0)])) as Record<T[number], z.ZodNumber>);

export const AdminAnalyticsSchema = z.object({
  institutions_by_status: countsOf(PARTNER_STATUSES),
  students: z.number().int().min(0),
  applications_by_status: countsOf(SUBMISSION_STATUSES),
  /** The last 30 days (UTC), oldest first, days without submissions included with 0. */
  submissions_per_day: z.array(z.object({ date: z.iso.date(), count: z.number().int().min(0) })),
});
export type AdminAnalytics = z.infer<typeof AdminAnalyticsSchema>;

export const ADMIN_AUDIT_ACTIONS = [
  'institution.approved',
  'institution.rejected',
  'announcement.sent',
  'job.retried',
] as const;
export type AdminAuditAction = (typeof ADMIN_AUDIT_ACTIONS)[number];

/** The background queues (admin dashboard, Jobs): what waits, runs and failed in each. */
export const JOB_QUEUE_NAME_PATTERN = /^[a-z][a-z0-9.-]{0,63}$/;
export const JobQueueCountsSchema = z.object({
  queue: z.string(),
  queued: z.number().int().min(0),
  active: z.number().int().min(0),
  failed: z.number().int().min(0),
});
export type JobQueueCounts = z.infer<typeof JobQueueCountsSchema>;

/** A job whose retries are spent. `subject` names what it was about (an email's or a payment's id). */
export const FailedJobSchema = z.object({
  id: z.uuid(),
  queue: z.string(),
  subject: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int().min(1),
  created_at: z.string(),
  failed_at: z.string(),
});
export type FailedJob = z.infer<typeof FailedJobSchema>;

export const FailedJobPageSchema = pageOf(FailedJobSchema);
export const AdminJobsSchema = z.object({
  queues: z.array(JobQueueCountsSchema),
  failed: FailedJobPageSchema,
});
export type AdminJobs = z.infer<typeof AdminJobsSchema>;
export const AdminJobsQuerySchema = z.object({ ...pageFields });
export type AdminJobsQuery = z.input<typeof AdminJobsQuerySchema>;
export const JobParamsSchema = z.object({
  queue: z.string().regex(JOB_QUEUE_NAME_PATTERN),
  id: z.uuid(),
});
export const JobRetriedSchema = z.object({ retried: z.literal(true) });
