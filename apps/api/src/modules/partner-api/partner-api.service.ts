import { and, desc, eq, gte, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  SETUP_MESSAGES,
  type ApiKeyScope,
  type PartnerApiDecision,
  type PartnerApiDecisionPage,
  type PartnerApiDecisionQuery,
  type PartnerApiSubmission,
  type PartnerApiSubmissionPage,
  type PartnerApiSubmissionQuery,
  type Program,
  type ReviewDocument,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { decisions, partnerApiKeys, partners, submissions } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { consume, type Limit } from '../auth/index.ts';
import { hashApiKey, stampApiKeyUse } from '../partner-settings/index.ts';
import { listPrograms } from '../programs/index.ts';
import { currentDocumentsOf } from '../review/index.ts';

/** The institution's systems calling with one key. */
export interface ApiKeyCaller {
  keyId: string;
  partnerId: string;
  scopes: ApiKeyScope[];
}

/** Per key, so one busy integration cannot starve the others (or the dashboard) of the database. */
export const API_KEY_LIMIT: Limit = { name: 'partner-api:key', max: 120, windowMs: 60_000 };

const KEY_FORMAT = /^kz_[a-z0-9]{8}_[A-Za-z0-9_-]{43}$/;

/**
 * The key of an `Authorization: Bearer <key>` header, if it is a live one: 401 for a missing, malformed,
 * unknown or revoked key, or one of an institution no longer approved (all alike, so callers learn
 * nothing about which keys exist); 403 without the scope; 429 past the key's rate limit. Records the use at most once a minute, to keep reads cheap.
 */
export async function authenticateKey(
  db: Db,
  authorization: string | undefined,
  scope: ApiKeyScope,
): Promise<ApiKeyCaller> {
  const invalid = () => new AppError('UNAUTHENTICATED', SETUP_MESSAGES.api_key_invalid);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const key = match?.[1];
  if (!key || !KEY_FORMAT.test(key)) throw invalid();
  const [row] = await db
    .select({ id: partnerApiKeys.id, partnerId: partnerApiKeys.partner_id, scopes: partnerApiKeys.scopes })
    .from(partnerApiKeys)
    // A suspended (or no longer approved) institution's keys stop working with it.
    .innerJoin(partners, and(eq(partners.id, partnerApiKeys.partner_id), eq(partners.status, 'approved')))
    .where(and(eq(partnerApiKeys.key_hash, hashApiKey(key)), isNull(partnerApiKeys.revoked_at)))
    .limit(1);
  if (!row) throw invalid();
  await consume(db, API_KEY_LIMIT, row.id);
  if (!row.scopes.includes(scope)) throw new AppError('PERMISSION_DENIED', SETUP_MESSAGES.api_key_scope_denied);
  await stampApiKeyUse(db, row.id);
  return { keyId: row.id, partnerId: row.partnerId, scopes: row.scopes };
}

/* Paging: newest first by (created_at, id); the cursor is the last row's pair, kept at full precision. */

interface Cursor {
  created_at: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function encodeCursor(row: Cursor): string {
  return Buffer.from(JSON.stringify([row.created_at, row.id])).toString('base64url');
}

function decodeCursor(cursor: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      typeof value[0] === 'string' &&
      !Number.isNaN(Date.parse(value[0])) &&
      typeof value[1] === 'string' &&
      UUID.test(value[1])
    ) {
      return { created_at: value[0], id: value[1] };
    }
  } catch {
    // Falls through to the same answer as any other unreadable cursor.
  }
  throw new AppError('INVALID_ARGUMENT', undefined, [{ path: 'cursor', message: 'Invalid cursor' }]);
}

function pageConditions(
  table: { created_at: AnyPgColumn; updated_at: AnyPgColumn; id: AnyPgColumn },
  query: { cursor?: string | undefined; updated_since?: string | undefined },
): SQL[] {
  const conditions: SQL[] = [];
  if (query.cursor) {
    const after = decodeCursor(query.cursor);
    conditions.push(sql`(${table.created_at}, ${table.id}) < (${after.created_at}::timestamptz, ${after.id}::uuid)`);
  }
  if (query.updated_since) conditions.push(gte(table.updated_at, query.updated_since));
  return conditions;
}

function page<R extends Cursor, T>(rows: R[], limit: number, map: (row: R) => T) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items: items.map(map), next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
}

const iso = (value: string) => new Date(value).toISOString();
const isoOrNull = (value: string | null) => (value === null ? null : iso(value));

/**
 * A submission as the institution's systems read it. The profile is the applicant's as submitted, but
 * its documents are as they stand now, as staff see them: a verdict given after the submission (verified,
 * rejected with its reason) is what an integration needs, not the status frozen at submission.
 */
function toSubmission(row: typeof submissions.$inferSelect, documents: ReviewDocument[]): PartnerApiSubmission {
  const profile = 'documents' in row.profile ? { ...row.profile, documents } : row.profile;
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    cycle_id: row.cycle_id,
    program_id: row.program_id,
    campus_id: row.campus_id,
    form_id: row.form_id,
    profile,
    answers: row.answers,
    paid: row.paid,
    amount: row.amount,
    currency: row.currency,
    submitted_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export async function listSubmissions(
  db: Db,
  partnerId: string,
  query: PartnerApiSubmissionQuery,
): Promise<PartnerApiSubmissionPage> {
  const conditions = [eq(submissions.partner_id, partnerId), ...pageConditions(submissions, query)];
  if (query.status) conditions.push(eq(submissions.status, query.status));
  if (query.cycle_id) conditions.push(eq(submissions.cycle_id, query.cycle_id));
  const rows = await db
    .select()
    .from(submissions)
    .where(and(...conditions))
    .orderBy(desc(submissions.created_at), desc(submissions.id))
    .limit(query.limit + 1);
  const shown = rows.slice(0, query.limit);
  const documents = await currentDocumentsOf(
    db,
    shown.map((row) => row.profile),
  );
  const byId = new Map(shown.map((row, index) => [row.id, documents[index] ?? []]));
  return page(rows, query.limit, (row) => toSubmission(row, byId.get(row.id) ?? []));
}

export async function getSubmission(db: Db, partnerId: string, submissionId: string): Promise<PartnerApiSubmission> {
  const [row] = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.partner_id, partnerId), eq(submissions.id, submissionId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  const [documents = []] = await currentDocumentsOf(db, [row.profile]);
  return toSubmission(row, documents);
}

function toDecision(row: typeof decisions.$inferSelect): PartnerApiDecision {
  return {
    id: row.id,
    submission_id: row.submission_id,
    state: row.state,
    program_name: row.program_name,
    university_name: row.university_name,
    released_at: isoOrNull(row.released_at),
    response: row.response,
    response_date: isoOrNull(row.response_date),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export async function listDecisions(
  db: Db,
  partnerId: string,
  query: PartnerApiDecisionQuery,
): Promise<PartnerApiDecisionPage> {
  const rows = await db
    .select()
    .from(decisions)
    .where(and(eq(decisions.partner_id, partnerId), ...pageConditions(decisions, query)))
    .orderBy(desc(decisions.created_at), desc(decisions.id))
    .limit(query.limit + 1);
  return page(rows, query.limit, toDecision);
}

/** The institution's programs by name, each with the campuses that offer it, dates in ISO 8601. */
export async function listPartnerPrograms(db: Db, partnerId: string): Promise<Program[]> {
  return (await listPrograms(db, partnerId)).map((program) => ({
    ...program,
    created_at: iso(program.created_at),
    updated_at: iso(program.updated_at),
  }));
}
