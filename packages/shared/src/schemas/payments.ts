import { z } from 'zod';
import { FINANCE_MESSAGES as F, PAYMENT_MESSAGES as P } from '../messages.ts';

/*
 * The application fee, paid through a payment provider's hosted checkout (the /pay page for the
 * sandbox provider). The provider confirms by a signed callback to the api; a payment is one row per
 * checkout, and at most one live (pending or succeeded) payment exists per application.
 */

/**
 * `sandbox` is the hosted-checkout stand-in (ADR 015); `mtn_momo`, `mpesa` (Safaricom Daraja STK Push),
 * `mpesa_tz` (Vodacom's M-Pesa OpenAPI in Tanzania) and `airtel_money` are mobile money collections (ADR 037); `flutterwave` is the card aggregator's hosted
 * checkout; `bank_slip` is a deposit at a bank, verified by the institution's staff.
 */
export const PAYMENT_PROVIDERS = [
  'sandbox',
  'mtn_momo',
  'mpesa',
  'mpesa_tz',
  'airtel_money',
  'flutterwave',
  'bank_slip',
] as const;
export const PaymentProviderSchema = z.enum(PAYMENT_PROVIDERS);
export type PaymentProvider = z.infer<typeof PaymentProviderSchema>;

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const PaymentStatusSchema = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>;

/**
 * A success for an application already paid is owed back: `needed`; `processing` while the provider's
 * refund API works on it (back to `needed` if it fails); then `refunded`.
 */
export const REFUND_STATUSES = ['needed', 'processing', 'refunded'] as const;
export const RefundStatusSchema = z.enum(REFUND_STATUSES);
export type RefundStatus = z.infer<typeof RefundStatusSchema>;

/** How money owed back was given: through the provider's refund API, or outside Kaminuza, with a note. */
export const REFUND_METHODS = ['provider', 'by_hand'] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

export const PAYMENT_METHODS = ['card', 'mobile_money', 'bank_transfer'] as const;
export const PaymentMethodSchema = z.enum(PAYMENT_METHODS);
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;

/** The mobile money collections the api speaks to (each an adapter of the provider's published API). */
export const MOBILE_MONEY_PROVIDERS = ['mtn_momo', 'mpesa', 'mpesa_tz', 'airtel_money'] as const;
export const MobileMoneyProviderSchema = z.enum(MOBILE_MONEY_PROVIDERS);
export type MobileMoneyProviderName = z.infer<typeof MobileMoneyProviderSchema>;

/**
 * Where each network collects, as (country, currency) pairs: a prompt is pushed only to a number of one of
 * these countries, in that country's currency (no exchange: the fee is set per currency by the institution).
 */
export const MOBILE_MONEY_MARKETS: Record<MobileMoneyProviderName, readonly { country: string; currency: string }[]> = {
  mtn_momo: [
    { country: 'RW', currency: 'RWF' },
    { country: 'UG', currency: 'UGX' },
    { country: 'GH', currency: 'GHS' },
    { country: 'CM', currency: 'XAF' },
    { country: 'CG', currency: 'XAF' },
    { country: 'CI', currency: 'XOF' },
    { country: 'BJ', currency: 'XOF' },
    { country: 'ZM', currency: 'ZMW' },
    { country: 'GN', currency: 'GNF' },
    { country: 'LR', currency: 'LRD' },
    { country: 'SZ', currency: 'SZL' },
  ],
  mpesa: [{ country: 'KE', currency: 'KES' }],
  mpesa_tz: [{ country: 'TZ', currency: 'TZS' }],
  airtel_money: [
    { country: 'KE', currency: 'KES' },
    { country: 'UG', currency: 'UGX' },
    { country: 'TZ', currency: 'TZS' },
    { country: 'RW', currency: 'RWF' },
    { country: 'ZM', currency: 'ZMW' },
    { country: 'MW', currency: 'MWK' },
    { country: 'CD', currency: 'CDF' },
    { country: 'CD', currency: 'USD' },
    { country: 'CG', currency: 'XAF' },
    { country: 'GA', currency: 'XAF' },
    { country: 'TD', currency: 'XAF' },
    { country: 'NE', currency: 'XOF' },
    { country: 'MG', currency: 'MGA' },
    { country: 'SC', currency: 'SCR' },
    { country: 'NG', currency: 'NGN' },
  ],
};

/**
 * How an applicant may pay a fee, as the institution accepts it per currency: a card (the card provider's
 * hosted checkout), one of the mobile money networks (a prompt on the payer's phone), or a bank slip.
 */
export const FEE_CHANNELS = ['card', ...MOBILE_MONEY_PROVIDERS, 'bank_slip'] as const;
export const FeeChannelSchema = z.enum(FEE_CHANNELS);
export type FeeChannel = z.infer<typeof FeeChannelSchema>;

