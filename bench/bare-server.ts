/**
 * The bare baseline of the deadline-day bench (issue 24): `node:http` + `pg`, no framework, no ORM, no auth
 * library, answering the deadline-day requests with the SQL the api sends for them, statement for statement,
 * on the same database. What the api costs on top of this server is the api layer; what both cost is the
 * machine. It serves:
 *
 * - GET /api/v1/auth/session: the session by token joined with its user's type, the named statement
 *   `read_session_by_token` (modules/auth/session-reader.ts; the cookie's HMAC-SHA256 signature verified
 *   first, as better-call's `getSignedCookie` does), then the named profile read `profile_by_id`
 *   (modules/auth/auth.service.ts `sessionUser`). A session due for its daily refresh goes through
 *   better-auth in the api (an UPDATE); the bench's sessions are fresh, so neither server writes there.
 * - PATCH /api/v1/applications/:id, the autosave (modules/applications/drafts.service.ts `saveDraft`):
 *   the session's read, the named statement `read_draft_for_autosave` (application, form, cycle and
 *   settings in one query), the campus check when a campus is sent, the named guarded UPDATE
 *   `save_draft_guarded`, and after a lost race the re-read that tells stale from submitted.
 * - POST /api/v1/applications/:id/submit (modules/applications/submit.service.ts `submitApplication`): the
 *   session's read; BEGIN; the plan setting (SET LOCAL plan_cache_mode); the Idempotency-Key claim (lib/idempotency.ts `claimIdempotencyKey`); the
 *   named locking read `lock_application_for_submission`; on a retry, the submission by key and its receipt
 *   (modules/submissions `submissionByKey`, `submissionReceipt`); the submission with its receipt email in
 *   the outbox in one statement (modules/submissions `writeSubmission`); the application marked submitted
 *   and moved between the student's lists in one statement; COMMIT; a unique violation on the submission's
 *   id or key runs it again as a retry, as the api does.
 * - GET /ready.
 *
 * Same paths, bodies, status codes and envelopes as the api for these requests, so one load generator
 * drives both. What it leaves out, on purpose or because it is the api's own machinery: Zod validation of
 * the answers (only ids, emptiness and size are checked), the same-origin check, request logging, metrics
 * and, after the response, the email relay, rendering and delivery (the pg-boss job the api's worker runs;
 * the api writes the receipt unrendered too, ADR 048).
 *
 * Configuration: PORT, DATABASE_URL, AUTH_SECRET (the api's), PUBLIC_URL, DATABASE_POOL_SIZE (20, as the api).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import canonicalize from 'canonicalize';
import pg from 'pg';
import { APPLICATION_MESSAGES as A, GENERIC_MESSAGES, VALIDATION_MESSAGES } from '../packages/shared/src/messages.ts';
import {
  eligibility as eligibilityOf,
  examSystem,
  submissionEligibility,
  type EntryRules,
  type Sitting,
} from '../packages/shared/src/exams/index.ts';

const port = Number(process.env.PORT ?? 4471);
const databaseUrl = process.env.DATABASE_URL;
const secret = process.env.AUTH_SECRET ?? 'kaminuza-development-secret-not-for-production';
const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
if (!databaseUrl) throw new Error('bare-server needs DATABASE_URL');

/** Dates, timestamps and intervals stay PostgreSQL's text, as Drizzle's node-postgres driver reads them for the api. */
const RAW_TYPES = new Set([1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231]);
const types = {
  getTypeParser: ((id: number, format?: 'text' | 'binary') =>
    RAW_TYPES.has(id) ? (value: string) => value : pg.types.getTypeParser(id, format)) as typeof pg.types.getTypeParser,
};
const pool = new pg.Pool({
  connectionString: databaseUrl,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
  types,
});
pool.on('error', () => undefined);

