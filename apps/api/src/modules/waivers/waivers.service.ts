import { randomBytes } from 'node:crypto';
import {
  and,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  sql,
  type AnyColumn,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import {
  APPLICATION_MESSAGES,
  PAYMENT_MESSAGES,
  WAIVER_CODE_ALPHABET,
  WAIVER_MESSAGES as W,
  dayInTimeZone,
  normalizeWaiverCode,
  type FeeWaiver,
  type FeeWaiverStatus,
  type StaffFeeWaiver,
  type WaiverCode,
  type WaiverRequestInput,
} from '@kaminuza/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  applications,
  cycles,
  documents,
  feeWaiverCodes,
  feeWaivers,
  files,
  partners,
  payments,
  programs,
  students,
} from '../../db/schema/index.ts';
import { uniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { notifyFeeDecision } from '../notifications/index.ts';
import { assertCycleOfPartner, cycleSettings } from '../partner-settings/index.ts';
import type { StaffCaller } from '../partners/index.ts';

/*
 * Fee waivers (issue 22). A code grants a waiver at once; a request waits for staff. One waiver per
 * application: a declined request is replaced in place by a new request or a code. An approved waiver
 * stands in for the paid fee at submission, and no checkout opens on a waived application.
 */

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

/** `XXXX-XXXX-XXXX`: 60 random bits, each character one unbiased draw (the alphabet has 32 letters). */
export function newWaiverCode(): string {
  const chars = [...randomBytes(12)].map((byte) => WAIVER_CODE_ALPHABET[byte & 31]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

const CODE_ATTEMPTS = 5;

/* ---------------------------------------------------------------- for other modules */

/** Whether the application's fee is waived (an approved waiver): what submission and checkout ask. */
export async function feeWaived(db: DbOrTx, applicationId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: feeWaivers.id })
    .from(feeWaivers)
    .where(and(eq(feeWaivers.application_id, applicationId), eq(feeWaivers.status, 'approved')))
    .limit(1);
  return row !== undefined;
}

/** Whether the application (an id column or value in a query) has an approved waiver, as a SQL condition. */
export const feeWaivedCondition = (applicationId: SQL | AnyColumn) =>
  sql<boolean>`exists (select 1 from ${feeWaivers} w where w.application_id = ${applicationId} and w.status = 'approved')`;

/** Refuses a checkout of a waived fee (409 fee_waived): there is nothing to pay. */
export async function assertFeeNotWaived(db: DbOrTx, applicationId: string): Promise<void> {
  if (await feeWaived(db, applicationId))
    throw new AppError('ABORTED', W.fee_waived, undefined, { reason: 'fee_waived' });
}

/**
 * Gives back the code uses of applications about to be deleted before they were submitted (a draft
 * discarded, an account deleted): a use stands for a submission, and an application removed unsubmitted
 * never made one, so the code can serve someone else. Call it in the transaction that deletes them, before
 * the delete (their waivers go with them by cascade). A submitted application keeps its use.
 */
export async function releaseUnsubmittedCodeUses(
  tx: DbOrTx,
  applicationIds: SQLWrapper | readonly string[],
): Promise<void> {
  if (Array.isArray(applicationIds) && applicationIds.length === 0) return;
  const uses = await tx
    .select({ code_id: feeWaivers.code_id, count: sql<number>`count(*)::int` })
    .from(feeWaivers)
    .innerJoin(applications, eq(applications.id, feeWaivers.application_id))
    .where(
      and(
        inArray(feeWaivers.application_id, applicationIds),
        eq(feeWaivers.kind, 'code'),
        eq(feeWaivers.status, 'approved'),
        isNotNull(feeWaivers.code_id),
        eq(applications.status, 'in_progress'),
      ),
    )
    .groupBy(feeWaivers.code_id);
  for (const { code_id, count } of uses) {
    // Never below zero: the check constraint holds the count between 0 and max_uses.
    await tx
      .update(feeWaiverCodes)
      .set({ used_count: sql`greatest(${feeWaiverCodes.used_count} - ${count}, 0)` })
      .where(eq(feeWaiverCodes.id, code_id!));
  }
}

/* ---------------------------------------------------------------- staff: codes */

type CodeRow = typeof feeWaiverCodes.$inferSelect;

function codeState(row: CodeRow, today: string): WaiverCode['state'] {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_on < today) return 'expired';
  if (row.used_count >= row.max_uses) return 'used_up';
  return 'usable';
}