export const isMobileMoneyChannel = (channel: FeeChannel): channel is MobileMoneyProviderName =>
  (MOBILE_MONEY_PROVIDERS as readonly string[]).includes(channel);

const digitsOf = new Map<string, number>();

/** Digits after the decimal point of a currency (ISO 4217, as Intl knows it): 2 for USD, 0 for RWF. */
export function currencyDigits(currency: string): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    try {
      digits =
        new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    // Codes are three letters (about 300 exist); anything else is answered without being remembered.
    if (/^[A-Z]{3}$/.test(currency)) digitsOf.set(currency, digits);
  }
  return digits;
}

/** Minor units to the amount as a number of the currency (10000 USD minor units → 100; 130000 RWF → 130000). */
export const fromMinor = (amount: number, currency: string) => amount / 10 ** currencyDigits(currency);
/** An amount of the currency to whole minor units (100.5 USD → 10050). */
export const toMinor = (amount: number, currency: string) => Math.round(amount * 10 ** currencyDigits(currency));

/**
 * One currency an institution charges its fee in: the amount in minor units of that currency (no exchange
 * rates: 100 USD and 130,000 RWF are each set by hand) and how it may be paid in it.
 */
export const FeeOptionSchema = z.object({
  currency: z.string().regex(/^[A-Z]{3}$/),
  amount: z.int().positive(),
  channels: z.array(FeeChannelSchema).min(1),
});
export type FeeOption = z.infer<typeof FeeOptionSchema>;
export const FEE_OPTIONS_MAX = 8;

/**
 * The fee options an applicant can choose from (the application's draft): the institution's, limited to the
 * channels this platform collects through, with the amount also as a number of the currency for display.
 */
export const OfferedFeeOptionSchema = FeeOptionSchema.extend({ amount_major: z.number().nonnegative() });
export type OfferedFeeOption = z.infer<typeof OfferedFeeOptionSchema>;

/** The longest bank reference a slip may carry. */
export const BANK_REFERENCE_MAX = 64;
export const BANK_ACCOUNTS_MAX = FEE_OPTIONS_MAX;

/**
 * The institution's bank account applicants deposit the fee to, one per currency (a deposit is made in
 * the account's currency, so the account follows the fee option's currency).
 */
export const BankAccountSchema = z.object({
  currency: z.string().regex(/^[A-Z]{3}$/),
  bank_name: z.string().min(1).max(120),
  account_name: z.string().min(1).max(120),
  account_number: z.string().min(1).max(64),
  branch: z.string().max(120).nullable().default(null),
  swift: z.string().max(11).nullable().default(null),
  instructions: z.string().max(1000).nullable().default(null),
});
export type BankAccount = z.output<typeof BankAccountSchema>;

/**
 * GET /applications/:id/payment/options — how the applicant can pay: each currency the institution charges
 * in, with the ways this platform collects in it (an institution's channel that is not set up here is left
 * out), and the applicant's profile phone to suggest for a mobile money prompt.
 */
export const PaymentOptionsSchema = z.object({
  options: z.array(OfferedFeeOptionSchema),
  suggested_phone: z.string().nullable(),
  /** The institution's account to deposit to, for each currency offered with the bank_slip channel. */
  bank_accounts: z.array(BankAccountSchema).default([]),
});
export type PaymentOptions = z.infer<typeof PaymentOptionsSchema>;

/**
 * POST /applications/:id/payment's body (optional: without one, the first currency's card checkout opens).
 * A mobile money channel needs the payer's number, of a country where that network collects in the currency.
 */
export const PaymentStartSchema = z
  .object({
    channel: FeeChannelSchema.default('card'),
    currency: z
      .string(P.currency_not_accepted)
      .regex(/^[A-Z]{3}$/, P.currency_not_accepted)
      .optional(),
    phone: z.string(P.phone_invalid).trim().max(32, P.phone_invalid).optional(),
    /** A bank slip: the reference the bank printed on it, and the uploaded photo or PDF of it (purpose payment_slip). */
    bank_reference: z
      .string(P.bank_reference_invalid)
      .trim()
      .min(1, P.bank_reference_invalid)
      .max(BANK_REFERENCE_MAX, P.bank_reference_invalid)
      .optional(),
    slip_file_id: z.uuid(P.slip_file_required).optional(),
  })
  .refine((body) => !isMobileMoneyChannel(body.channel) || Boolean(body.phone), {
    path: ['phone'],
    message: P.phone_invalid,
  })
  .refine((body) => body.channel !== 'bank_slip' || Boolean(body.bank_reference), {
    path: ['bank_reference'],
    message: P.bank_reference_invalid,
  })
  .refine((body) => body.channel !== 'bank_slip' || Boolean(body.slip_file_id), {
    path: ['slip_file_id'],
    message: P.slip_file_required,
  });
export type PaymentStart = z.input<typeof PaymentStartSchema>;