/** better-auth's cookie name with our prefix on plain-HTTP localhost (secure cookies add `__Secure-`). */
const SESSION_COOKIE = publicUrl.startsWith('https:') ? '__Secure-kaminuza.session_token' : 'kaminuza.session_token';
const DRAFT_ANSWERS_MAX_BYTES = 256 * 1024;
const RETRY_AFTER_SECONDS = 1;
const DEFAULT_FEE = { amount: 100, currency: 'USD' };
const REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/* ---------------------------------------------------------------- the api's statements, verbatim */

const SQL = {
  session: `select "sessions"."user_id", "sessions"."expires_at", "users"."type" from "sessions" inner join "users" on "users"."id" = "sessions"."user_id" where "sessions"."token" = $1 limit $2`,
  profile: `select "users"."id", "users"."email", "users"."type", "users"."name", "users"."contact_verified", "users"."partner_id", "students"."first_name", "students"."preferred_name", "students"."language", "students"."timezone", "students"."is_complete", "staff"."first_name", "staff"."language", "staff"."timezone", "user_preferences"."language", "staff"."approval_status", "staff"."permissions", "staff"."active", "partners"."name", "partners"."status", "partners"."review_reason" from "users" left join "students" on "students"."user_id" = "users"."id" left join "staff" on "staff"."user_id" = "users"."id" left join "partners" on "partners"."id" = "users"."partner_id" left join "user_preferences" on "user_preferences"."user_id" = "users"."id" where "users"."id" = $1 limit $2`,
  readDraft: `select "applications"."student_id", "applications"."status", "applications"."version", "applications"."last_saved_at", "applications"."program_id", "applications"."form_id", "applications"."cycle_id", "forms"."sections", "cycles"."status", "cycles"."opens_on", "cycles"."closes_on", "partner_settings"."general" from "applications" inner join "students" on ("students"."id" = "applications"."student_id" and "students"."user_id" = $1) inner join "cycles" on "cycles"."id" = "applications"."cycle_id" left join "forms" on ("forms"."id" = "applications"."form_id" and "forms"."partner_id" = "applications"."partner_id") left join "partner_settings" on "partner_settings"."partner_id" = "applications"."partner_id" where "applications"."id" = $2 limit $3`,
  campusOffered: `select "campus_id" from "program_campuses" where ("program_campuses"."program_id" = $1 and "program_campuses"."campus_id" = $2) limit $3`,
  saveDraft: `update "applications" set "campus_id" = coalesce($1::uuid, "applications"."campus_id"), "answers" = $2::jsonb, "progress_percentage" = $3::int, "current_step" = coalesce($4::int, "applications"."current_step"), "current_section_index" = coalesce($5::int, "applications"."current_section_index"), "version" = "applications"."version" + 1, "last_saved_at" = now(), "updated_at" = now() where ("applications"."id" = $6 and "applications"."student_id" = $7 and "applications"."status" = $8 and "applications"."version" = $9) returning "version", "last_saved_at", "progress_percentage"`,
  draftNow: `select "status", "version", "last_saved_at" from "applications" where ("applications"."id" = $1 and "applications"."student_id" = $2) limit $3`,
  claimKey: `select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as claimed`,
  lockForSubmission: `select "applications"."id", "applications"."student_id", "applications"."partner_id", "applications"."cycle_id", "applications"."program_id", "applications"."campus_id", "applications"."form_id", "applications"."status", "applications"."version", "applications"."last_saved_at", "students"."first_name", "students"."last_name", "students"."preferred_name", "students"."email", "students"."phone", "students"."date_of_birth", "students"."gender", "students"."nationality", "students"."country_of_residence", "students"."address", "students"."city", "students"."country", "students"."postal_code", "students"."education_level", "students"."last_school", "students"."graduation_year", "students"."gpa", "students"."major", "students"."degree_type", coalesce((
    select json_agg(json_build_object('id', s.id, 'exam', s.exam, 'other_name', s.other_name, 'year', s.year,
      'index_number', s.index_number, 'results', s.results, 'declared', s.declared, 'overall', s.overall,
      'document_type', s.document_type, 'verified', s.verified_at is not null) order by s.year desc, s.created_at, s.id)
    from "exam_sittings" s where s.student_id = "students"."id"), '[]'::json), "students"."language", coalesce((
  select json_agg(json_build_object('type', d.type, 'document_id', d.id, 'file_id', d.file_id,
    'file_name', f.original_name, 'status', d.status) order by d.type)
  from "documents" d join "files" f on f.id = d.file_id
  where d.student_id = "students"."id"), '[]'::json), (
  select json_build_object('id', p.id, 'amount', p.amount, 'currency', p.currency)
  from "payments" p where p.application_id = "applications"."id" and p.status = 'succeeded' limit 1), exists (select 1 from "fee_waivers" w where w.application_id = "applications"."id" and w.status = 'approved'), "partner_settings"."general", "partner_settings"."theme", "partner_settings"."admissions", "cycles"."name", "cycles"."status", "cycles"."opens_on", "cycles"."closes_on", "forms"."id", "forms"."name", "forms"."version", "forms"."sections", "partners"."name", "programs"."name", "programs"."entry_rules", "programs"."requirements", "campuses"."name", exists (select 1 from "program_campuses" pc where pc.program_id = "applications"."program_id" and pc.campus_id = "applications"."campus_id") from "applications" inner join "students" on ("students"."id" = "applications"."student_id" and "students"."user_id" = $1) inner join "partners" on "partners"."id" = "applications"."partner_id" inner join "cycles" on "cycles"."id" = "applications"."cycle_id" inner join "programs" on "programs"."id" = "applications"."program_id" left join "campuses" on "campuses"."id" = "applications"."campus_id" left join "forms" on ("forms"."id" = "applications"."form_id" and "forms"."partner_id" = "applications"."partner_id") left join "partner_settings" on "partner_settings"."partner_id" = "applications"."partner_id" where "applications"."id" = $2 limit $3 for update of "applications"`,
  studentOf: `select "id" from "students" where "students"."user_id" = $1 limit $2`,
  submissionByKey: `select "id", "student_id", "staff_id", "submitted_by_staff", "idempotency_fingerprint" from "submissions" where ("submissions"."partner_id" = $1 and "submissions"."idempotency_key" = $2) limit $3`,
  receipt: `select "submissions"."id", "submissions"."reference", "submissions"."partner_id", "partners"."name", "cycles"."name", "programs"."name", "campuses"."name", "submissions"."created_at", "submissions"."submitted_by_staff", "submissions"."profile", "submissions"."paid", "submissions"."amount", "submissions"."currency", "submissions"."payment_id", "submissions"."fee_waived" from "submissions" inner join "partners" on "partners"."id" = "submissions"."partner_id" inner join "campuses" on "campuses"."id" = "submissions"."campus_id" left join "cycles" on "cycles"."id" = "submissions"."cycle_id" left join "programs" on "programs"."id" = "submissions"."program_id" where "submissions"."id" = $1 limit $2`,
  writeSubmission: `
      with written as (insert into "submissions" ("id", "reference", "student_id", "staff_id", "submitted_by_staff", "partner_id", "cycle_id", "program_id", "campus_id", "form_id", "form_snapshot", "profile", "answers", "status", "paid", "amount", "currency", "payment_id", "fee_waived", "idempotency_key", "idempotency_fingerprint", "stage_id", "assigned_to", "score_average", "score_count", "decision_state", "decision_released", "eligibility", "auto_decide", "auto_decision_queued_at", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, default, $14, $15, $16, $17, $18, $19, $20, default, default, default, default, default, default, $21, $22, default, $23, $24) on conflict ("reference") do nothing returning "id"),
      mailed as (
        insert into "email_outbox" ("to", "from", "template", "language", "data")
        select $25, $26, $27, $28,
               $29::jsonb
        from written
      )
      select id from written`,
  markSubmitted: `with submitted as (update "applications" set "answers" = $1::jsonb, "status" = $2, "progress_percentage" = $3::int, "version" = "applications"."version" + 1, "last_saved_at" = now(), "submitted_at" = now(), "updated_at" = now() where ("applications"."id" = $4 and "applications"."student_id" = $5 and "applications"."status" = $6)) update "students" set "last_activity" = now(), "current_applications" = array_remove("students"."current_applications", $7::uuid), "completed_applications" = case when $8::uuid = any("students"."completed_applications") then "students"."completed_applications" else array_append("students"."completed_applications", $9::uuid) end, "updated_at" = now() where "students"."id" = $10`,
};

