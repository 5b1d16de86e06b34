/**
 * Mobile money collections as the api sees them: a payment prompt pushed to the payer's phone, a status
 * the provider answers for it, and a callback that only says "ask me about this one".
 *
 * The networks the platform targets fit this shape:
 * - **MTN MoMo Collections** (providers/mtn-momo.ts): `requestPayment` is `POST collection/v1_0/requesttopay`
 *   with our reference as `X-Reference-Id`; `status` is `GET …/requesttopay/{reference}`; the unsigned
 *   callback body carries `externalId`, which is our reference.
 * - **M-Pesa Daraja STK Push**: `requestPayment` is `POST mpesa/stkpush/v1/processrequest` (password =
 *   base64(shortcode + passkey + timestamp)); Daraja names the prompt by its own `CheckoutRequestID`, which
 *   the adapter answers as `providerReference` for the caller to keep beside ours; `status` is
 *   `POST mpesa/stkpushquery/v1/query` with that id (ResultCode 0 = successful, 1032 = cancelled,
 *   1 = insufficient funds, 1037 = timeout, still-processing errors = pending); `callbackSubject` reads
 *   `Body.stkCallback.CheckoutRequestID`.
 * - **Airtel Money**: `requestPayment` is `POST merchant/v1/payments/` (`X-Country`, `X-Currency`, our
 *   reference as `transaction.id`); `status` is `GET standard/v1/payments/{id}` (TS = successful, TF = failed,
 *   TIP/TA = pending); `callbackSubject` reads `transaction.id` of the callback.
 * - **M-Pesa Tanzania** (Vodacom's M-Pesa OpenAPI, providers/vodacom-mpesa.ts): the single-stage payment
 *   answers within its own call once the payer has; `requestPayment` waits for it briefly and keeps a late
 *   answer for `status`, which asks `queryTransactionStatus` too; no callback (`callbackSubject` is null).
 *
 * Whatever a callback says, an outcome counts only once `status` — the provider's answer to a request we
 * made over TLS with our credentials — confirms it, and its amount, currency and reference match the
 * payment's record.
 */

import { currencyDigits, type MobileMoneyProviderName } from '@kaminuza/shared';
import type { RefundingProvider } from './refunds.ts';

/** What we ask a payer to approve on their phone. Amounts are in minor units of the currency. */
export interface MobileMoneyRequest {
  /** Our reference of the payment, chosen before the call and kept: the provider's idempotency key. */
  reference: string;
  /** Minor units (RWF and UGX have none: 5000 is 5000 RWF; 1250 GHS minor units are 12.50 GHS). */
  amount: number;
  /** ISO 4217. */
  currency: string;
  /** The payer's number in international form without '+', e.g. 250788123456. */
  msisdn: string;
  /** The payer's country (ISO 3166-1 alpha-2), of the number: Airtel's `X-Country`. */
  country: string;
  /** Shown to the payer on the prompt or statement. */
  payerMessage: string;
  /** Kept on the institution's side of the provider's records. */
  payeeNote: string;
  /** Where the provider sends its callback. */
  callbackUrl: string;
}

export interface MobileMoneyRequested {
  reference: string;
  /** The provider's own id of the prompt when it assigns one (Daraja's CheckoutRequestID); else null. */
  providerReference: string | null;
}

export type MobileMoneyState = 'pending' | 'succeeded' | 'failed';

/** Why a prompt failed, in our words; the provider's own code is kept beside it. */
export type MobileMoneyFailure =
  | 'declined'
  | 'insufficient_funds'
  | 'timeout'
  | 'unknown_payer'
  | 'wrong_pin'
  | 'not_allowed'
  | 'provider_error'
  /** The request never became a prompt: the network refused it or did not answer. */
  | 'unavailable';