function toCode(row: CodeRow & { cycle_name: string }, today: string): WaiverCode {
  return {
    id: row.id,
    code: row.code,
    label: row.label,
    cycle_id: row.cycle_id,
    cycle_name: row.cycle_name,
    max_uses: row.max_uses,
    used_count: row.used_count,
    expires_on: row.expires_on,
    revoked_at: iso(row.revoked_at),
    state: codeState(row, today),
    created_at: iso(row.created_at)!,
  };
}

async function todayOf(db: DbOrTx, partnerId: string, now: Date): Promise<string> {
  const { timezone } = await cycleSettings(db, partnerId);
  return dayInTimeZone(now, timezone);
}

async function codeById(db: DbOrTx, partnerId: string, codeId: string, today: string): Promise<WaiverCode> {
  const [row] = await db
    .select({ code: feeWaiverCodes, cycle_name: cycles.name })
    .from(feeWaiverCodes)
    .innerJoin(cycles, eq(cycles.id, feeWaiverCodes.cycle_id))
    .where(and(eq(feeWaiverCodes.id, codeId), eq(feeWaiverCodes.partner_id, partnerId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return toCode({ ...row.code, cycle_name: row.cycle_name }, today);
}

/** POST /partners/:partnerId/waiver-codes — a new code of one of the institution's cycles. */
export async function createWaiverCode(
  db: Db,
  caller: StaffCaller,
  input: { cycle_id: string; max_uses: number; expires_on: string; label?: string | null | undefined },
  now = new Date(),
): Promise<WaiverCode> {
  await assertCycleOfPartner(db, caller.partnerId, input.cycle_id).catch((error: unknown) => {
    // Another institution's cycle, or none: a field to correct, not a missing page.
    if (error instanceof AppError && error.status === 'NOT_FOUND')
      throw new AppError('INVALID_ARGUMENT', W.cycle_unknown, [{ path: 'cycle_id', message: W.cycle_unknown }]);
    throw error;
  });
  const today = await todayOf(db, caller.partnerId, now);
  if (input.expires_on < today)
    throw new AppError('INVALID_ARGUMENT', W.expires_invalid, [{ path: 'expires_on', message: W.expires_invalid }]);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const [row] = await db
        .insert(feeWaiverCodes)
        .values({
          partner_id: caller.partnerId,
          cycle_id: input.cycle_id,
          code: newWaiverCode(),
          label: input.label?.trim() || null,
          max_uses: input.max_uses,
          expires_on: input.expires_on,
          created_by: caller.staffId,
        })
        .returning({ id: feeWaiverCodes.id });
      return codeById(db, caller.partnerId, row!.id, today);
    } catch (error) {
      if (attempt + 1 < CODE_ATTEMPTS && uniqueViolation(error) === 'fee_waiver_codes_partner_code_unique') continue;
      throw error;
    }
  }
}

/** GET /partners/:partnerId/waiver-codes — newest first, with their usage. */
export async function listWaiverCodes(db: Db, partnerId: string, now = new Date()): Promise<WaiverCode[]> {
  const today = await todayOf(db, partnerId, now);
  const rows = await db
    .select({ code: feeWaiverCodes, cycle_name: cycles.name })
    .from(feeWaiverCodes)
    .innerJoin(cycles, eq(cycles.id, feeWaiverCodes.cycle_id))
    .where(eq(feeWaiverCodes.partner_id, partnerId))
    .orderBy(desc(feeWaiverCodes.created_at), desc(feeWaiverCodes.id));
  return rows.map((row) => toCode({ ...row.code, cycle_name: row.cycle_name }, today));
}

/** POST /partners/:partnerId/waiver-codes/:codeId/revoke — no further redemption; waivers granted stay. */
export async function revokeWaiverCode(db: Db, partnerId: string, codeId: string, now = new Date()) {
  await db
    .update(feeWaiverCodes)
    .set({ revoked_at: sql`coalesce(${feeWaiverCodes.revoked_at}, now())` })
    .where(and(eq(feeWaiverCodes.id, codeId), eq(feeWaiverCodes.partner_id, partnerId)));
  return codeById(db, partnerId, codeId, await todayOf(db, partnerId, now));
}

/* ---------------------------------------------------------------- staff: requests */

const applicantName = sql<string>`btrim(coalesce(${students.first_name}, '') || ' ' || coalesce(${students.last_name}, ''))`;

async function staffWaivers(db: DbOrTx, partnerId: string, filter: { status?: FeeWaiverStatus; id?: string }) {
  const rows = await db
    .select({
      waiver: feeWaivers,
      applicant_name: applicantName,
      applicant_email: students.email,
      program_name: programs.name,
      code: feeWaiverCodes.code,
      document_type: documents.type,
      file_name: files.original_name,
    })
    .from(feeWaivers)
    .innerJoin(applications, eq(applications.id, feeWaivers.application_id))
    .innerJoin(students, eq(students.id, applications.student_id))
    .innerJoin(programs, eq(programs.id, applications.program_id))
    .leftJoin(feeWaiverCodes, eq(feeWaiverCodes.id, feeWaivers.code_id))
    .leftJoin(documents, eq(documents.id, feeWaivers.document_id))
    .leftJoin(files, eq(files.id, documents.file_id))
    .where(
      and(
        eq(feeWaivers.partner_id, partnerId),
        filter.status ? eq(feeWaivers.status, filter.status) : undefined,
        filter.id ? eq(feeWaivers.id, filter.id) : undefined,
      ),
    )
    .orderBy(desc(feeWaivers.created_at), desc(feeWaivers.id))
    .limit(500);
  return rows.map((row): StaffFeeWaiver => ({
    id: row.waiver.id,
    application_id: row.waiver.application_id,
    applicant_name: row.applicant_name,
    applicant_email: row.applicant_email,
    program_name: row.program_name,
    kind: row.waiver.kind,
    status: row.waiver.status,
    reason: row.waiver.reason,
    document:
      row.waiver.document_id && row.document_type && row.file_name
        ? { id: row.waiver.document_id, type: row.document_type, file_name: row.file_name }
        : null,
    code: row.code,
    decline_reason: row.waiver.decline_reason,
    decided_at: iso(row.waiver.decided_at),
    created_at: iso(row.waiver.created_at)!,
  }));
}

/** GET /partners/:partnerId/fee-waivers — requests (and redeemed codes), newest first, by status. */
export function listFeeWaivers(db: Db, partnerId: string, status?: FeeWaiverStatus): Promise<StaffFeeWaiver[]> {
  return staffWaivers(db, partnerId, status ? { status } : {});
}

/** The waiver's document file, for staff of its institution: null when it has none (or is not theirs). */
export async function waiverDocumentFile(db: Db, partnerId: string, waiverId: string) {
  const [row] = await db
    .select({ file_id: documents.file_id })
    .from(feeWaivers)
    .innerJoin(documents, eq(documents.id, feeWaivers.document_id))
    .innerJoin(files, eq(files.id, documents.file_id))
    .where(and(eq(feeWaivers.id, waiverId), eq(feeWaivers.partner_id, partnerId)))
    .limit(1);
  return row ?? null;
}

/** Where an applicant reads their application (and its fee). */
const applicationPath = (partnerId: string) => `/partners/${partnerId}/application/form`;

/** A request staff answer: locked, theirs, still `requested`, on an unsubmitted, unpaid application. */
async function requestToDecide(tx: DbOrTx, partnerId: string, waiverId: string) {
  // The application first, as an applicant redeeming a code on it takes it: the two wait for each other
  // rather than each holding what the other needs.
  await tx
    .select({ id: applications.id })
    .from(applications)
    .innerJoin(feeWaivers, eq(feeWaivers.application_id, applications.id))
    .where(and(eq(feeWaivers.id, waiverId), eq(feeWaivers.partner_id, partnerId)))
    .for('update', { of: applications });
  const [row] = await tx
    .select({
      waiver: feeWaivers,
      user_id: students.user_id,
      application_status: applications.status,
      program_name: programs.name,
    })
    .from(feeWaivers)
    .innerJoin(applications, eq(applications.id, feeWaivers.application_id))
    .innerJoin(students, eq(students.id, applications.student_id))
    .innerJoin(programs, eq(programs.id, applications.program_id))
    .where(and(eq(feeWaivers.id, waiverId), eq(feeWaivers.partner_id, partnerId)))
    .limit(1)
    .for('update', { of: feeWaivers });
  if (!row) throw new AppError('NOT_FOUND');
  if (row.waiver.status !== 'requested') throw new AppError('ABORTED', W.not_requested);
  return row;
}

async function decide(
  db: Db,
  caller: StaffCaller,
  waiverId: string,
  decision: { status: 'approved' } | { status: 'declined'; reason: string },
  publicUrl: string,
): Promise<StaffFeeWaiver> {
  await db.transaction(async (tx) => {
    const row = await requestToDecide(tx, caller.partnerId, waiverId);
    if (decision.status === 'approved') {
      if (row.application_status !== 'in_progress')
        throw new AppError('ABORTED', APPLICATION_MESSAGES.already_submitted, undefined, {
          reason: 'already_submitted',
        });
      await holdPendingPayments(tx, row.waiver.application_id);
      if (await paid(tx, row.waiver.application_id))
        throw new AppError('ABORTED', PAYMENT_MESSAGES.already_paid, undefined, { reason: 'already_paid' });
    }
    await tx
      .update(feeWaivers)
      .set({
        status: decision.status,
        decided_by: caller.staffId,
        decided_at: sql`now()`,
        decline_reason: decision.status === 'declined' ? decision.reason : null,
      })
      .where(eq(feeWaivers.id, waiverId));
    const [institution] = await tx
      .select({ name: partners.name })
      .from(partners)
      .where(eq(partners.id, caller.partnerId))
      .limit(1);
    await notifyFeeDecision(tx, {
      userId: row.user_id,
      type: decision.status === 'approved' ? 'fee_waiver_approved' : 'fee_waiver_declined',
      institution: institution?.name ?? '',
      program: row.program_name,
      reason: decision.status === 'declined' ? decision.reason : null,
      path: applicationPath(caller.partnerId),
      publicUrl,
    });
  });
  const [waiver] = await staffWaivers(db, caller.partnerId, { id: waiverId });
  return waiver!;
}

/** POST /partners/:partnerId/fee-waivers/:waiverId/approve — the applicant is told in the app and by email. */
export function approveFeeWaiver(db: Db, caller: StaffCaller, waiverId: string, publicUrl: string) {
  return decide(db, caller, waiverId, { status: 'approved' }, publicUrl);
}

/** POST /partners/:partnerId/fee-waivers/:waiverId/decline — the reason is shown to the applicant and emailed. */
export function declineFeeWaiver(db: Db, caller: StaffCaller, waiverId: string, reason: string, publicUrl: string) {
  return decide(db, caller, waiverId, { status: 'declined', reason }, publicUrl);
}

/* ---------------------------------------------------------------- applicant */

function toWaiver(row: typeof feeWaivers.$inferSelect): FeeWaiver {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    reason: row.reason,
    document_id: row.document_id,
    decline_reason: row.decline_reason,
    decided_at: iso(row.decided_at),
    created_at: iso(row.created_at)!,
  };
}