/** Rows as arrays: several statements select columns of the same name from different tables, as Drizzle reads them. */
const rows = async (client: pg.Pool | pg.PoolClient, text: string, values: unknown[], name?: string) =>
  (await client.query<unknown[]>({ text, values, rowMode: 'array', ...(name ? { name } : {}) })).rows;

/* ---------------------------------------------------------------- answers */

class Refusal extends Error {
  readonly http: number;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(http: number, body: Record<string, unknown>, headers: Record<string, string> = {}) {
    super(String(body.message));
    this.http = http;
    this.body = body;
    this.headers = headers;
  }
}

const refuse = (http: number, status: string, message: string, extra: Record<string, unknown> = {}) =>
  new Refusal(http, { status, message, ...extra });
const unauthenticated = () => refuse(401, 'UNAUTHENTICATED', GENERIC_MESSAGES.not_authorized);
const notFound = (message: string = GENERIC_MESSAGES.not_found) => refuse(404, 'NOT_FOUND', message);
const invalid = (message: string = VALIDATION_MESSAGES.general) => refuse(400, 'INVALID_ARGUMENT', message);
const alreadySubmitted = () => refuse(409, 'ABORTED', A.already_submitted, { reason: 'already_submitted' });
const cycleClosed = () => refuse(409, 'ABORTED', A.cycle_closed, { reason: 'cycle_closed' });
const stale = (version: unknown, lastSavedAt: unknown) =>
  refuse(409, 'ABORTED', A.stale_draft, { details: { version, last_saved_at: lastSavedAt }, reason: 'stale_draft' });

