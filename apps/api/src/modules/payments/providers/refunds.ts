/**
 * Giving a payment's money back through the provider's own refund or reversal API (issue 22, ADR 037
 * "Refunds"). A payment owed back (a success that came for an application already paid, waived, or a
 * prompt that had expired) is refunded in full: staff ask once, a job makes the call, and the provider's
 * answer — at once, by a later status query, or by an asynchronous result sent to us — closes it.
 *
 * Each provider as built:
 * - **MTN MoMo**: Disbursement product, `POST disbursement/v1_0/refund` with `referenceIdToRefund` = the
 *   request to pay's X-Reference-Id, our refund reference as X-Reference-Id (the provider's idempotency
 *   key: a repeated call answers 409 and the adapter asks `GET disbursement/v1_0/refund/{id}` instead).
 * - **M-Pesa Daraja**: `POST mpesa/reversal/v1/request` (CommandID TransactionReversal) of the
 *   MpesaReceiptNumber; the result comes only to the ResultURL we name, which carries our refund reference.
 * - **Airtel Money**: `POST standard/v1/payments/refund` of the airtel_money_id.
 * - **M-Pesa Tanzania** (Vodacom): `PUT ipg/v2/vodacomTZN/reversal/` of the payment's transaction id, our
 *   refund reference as its conversation id; asked again, a duplicate, and the status query tells.
 * - **Flutterwave**: `POST v3/transactions/{id}/refund`, then `GET v3/refunds/{id}`.
 */

/** A payment owed back, as a provider's refund API needs to name it. Always the payment's full amount. */
export interface RefundRequest {
  /**
   * Ours, chosen when staff asked for the refund and kept: the idempotency key where the provider takes
   * one (MoMo's X-Reference-Id), and the secret part of the result URL of an asynchronous answer.
   */
  refundReference: string;
  /** The payment's reference (ours: MoMo's X-Reference-Id of the request to pay, Airtel's transaction id). */
  paymentReference: string;
  /** The provider's own id of the request, when it assigned one (Daraja's CheckoutRequestID). */
  providerReference: string | null;
  /**
   * The provider's id of the money movement being given back: MoMo's financialTransactionId, Daraja's
   * MpesaReceiptNumber, Airtel's airtel_money_id, Flutterwave's transaction id.
   */
  providerTransactionId: string;
  /** Minor units of `currency`. */
  amount: number;
  /** ISO 4217. */
  currency: string;
  /** ISO 3166-1 alpha-2 of the payer's number (Airtel's X-Country); null for cards. */
  country: string | null;
  /** Where a provider that answers later sends its result (Daraja's ResultURL and QueueTimeOutURL). */
  resultUrl: string;
}

export type RefundState = 'refunded' | 'pending' | 'failed';

/** The provider's answer about a refund. */
export interface RefundAnswer {
  state: RefundState;
  /**
   * The provider's id of the refund, to ask about it or to recognise its result later (Flutterwave's refund
   * id, Daraja's ConversationID); null when it names none.
   */
  providerRefundId: string | null;
  /** The provider's code of its answer, as it sent it (shown to staff when the refund failed). */
  providerCode: string | null;
}

/** An asynchronous refund result (Daraja's reversal Result), read from its body. */
export interface RefundResult extends RefundAnswer {
  state: 'refunded' | 'failed';
  /** The refund the result is about, as the provider names it (must match the one it answered before). */
  providerRefundId: string;
}

/**
 * What a provider with a refund API implements. A `ProviderError` from either call means: unreachable
 * (retry later — the same `refundReference` again) or refused (the refund failed, with its code).
 */
export interface RefundingProvider {
  /** Asks for the refund. Calling it again with the same request must not refund twice. */
  refund(request: RefundRequest): Promise<RefundAnswer>;
  /**
   * Asks what became of a refund answered `pending`. Absent when the provider answers only by an
   * asynchronous result (`refundResult`).
   */
  refundStatus?(request: RefundRequest, providerRefundId: string | null): Promise<RefundAnswer>;
  /** Reads an asynchronous refund result body; null when it is not one. */
  refundResult?(body: unknown): RefundResult | null;
}