/** A payment as the provider's status call needs to name it. */
export interface MobileMoneyPaymentRef {
  /** Ours (MoMo's X-Reference-Id, Airtel's transaction id). */
  reference: string;
  /** The provider's, when it assigned one at the request (Daraja's CheckoutRequestID); else null. */
  providerReference: string | null;
  currency: string;
  /** ISO 3166-1 alpha-2 of the payer's number. */
  country: string;
}

/**
 * Which payment a callback names: by our reference, or by the provider's own id of the request. And, where
 * the provider's status answer states no id of the money movement (Daraja's STK query has no receipt), the
 * id the callback states (`MpesaReceiptNumber`) with the amount it states (minor units): kept only once the
 * status call confirms the success, and only when that amount is the payment's.
 */
export type MobileMoneyCallbackSubject = ({ reference: string } | { providerReference: string }) & {
  transactionHint?: { id: string; amount: number | null };
};

export interface MobileMoneyStatus {
  state: MobileMoneyState;
  /**
   * What the provider says was asked for, in minor units: compared with the record before settling. Null
   * when its status answer states no amount (Daraja's STK query): the request it confirms is the one we
   * made, for the record's amount.
   */
  amount: number | null;
  currency: string;
  /**
   * Our reference as the provider's answer confirms it (MoMo's externalId; for Daraja, ours when the
   * answer's CheckoutRequestID is the one asked): compared with the record too.
   */
  externalId: string;
  reason: MobileMoneyFailure | null;
  /** The provider's code of the failure, as it sent it (e.g. APPROVAL_REJECTED). */
  providerReason: string | null;
  /** The provider's id of the money movement once it succeeded. */
  providerTransactionId: string | null;
}

export interface MobileMoneyProvider {
  readonly name: MobileMoneyProviderName;
  requestPayment(request: MobileMoneyRequest): Promise<MobileMoneyRequested>;
  /** The provider's current answer about a prompt; never trusted from a callback alone. */
  status(payment: MobileMoneyPaymentRef): Promise<MobileMoneyStatus>;
  /**
   * Which payment an (unsigned) callback is about, or null when its body names none. Nothing else of the
   * body is believed: the caller asks `status` next.
   */
  callbackSubject(body: unknown): MobileMoneyCallbackSubject | null;
  /** Its refund API, where it has one (providers/refunds.ts); without it, refunds are recorded by hand. */
  readonly refunds?: RefundingProvider;
}

/**
 * A provider call that did not get an answer to act on: `unreachable` (network error, timeout, 5xx — try
 * again later, as a job) or `refused` (a 4xx: our request or credentials are wrong; retrying the same
 * request will not help).
 */
export class ProviderError extends Error {
  readonly kind: 'unreachable' | 'refused';
  /** The HTTP status the provider answered, when it answered. */
  readonly status: number | null;
  /** The provider's own error code, when its answer had one (MoMo: RESOURCE_ALREADY_EXIST …). */
  readonly providerCode: string | null;
  /** What the payer is told, when the refusal says (Daraja refusing an invalid number: unknown_payer). */
  readonly failure: MobileMoneyFailure | null;

  constructor(
    kind: 'unreachable' | 'refused',
    message: string,
    status: number | null = null,
    providerCode: string | null = null,
    failure: MobileMoneyFailure | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = status;
    this.providerCode = providerCode;
    this.failure = failure;
  }

  get retryable(): boolean {
    return this.kind === 'unreachable';
  }
}

export { currencyDigits };

/** 1250 minor units of GHS → "12.50"; 5000 of RWF → "5000". Integers only: no float arithmetic on money. */
export function minorToDecimal(amount: number, currency: string): string {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`amount must be whole minor units: ${amount}`);
  const digits = currencyDigits(currency);
  if (digits === 0) return String(amount);
  const text = String(amount).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * "12.50" or "12.5" of GHS → 1250; "5000" of RWF → 5000. Null when it is not an amount of that currency
 * (more decimals than the currency has, or not a number at all): such an answer is never settled.
 */
export function decimalToMinor(value: string, currency: string): number | null {
  const match = /^(\d{1,15})(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return null;
  const digits = currencyDigits(currency);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}