function send(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  response.end(payload);
}

/* ---------------------------------------------------------------- the session (better-auth's getSession) */

function sessionToken(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== SESSION_COOKIE) continue;
    const value = decodeURIComponent(part.slice(at + 1).trim());
    const dot = value.lastIndexOf('.');
    if (dot < 1) return null;
    const token = value.slice(0, dot);
    const signature = Buffer.from(value.slice(dot + 1), 'base64');
    const expected = createHmac('sha256', secret).update(token).digest();
    return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : null;
  }
  return null;
}

async function signedIn(request: http.IncomingMessage): Promise<{ userId: string; type: string }> {
  const token = sessionToken(request.headers.cookie);
  if (!token) throw unauthenticated();
  const [session] = await rows(pool, SQL.session, [token, 1], 'read_session_by_token');
  if (!session || new Date(session[1] as string) <= new Date()) throw unauthenticated();
  return { userId: session[0] as string, type: session[2] as string };
}

async function studentOnly(request: http.IncomingMessage): Promise<string> {
  const { userId, type } = await signedIn(request);
  if (type !== 'student') throw refuse(403, 'PERMISSION_DENIED', GENERIC_MESSAGES.not_authorized);
  return userId;
}

async function sessionUser(userId: string) {
  const [row] = await rows(pool, SQL.profile, [userId, 1], 'profile_by_id');
  if (!row) return null;
  const [id, email, type, , contactVerified, partnerId, studentFirst, preferred, studentLanguage] = row;
  const [, , , isComplete, staffFirst, staffLanguage, , preferencesLanguage, approval, permissions, active] =
    row.slice(8);
  const [partnerName, partnerStatus, reviewReason] = row.slice(18);
  const language = studentLanguage ?? staffLanguage ?? preferencesLanguage;
  return {
    id,
    email,
    type,
    first_name: studentFirst ?? staffFirst ?? null,
    preferred_name: preferred ?? null,
    language: ['en', 'fr', 'rw'].includes(language as string) ? language : 'en',
    contact_verified: contactVerified,
    partner_id: partnerId,
    onboarding_complete: type !== 'student' || isComplete === true,
    partner_name: partnerName ?? null,
    partner_status: partnerStatus ?? null,
    partner_review_reason: reviewReason ?? null,
    staff_approval_status: approval ?? null,
    staff_permissions: permissions ?? null,
    staff_active: active ?? null,
  };
}