/**
 * Locks the application's pending payments before a waiver is granted: a settlement under way finishes
 * first and is seen as paid, and one arriving later waits for the waiver and records its money as owed
 * back (settlePayment). Without it a payment could settle as the fee of an application just waived.
 */
async function holdPendingPayments(tx: DbOrTx, applicationId: string): Promise<void> {
  await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.application_id, applicationId), eq(payments.status, 'pending')))
    .for('update');
}

async function paid(db: DbOrTx, applicationId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.application_id, applicationId), eq(payments.status, 'succeeded')))
    .limit(1);
  return row !== undefined;
}

/** The caller's own application (404 for anyone else's), locked when `lock` (a waiver is about to change). */
async function ownApplication(db: DbOrTx, userId: string, applicationId: string, lock: boolean) {
  const query = db
    .select({
      id: applications.id,
      student_id: applications.student_id,
      partner_id: applications.partner_id,
      cycle_id: applications.cycle_id,
      status: applications.status,
    })
    .from(applications)
    .innerJoin(students, eq(students.id, applications.student_id))
    .where(and(eq(applications.id, applicationId), eq(students.user_id, userId)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: applications }) : await query;
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

async function waiverOf(db: DbOrTx, applicationId: string) {
  const [row] = await db.select().from(feeWaivers).where(eq(feeWaivers.application_id, applicationId)).limit(1);
  return row ?? null;
}

/**
 * What must hold before a new waiver is written on an application: unsubmitted, unpaid, and no waiver
 * already approved (or, for a new request, already waiting).
 */
async function assertWaivable(tx: DbOrTx, application: { id: string; status: string }, kind: 'code' | 'request') {
  if (application.status !== 'in_progress')
    throw new AppError('ABORTED', APPLICATION_MESSAGES.already_submitted, undefined, { reason: 'already_submitted' });
  if (kind === 'code') await holdPendingPayments(tx, application.id);
  if (await paid(tx, application.id))
    throw new AppError('ABORTED', PAYMENT_MESSAGES.already_paid, undefined, { reason: 'already_paid' });
  const existing = await waiverOf(tx, application.id);
  if (existing?.status === 'approved') throw new AppError('ABORTED', W.already_waived);
  if (existing?.status === 'requested' && kind === 'request') throw new AppError('ABORTED', W.request_pending);
}

/** GET /applications/:id/waiver — the applicant's waiver, or null. */
export async function ownFeeWaiver(db: Db, userId: string, applicationId: string): Promise<FeeWaiver | null> {
  const application = await ownApplication(db, userId, applicationId, false);
  const row = await waiverOf(db, application.id);
  return row ? toWaiver(row) : null;
}

const codeError = (message: string) => new AppError('INVALID_ARGUMENT', message, [{ path: 'code', message }]);

/**
 * POST /applications/:id/waiver/code — an approved waiver at once. The use is taken by one conditional
 * update (`used_count < max_uses`, not expired, not revoked): concurrent redemptions of a code never take
 * more uses than it has. A code replaces a pending or declined request.
 */
export async function redeemWaiverCode(
  db: Db,
  userId: string,
  applicationId: string,
  typed: string,
  now = new Date(),
): Promise<FeeWaiver> {
  const code = normalizeWaiverCode(typed);
  if (!code) throw codeError(W.code_format);
  return db.transaction(async (tx) => {
    const application = await ownApplication(tx, userId, applicationId, true);
    await assertWaivable(tx, application, 'code');
    const [found] = await tx
      .select()
      .from(feeWaiverCodes)
      .where(and(eq(feeWaiverCodes.partner_id, application.partner_id), sql`upper(${feeWaiverCodes.code}) = ${code}`))
      .limit(1);
    if (!found) throw codeError(W.code_unknown);
    const today = await todayOf(tx, application.partner_id, now);
    if (found.revoked_at !== null) throw codeError(W.code_revoked);
    if (found.expires_on < today) throw codeError(W.code_expired);
    if (found.cycle_id !== application.cycle_id) throw codeError(W.code_other_cycle);
    const [taken] = await tx
      .update(feeWaiverCodes)
      .set({ used_count: sql`${feeWaiverCodes.used_count} + 1` })
      .where(
        and(
          eq(feeWaiverCodes.id, found.id),
          lt(feeWaiverCodes.used_count, feeWaiverCodes.max_uses),
          isNull(feeWaiverCodes.revoked_at),
          gte(feeWaiverCodes.expires_on, today),
        ),
      )
      .returning({ id: feeWaiverCodes.id });
    if (!taken) throw codeError(W.code_used_up);
    const values = {
      kind: 'code' as const,
      code_id: found.id,
      status: 'approved' as const,
      reason: null,
      document_id: null,
      decided_by: null,
      decided_at: sql`now()`,
      decline_reason: null,
    };
    const [row] = await tx
      .insert(feeWaivers)
      .values({ application_id: application.id, partner_id: application.partner_id, ...values })
      .onConflictDoUpdate({ target: feeWaivers.application_id, set: { ...values, created_at: sql`now()` } })
      .returning();
    return toWaiver(row!);
  });
}

/**
 * POST /applications/:id/waiver/request — a need-based request with the applicant's reason and,
 * optionally, one of their own documents; waits for staff. A declined request is replaced.
 */
export async function requestFeeWaiver(
  db: Db,
  userId: string,
  applicationId: string,
  input: WaiverRequestInput,
): Promise<FeeWaiver> {
  return db.transaction(async (tx) => {
    const application = await ownApplication(tx, userId, applicationId, true);
    await assertWaivable(tx, application, 'request');
    const documentId = input.document_id ?? null;
    if (documentId) {
      const [own] = await tx
        .select({ id: documents.id })
        .from(documents)
        .where(and(eq(documents.id, documentId), eq(documents.student_id, application.student_id)))
        .limit(1);
      if (!own)
        throw new AppError('INVALID_ARGUMENT', W.document_invalid, [
          { path: 'document_id', message: W.document_invalid },
        ]);
    }
    const values = {
      kind: 'request' as const,
      code_id: null,
      status: 'requested' as const,
      reason: input.reason.trim(),
      document_id: documentId,
      decided_by: null,
      decided_at: null,
      decline_reason: null,
    };
    const [row] = await tx
      .insert(feeWaivers)
      .values({ application_id: application.id, partner_id: application.partner_id, ...values })
      .onConflictDoUpdate({ target: feeWaivers.application_id, set: { ...values, created_at: sql`now()` } })
      .returning();
    return toWaiver(row!);
  });
}