/** Mobile money networks the sandbox offers, as African checkouts (Flutterwave, MTN MoMo …) do. */
export const MOBILE_MONEY_NETWORKS = ['mtn', 'airtel', 'mpesa'] as const;

/** The payment record (issue: provider, reference, amount, currency, status). */
export const PaymentSummarySchema = z.object({
  id: z.uuid(),
  provider: PaymentProviderSchema,
  reference: z.string(),
  amount: z.number().nonnegative(),
  currency: z.string(),
  status: PaymentStatusSchema,
  method: PaymentMethodSchema.nullable(),
  failure_reason: z.string().nullable(),
  paid_at: z.string().nullable(),
  created_at: z.string(),
});
export type PaymentSummary = z.infer<typeof PaymentSummarySchema>;

/**
 * POST /applications/:id/payment (header Idempotency-Key): opens the fee's checkout, or answers the
 * pending one of the same way to pay (200). 409 'already_paid' once paid; 409 'payment_pending' while a payment
 * of another way is pending; 409 'no_fee' when the fee is 0.
 */
export const CheckoutStartedSchema = z.object({
  payment: PaymentSummarySchema,
  /** Where the browser goes to pay: the provider's hosted page (/pay?reference=… for the sandbox). */
  checkout_url: z.string(),
});
export type CheckoutStarted = z.infer<typeof CheckoutStartedSchema>;

export const PaymentReferenceParamsSchema = z.object({ reference: z.string().min(6).max(80) });

/** GET /payments/:reference — what the /pay page shows its payer (the student who opened it; else 404). */
export const PaymentCheckoutSchema = PaymentSummarySchema.extend({
  /** The application it pays for: after a declined attempt the page opens a new checkout for it. */
  application_id: z.uuid(),
  partner_name: z.string(),
  program_name: z.string(),
  /** The application screen to go back to (a path of this site). */
  return_path: z.string(),
  methods: z.array(PaymentMethodSchema),
  /** The number a mobile money prompt went to (international, with +), else null. */
  payer_phone: z.string().nullable(),
});
export type PaymentCheckout = z.infer<typeof PaymentCheckoutSchema>;

/**
 * POST /payments/sandbox/:reference/complete — the sandbox's hosted page paying. Like real test modes:
 * card 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined; a mobile money number ending in
 * 000 is declined, any other succeeds. No card number is stored, only its last four digits.
 */
export const SandboxPaymentSchema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('card'),
    card_number: z
      .string(P.card_invalid)
      .transform((value) => value.replace(/[\s-]/g, ''))
      .refine((value) => /^\d{12,19}$/.test(value), P.card_invalid),
    expiry: z.string(P.card_invalid).regex(/^(0[1-9]|1[0-2])\/\d{2}$/, P.card_invalid),
    cvc: z.string(P.card_invalid).regex(/^\d{3,4}$/, P.card_invalid),
  }),
  z.object({
    method: z.literal('mobile_money'),
    network: z.enum(MOBILE_MONEY_NETWORKS),
    phone: z
      .string(P.phone_invalid)
      .transform((value) => value.replace(/[\s-]/g, ''))
      .refine((value) => /^\+[1-9]\d{7,14}$/.test(value), P.phone_invalid),
  }),
]);
export type SandboxPayment = z.input<typeof SandboxPaymentSchema>;

/** The answer of the sandbox page once the provider has decided (the api learns it by the callback). */
export const SandboxResultSchema = z.object({
  status: PaymentStatusSchema,
  failure_reason: z.string().nullable(),
  return_path: z.string(),
});
export type SandboxResult = z.infer<typeof SandboxResultSchema>;

/** The header carrying a provider callback's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const PAYMENT_SIGNATURE_HEADER = 'kaminuza-signature';

/** The event a provider sends to POST /payments/callbacks/:provider. */
export const PaymentEventSchema = z.object({
  id: z.string().min(1).max(100),
  type: z.enum(['payment.succeeded', 'payment.failed']),
  data: z.object({
    reference: z.string(),
    amount: z.number().nonnegative(),
    currency: z.string(),
    method: PaymentMethodSchema,
    failure_reason: z.string().nullable(),
  }),
});
export type PaymentEvent = z.infer<typeof PaymentEventSchema>;

/** The longest reason staff give for rejecting a bank slip. */
export const SLIP_REASON_MAX = 500;

/** POST /partners/:partnerId/finance/payments/:paymentId/verify — staff decide on a pending bank slip. */
export const SlipVerificationSchema = z
  .object({
    decision: z.enum(['approve', 'reject']),
    reason: z.string(F.slip_reason_required).trim().max(SLIP_REASON_MAX, F.slip_reason_too_long).optional(),
  })
  .refine((body) => body.decision !== 'reject' || Boolean(body.reason), {
    path: ['reason'],
    message: F.slip_reason_required,
  });
export type SlipVerification = z.input<typeof SlipVerificationSchema>;