/* ---------------------------------------------------------------- forms, cycles, fees */

interface Question {
  id: string;
  type: string;
  required?: boolean;
}
interface Section {
  questions: Question[];
}

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/** The answers to the form's own questions, empties stripped (what formAnswers and checkedAnswers keep). */
function formAnswers(sections: Section[], answers: Record<string, unknown>): Record<string, unknown> {
  const ids = new Set(sections.flatMap((section) => section.questions.map((question) => question.id)));
  return Object.fromEntries(Object.entries(answers).filter(([id, value]) => ids.has(id) && !isEmpty(value)));
}

/** @kaminuza/shared formProgress: the required questions answered, in percent. */
function progress(sections: Section[], answers: Record<string, unknown>): number {
  const questions = sections.flatMap((section) => section.questions);
  const counted = questions.some((q) => q.required) ? questions.filter((q) => q.required) : questions;
  if (counted.length === 0) return 100;
  return Math.round((counted.filter((q) => q.id in answers).length / counted.length) * 100);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
function today(timezone: string): string {
  let format = dayFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timezone, format);
  }
  return format.format(new Date());
}

/** catalogue `applicationsOpen`: the institution's current cycle, open, and today within its dates. */
function applicationsOpen(general: unknown, cycleId: unknown, status: unknown, opensOn: unknown, closesOn: unknown) {
  const settings = (general ?? {}) as { current_cycle_id?: string; timezone?: string };
  if (settings.current_cycle_id !== cycleId || status !== 'open') return false;
  const day = today(settings.timezone ?? 'UTC');
  return (opensOn as string) <= day && day <= (closesOn as string);
}

/* ---------------------------------------------------------------- autosave */

async function saveDraft(userId: string, applicationId: string, input: Record<string, unknown>) {
  const answersIn = input.answers as Record<string, unknown>;
  if (Buffer.byteLength(JSON.stringify(answersIn)) > DRAFT_ANSWERS_MAX_BYTES) throw invalid(A.answers_too_large);
  const [row] = await rows(pool, SQL.readDraft, [userId, applicationId, 1], 'read_draft_for_autosave');
  if (!row) throw notFound();
  const [studentId, status, version, lastSavedAt, programId, formId, cycleId, sections, cycleStatus, opens, closes] =
    row;
  if (status === 'submitted') throw alreadySubmitted();
  if (!applicationsOpen(row[11], cycleId, cycleStatus, opens, closes)) throw cycleClosed();
  if (version !== input.version) throw stale(version, lastSavedAt);
  if (!sections) throw notFound(A.form_not_found.replace('{id}', formId as string));
  if (typeof input.campus_id === 'string') {
    const [offered] = await rows(pool, SQL.campusOffered, [programId, input.campus_id, 1]);
    if (!offered) throw invalid(A.campus_not_offered);
  }
  const answers = formAnswers(sections as Section[], answersIn);
  const [saved] = await rows(
    pool,
    SQL.saveDraft,
    [
      input.campus_id ?? null,
      JSON.stringify(answers),
      progress(sections as Section[], answers),
      input.current_step ?? null,
      input.current_section_index ?? null,
      applicationId,
      studentId,
      'in_progress',
      input.version,
    ],
    'save_draft_guarded',
  );
  if (saved) return { version: saved[0], last_saved_at: saved[1], progress_percentage: saved[2] };
  const [now] = await rows(pool, SQL.draftNow, [applicationId, studentId, 1]);
  if (!now) throw notFound();
  if (now[0] === 'submitted') throw alreadySubmitted();
  throw stale(now[1], now[2]);
}

/* ---------------------------------------------------------------- submit */

