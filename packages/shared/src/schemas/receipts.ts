import { z } from 'zod';
import { PAYMENT_MESSAGES as P } from '../messages.ts';
import { VERIFICATION_CODE_PATTERN } from './decisions.ts';
import { PaymentMethodSchema, PaymentProviderSchema } from './payments.ts';

/*
 * Receipts of paid application fees: every succeeded payment has a receipt number (KZ-R-2026-…) and a
 * verification code of the admission letters' form, printed on the PDF and in its QR code.
 */

/** GET /receipts/verify/:code — the code as printed (any case); anything else names no receipt. */
export const ReceiptCodeParamsSchema = z.object({
  code: z
    .string()
    .trim()
    .transform((code) => code.toUpperCase())
    .pipe(z.string().regex(VERIFICATION_CODE_PATTERN, P.receipt_not_found)),
});

/**
 * What the public check of a receipt answers: that it is genuine, what was paid to whom and when. The
 * payer appears only by initials; an unknown code is 404.
 */
export const ReceiptVerificationSchema = z.object({
  valid: z.literal(true),
  receipt_number: z.string(),
  institution: z.string(),
  payer_initials: z.string(),
  amount: z.number().nonnegative(),
  currency: z.string(),
  paid_at: z.string(),
  method: PaymentMethodSchema.nullable(),
  provider: PaymentProviderSchema,
});
export type ReceiptVerification = z.infer<typeof ReceiptVerificationSchema>;

/** GET /partners/:partnerId/review/payments/:paymentId/receipt — a payment of the institution. */
export const InstitutionPaymentParamsSchema = z.object({ partnerId: z.uuid(), paymentId: z.uuid() });
