import { z } from 'zod';
import { WAIVER_MESSAGES as W } from '../messages.ts';

/*
 * Fee waivers (issue 22): an institution issues waiver codes (per admission cycle, a number of uses and an
 * expiry date) and answers need-based waiver requests. An approved waiver lets the applicant submit with
 * the fee waived; the submission records `waived: true` in its payment block.
 */

export const FEE_WAIVER_KINDS = ['code', 'request'] as const;
export type FeeWaiverKind = (typeof FEE_WAIVER_KINDS)[number];

export const FEE_WAIVER_STATUSES = ['requested', 'approved', 'declined'] as const;
export const FeeWaiverStatusSchema = z.enum(FEE_WAIVER_STATUSES);
export type FeeWaiverStatus = z.infer<typeof FeeWaiverStatusSchema>;

/** 32 characters without look-alikes (no I, O, 0 or 1), as admission letters' verification codes. */
export const WAIVER_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const WAIVER_CODE_PATTERN = /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/;

/**
 * A code as typed back: case, spaces and dashes do not matter (`abcd efgh jklm` is `ABCD-EFGH-JKLM`).
 * Answers the code in its stored form, or null when it cannot be one.
 */
export function normalizeWaiverCode(input: string): string | null {
  const chars = input.toUpperCase().replace(/[\s-]/g, '');
  if (chars.length !== 12) return null;
  const code = `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
  return WAIVER_CODE_PATTERN.test(code) ? code : null;
}

export const WAIVER_REASON_MIN = 20;
export const WAIVER_REASON_MAX = 2000;
export const WAIVER_CODE_MAX_USES = 10000;

/* ---------------------------------------------------------------- staff: codes */

/** POST /partners/:partnerId/waiver-codes */
export const WaiverCodeInputSchema = z.object({
  cycle_id: z.uuid(W.cycle_unknown),
  max_uses: z.int(W.max_uses_invalid).min(1, W.max_uses_invalid).max(WAIVER_CODE_MAX_USES, W.max_uses_invalid),
  expires_on: z.iso.date(W.expires_invalid),
  label: z.string().trim().max(100, W.label_too_long).nullish(),
});
export type WaiverCodeInput = z.input<typeof WaiverCodeInputSchema>;

export const WaiverCodeSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  label: z.string().nullable(),
  cycle_id: z.uuid(),
  cycle_name: z.string(),
  max_uses: z.int(),
  used_count: z.int(),
  expires_on: z.iso.date(),
  revoked_at: z.string().nullable(),
  /** usable, used_up, expired or revoked: what the list shows (expired in the institution's time zone). */
  state: z.enum(['usable', 'used_up', 'expired', 'revoked']),
  created_at: z.string(),
});
export type WaiverCode = z.infer<typeof WaiverCodeSchema>;

/* ---------------------------------------------------------------- staff: requests */

export const WaiverRequestsQuerySchema = z.object({
  status: FeeWaiverStatusSchema.optional(),
});
export type WaiverRequestsQuery = z.infer<typeof WaiverRequestsQuerySchema>;

/** A waiver as the institution's staff see it (a request to answer, or a code redeemed). */
export const StaffFeeWaiverSchema = z.object({
  id: z.uuid(),
  application_id: z.uuid(),
  applicant_name: z.string(),
  applicant_email: z.string(),
  program_name: z.string(),
  kind: z.enum(FEE_WAIVER_KINDS),
  status: FeeWaiverStatusSchema,
  reason: z.string().nullable(),
  /** The applicant's document attached to a request (readable through the documents routes). */
  document: z.object({ id: z.uuid(), type: z.string(), file_name: z.string() }).nullable(),
  code: z.string().nullable(),
  decline_reason: z.string().nullable(),
  decided_at: z.string().nullable(),
  created_at: z.string(),
});
export type StaffFeeWaiver = z.infer<typeof StaffFeeWaiverSchema>;

export const WaiverDeclineSchema = z.object({
  reason: z.string().trim().min(1, W.decline_reason_required).max(WAIVER_REASON_MAX, W.reason_length),
});
export type WaiverDecline = z.infer<typeof WaiverDeclineSchema>;

export const WaiverIdParamsSchema = z.object({ partnerId: z.uuid(), waiverId: z.uuid() });
export const WaiverCodeIdParamsSchema = z.object({ partnerId: z.uuid(), codeId: z.uuid() });

/* ---------------------------------------------------------------- applicant */

/** POST /applications/:id/waiver/code */
export const WaiverCodeRedeemSchema = z.object({
  code: z.string().max(40, W.code_format),
});
export type WaiverCodeRedeem = z.infer<typeof WaiverCodeRedeemSchema>;

/** POST /applications/:id/waiver/request */
export const WaiverRequestInputSchema = z.object({
  reason: z.string().trim().min(WAIVER_REASON_MIN, W.reason_length).max(WAIVER_REASON_MAX, W.reason_length),
  /** One of the applicant's own documents (profile documents), to support the request. */
  document_id: z.uuid(W.document_invalid).nullish(),
});
export type WaiverRequestInput = z.input<typeof WaiverRequestInputSchema>;

/** GET /applications/:id/waiver — the applicant's view of their waiver. */
export const FeeWaiverSchema = z.object({
  id: z.uuid(),
  kind: z.enum(FEE_WAIVER_KINDS),
  status: FeeWaiverStatusSchema,
  reason: z.string().nullable(),
  document_id: z.uuid().nullable(),
  decline_reason: z.string().nullable(),
  decided_at: z.string().nullable(),
  created_at: z.string(),
});
export type FeeWaiver = z.infer<typeof FeeWaiverSchema>;