function newReference(): string {
  const chars = [...randomBytes(8)].map((byte) => REFERENCE_ALPHABET[byte & 31]).join('');
  return `KZ-${chars.slice(0, 4)}-${chars.slice(4)}`;
}

const PROFILE_COLUMNS = [
  'first_name',
  'last_name',
  'preferred_name',
  'email',
  'phone',
  'date_of_birth',
  'gender',
  'nationality',
  'country_of_residence',
  'address',
  'city',
  'country',
  'postal_code',
  'education_level',
  'last_school',
  'graduation_year',
  'gpa',
  'major',
  'degree_type',
  'exam_sittings',
] as const;

async function receiptOf(client: pg.PoolClient, submissionId: string) {
  const [row] = await rows(client, SQL.receipt, [submissionId, 1]);
  if (!row) throw notFound();
  const [id, reference, partnerId, partnerName, cycleName, programName, campusName, createdAt, byStaff, profile] = row;
  const [paid, amount, currency, paymentId, waived] = row.slice(10);
  const { first_name, last_name } = profile as { first_name?: string; last_name?: string };
  return {
    id,
    reference,
    partner_id: partnerId,
    partner_name: partnerName,
    cycle_name: cycleName ?? '',
    program_name: programName ?? '',
    campus_name: campusName,
    submitted_at: new Date(createdAt as string).toISOString(),
    submitted_by_staff: byStaff,
    applicant_name: [first_name, last_name].filter(Boolean).join(' '),
    payment: { paid, amount, currency, payment_id: paymentId, waived },
  };
}

type Idempotency = { key: string; fingerprint: string } | null;

async function submitOnce(
  client: pg.PoolClient,
  userId: string,
  applicationId: string,
  input: Record<string, unknown>,
  idempotency: Idempotency,
  keyMayBeUsed: boolean,
) {
  if (idempotency) {
    const [claim] = await rows(client, SQL.claimKey, [`kaminuza.submit:${idempotency.key}`]);
    if (!claim?.[0])
      throw new Refusal(
        409,
        { status: 'ABORTED', message: A.idempotency_key_in_progress, reason: 'idempotency_key_in_progress' },
        { 'retry-after': String(RETRY_AFTER_SECONDS) },
      );
  }
  const [row] = await rows(
    client,
    SQL.lockForSubmission,
    [userId, applicationId, 1],
    'lock_application_for_submission',
  );
  if (!row) {
    const [student] = await rows(client, SQL.studentOf, [userId, 1]);
    throw student ? notFound() : notFound(A.student_required);
  }
  const [id, studentId, partnerId, cycleId, programId, campusId, formId, status, version, lastSavedAt] = row;
  const applicant = Object.fromEntries(PROFILE_COLUMNS.map((column, i) => [column, row[10 + i]])) as Record<
    string,
    unknown
  >;
  const [language, documents, paidFee, feeWaived, general, , admissions] = row.slice(30);
  const [cycleName, cycleStatus, opens, closes, formRowId, formName, formVersion, sections] = row.slice(37);
  const [partnerName, programName, entryRules, programRequirements, campusName, campusOffered] = row.slice(45);

  if (status === 'submitted' || keyMayBeUsed) {
    if (idempotency) {
      const [earlier] = await rows(client, SQL.submissionByKey, [partnerId, idempotency.key, 1]);
      if (earlier) {
        const stored = earlier[4] as string | null;
        if (stored === null ? earlier[0] !== id : stored !== idempotency.fingerprint)
          throw refuse(422, 'INVALID_ARGUMENT', A.idempotency_key_reused);
        return { created: false, receipt: await receiptOf(client, earlier[0] as string) };
      }
    }
    if (status === 'submitted') throw alreadySubmitted();
  }
  if (!applicationsOpen(general, cycleId, cycleStatus, opens, closes)) throw cycleClosed();
  if (version !== input.version) throw stale(version, lastSavedAt);
  if (!campusId || campusName === null) throw invalid(A.campus_required);
  if (!campusOffered) throw invalid(A.campus_not_offered);
  if (!formRowId) throw notFound(A.form_not_found.replace('{id}', formId as string));
  const form = { id: formRowId, name: formName, version: formVersion, sections };
  const answers = formAnswers(sections as Section[], input.answers as Record<string, unknown>);
  const settings = (admissions ?? {}) as { application_fee?: number; application_fee_currency?: string };
  const fee = {
    amount: settings.application_fee ?? DEFAULT_FEE.amount,
    currency: settings.application_fee_currency ?? DEFAULT_FEE.currency,
  };
  const payment = fee.amount > 0 ? (paidFee as { id: string; amount: number; currency: string } | null) : null;
  const waived = fee.amount > 0 && !payment && feeWaived === true;
  if (fee.amount > 0 && !payment && !waived) throw refuse(409, 'ABORTED', A.payment_required);
  const paymentSummary = payment
    ? { paid: true, amount: payment.amount, currency: payment.currency, payment_id: payment.id, waived: false }
    : { paid: false, amount: 0, currency: fee.currency, payment_id: null, waived };

  // Eligibility for the program, with the same pure function (issue 25), and whether it decides automatically.
  const sittings = applicant.exam_sittings as Sitting[];
  const eligibility = submissionEligibility(
    eligibilityOf(
      { exams: (entryRules as EntryRules).exams, other: programRequirements as string },
      sittings.map(({ exam, year, results, declared }) => ({ exam, year, results, declared })),
      examSystem,
    ),
    examSystem,
  );
  const automatic = (admissions ?? {}) as {
    auto_decision_basis?: string;
    auto_accept_enabled?: boolean;
    auto_accept_threshold?: number;
    auto_reject_enabled?: boolean;
    auto_reject_threshold?: number;
  };
  const { points } = eligibility;
  const autoDecide =
    automatic.auto_decision_basis === 'entry_requirements' &&
    ((eligibility.status === 'not_eligible' && automatic.auto_reject_enabled === true) ||
      (eligibility.status === 'eligible' &&
        points !== null &&
        ((automatic.auto_accept_enabled === true && points >= (automatic.auto_accept_threshold ?? 100)) ||
          (automatic.auto_reject_enabled === true && points <= (automatic.auto_reject_threshold ?? 0)))));

  const applicantName = [applicant.first_name, applicant.last_name].filter((p) => typeof p === 'string' && p).join(' ');
  const profile = { ...applicant, documents };
  let receipt: Record<string, unknown> | null = null;
  for (let attempt = 0; attempt < 5 && !receipt; attempt += 1) {
    const reference = newReference();
    const submittedAt = new Date().toISOString();
    const data = {
      name: applicantName,
      institution_name: partnerName as string,
      program_name: programName as string,
      campus_name: campusName as string,
      reference,
      submitted_on: submittedAt.slice(0, 10),
      link: new URL(`/partners/${partnerId}/application/submitted`, publicUrl).toString(),
    };
    const written = await rows(
      client,
      SQL.writeSubmission,
      [
        id,
        reference,
        studentId,
        null,
        false,
        partnerId,
        cycleId,
        programId,
        campusId,
        formRowId,
        JSON.stringify(form),
        JSON.stringify(profile),
        JSON.stringify(answers),
        paymentSummary.paid,
        paymentSummary.amount,
        paymentSummary.currency,
        paymentSummary.payment_id,
        paymentSummary.waived,
        idempotency?.key ?? null,
        idempotency?.fingerprint ?? null,
        JSON.stringify(eligibility),
        autoDecide,
        submittedAt,
        submittedAt,
        applicant.email,
        'info',
        'submission_receipt',
        language ?? 'en',
        JSON.stringify(data),
      ],
      'write_submission',
    );
    if (written.length > 0)
      receipt = {
        id,
        reference,
        partner_id: partnerId,
        partner_name: partnerName,
        cycle_name: cycleName,
        program_name: programName,
        campus_name: campusName,
        submitted_at: submittedAt,
        submitted_by_staff: false,
        applicant_name: applicantName,
        payment: paymentSummary,
      };
  }
  if (!receipt) throw new Error('no free submission reference after several attempts');
  await rows(
    client,
    SQL.markSubmitted,
    [
      JSON.stringify(answers),
      'submitted',
      progress(sections as Section[], answers),
      id,
      studentId,
      'in_progress',
      id,
      id,
      id,
      studentId,
    ],
    'mark_application_submitted',
  );
  return { created: true, receipt };
}

async function submit(userId: string, applicationId: string, input: Record<string, unknown>, key: string | undefined) {
  const idempotency: Idempotency = key
    ? {
        key,
        fingerprint: createHash('sha256')
          .update(canonicalize({ action: 'submit', target: { application_id: applicationId }, body: input }) ?? '')
          .digest('base64url'),
      }
    : null;
  const attempt = async (keyMayBeUsed: boolean) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      try {
        await client.query('set local plan_cache_mode = force_generic_plan');
        const result = await submitOnce(client, userId, applicationId, input, idempotency, keyMayBeUsed);
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
    } finally {
      client.release();
    }
  };
  try {
    return await attempt(false);
  } catch (error) {
    const constraint = (error as { code?: string; constraint?: string }).constraint;
    if (
      (error as { code?: string }).code === '23505' &&
      (constraint === 'submissions_pkey' || constraint === 'submissions_partner_idempotency_unique')
    )
      return attempt(true);
    throw error;
  }
}

/* ---------------------------------------------------------------- routing */

function readBody(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        if (!body || typeof body !== 'object' || Array.isArray(body)) reject(invalid());
        else resolve(body as Record<string, unknown>);
      } catch {
        reject(invalid());
      }
    });
    request.on('error', reject);
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const APPLICATION = /^\/api\/v1\/applications\/([^/]+)(\/submit)?$/;

/** The address and the body, checked before the session as Fastify validates before the api's guards run. */
async function validated(request: http.IncomingMessage, id: string): Promise<Record<string, unknown>> {
  const body = await readBody(request);
  if (!UUID.test(id) || !Number.isInteger(body.version) || !body.answers || typeof body.answers !== 'object')
    throw invalid();
  return body;
}

async function route(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const path = (request.url ?? '/').split('?')[0]!;
  if (request.method === 'GET' && path === '/ready') return send(response, 200, { status: 'ready' });
  if (request.method === 'GET' && path === '/api/v1/auth/session') {
    const token = sessionToken(request.headers.cookie);
    let user = null;
    if (token) {
      const [session] = await rows(pool, SQL.session, [token, 1], 'read_session_by_token');
      if (session && new Date(session[1] as string) > new Date()) user = await sessionUser(session[0] as string);
    }
    return send(response, 200, { data: user });
  }
  const match = APPLICATION.exec(path);
  if (match && request.method === 'PATCH' && !match[2]) {
    const input = await validated(request, match[1]!);
    const userId = await studentOnly(request);
    return send(response, 200, { data: await saveDraft(userId, match[1]!, input) });
  }
  if (match && request.method === 'POST' && match[2]) {
    const input = await validated(request, match[1]!);
    const userId = await studentOnly(request);
    const key = request.headers['idempotency-key'];
    const { created, receipt } = await submit(userId, match[1]!, input, typeof key === 'string' ? key : undefined);
    return send(response, created ? 201 : 200, { data: receipt });
  }
  send(response, 404, { error: { status: 'NOT_FOUND', message: GENERIC_MESSAGES.not_found } });
}

const server = http.createServer((request, response) => {
  route(request, response).catch((error: unknown) => {
    if (error instanceof Refusal) return send(response, error.http, { error: error.body }, error.headers);
    console.error(error);
    send(response, 500, { error: { status: 'INTERNAL', message: GENERIC_MESSAGES.generic } });
  });
});
// As Node's own defaults for a keep-alive client that keeps its sockets: the generator reuses them.
server.keepAliveTimeout = 72_000;
server.listen(port, () => console.log(`bare baseline listening on ${port}`));

const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
