import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { PAYMENT_MESSAGES, type PaymentEvent } from '@kaminuza/shared';
import { AppError } from '../../../lib/errors.ts';
import { ProviderError, currencyDigits, decimalToMinor, minorToDecimal } from './mobile-money.ts';
import type { Checkout, CheckoutRequest, LookedUp, PaymentProvider } from './payment-provider.ts';
import type { RefundAnswer, RefundRequest, RefundingProvider } from './refunds.ts';

/**
 * Flutterwave Standard (v3), the hosted card checkout, over its published HTTP API:
 * - `POST {base}/v3/payments` — Bearer secret key; `{ tx_ref, amount, currency, redirect_url, customer,
 *   customizations, payment_options }`; answers `{ status: "success", data: { link } }`, the hosted page.
 * - `GET {base}/v3/transactions/verify_by_reference?tx_ref=…` — Bearer secret key; the transaction of our
 *   reference: `data.status` (`successful`, `failed`, `pending`), `data.amount`, `data.currency`,
 *   `data.tx_ref`, `data.id`; "No transaction was found" while the payer has not paid yet.
 * - The webhook (`charge.completed`) is authenticated only by its `verif-hash` header, equal to the
 *   secret hash set on the dashboard. It is read for the reference it names; the verify answer settles.
 * - `POST {base}/v3/transactions/{id}/refund` — Bearer secret key; `{ amount, comments }` of the transaction
 *   `data.id` verify answered; answers the refund: `data.id`, `data.amount_refunded`, `data.status`
 *   (`completed`, `pending`, `failed`).
 * - `GET {base}/v3/refunds?id={transaction id}` (the refunds of a transaction) and `GET {base}/v3/refunds/{id}`
 *   (one refund) — Bearer secret key; `data.status`, `data.transaction_id`, `data.comment`.
 * The payer returns to `redirect_url` with `status`, `tx_ref` and `transaction_id` in the query string,
 * which is not believed either. No call is retried here: retries are jobs and the reconcile pass.
 */
export interface FlutterwaveConfig {
  /** https://api.flutterwave.com, or a local simulator. */
  baseUrl: string;
  /** The account's secret key (FLWSECK-… live, FLWSECK_TEST-… test). */
  secretKey: string;
  /** The "secret hash" set on the dashboard's webhook settings, sent back as `verif-hash`. */
  secretHash: string;
  /** The site's public URL: the payer comes back to its /pay page. */
  publicUrl: string;
  /** Per call. */
  timeoutMs?: number;
}

/** The webhook header Flutterwave authenticates its calls with. */
export const FLUTTERWAVE_HASH_HEADER = 'verif-hash';

const DEFAULT_TIMEOUT_MS = 10_000;
const CHECKOUT_EXPIRES_AFTER_MS = 60 * 60_000;

/** What a webhook names: our reference (`tx_ref`) and Flutterwave's transaction id, when it has one. */
export interface FlutterwaveWebhookSubject {
  reference: string;
  transactionId: string | null;
}

export interface FlutterwaveProvider extends PaymentProvider {
  /** Whether a webhook carries the dashboard's secret hash (compared in constant time). */
  webhookAuthentic(headers: IncomingHttpHeaders): boolean;
  /** The payment a webhook body names, or null when it names none: nothing else of it is believed. */
  webhookSubject(body: unknown): FlutterwaveWebhookSubject | null;
  /** Flutterwave's verify answer for our reference: the outcome, or null while it is undecided. */
  lookup(reference: string): Promise<LookedUp | null>;
  /** The same answer, telling a transaction still pending ('pending') from none at all (null). */
  record(reference: string): Promise<LookedUp | 'pending' | null>;
  /** Refunds through Flutterwave's refund API: the secret key is all it needs, so it always has one. */
  readonly refunds: Required<Pick<RefundingProvider, 'refund' | 'refundStatus'>>;
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : null);
const idOf = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : textOf(value);

/** Our references (`pay_…`), as they may appear in a webhook: anything else names no payment of ours. */
const REFERENCE = /^[A-Za-z0-9_-]{6,100}$/;

/** Flutterwave's ids (a transaction's `data.id`, a refund's `data.id`): digits, put in a path only so. */
const FLUTTERWAVE_ID = /^\d{1,15}$/;

/**
 * A refund's `status` in our words. `completed` is what Flutterwave documents for money given back (its
 * refund list also knows `completed-mpgs`, and `successful` on some rails); `failed` and its kin are final;
 * anything else (`pending`, `new`, `processing`, a status added later) is still under way, to be asked again.
 */
function refundStateOf(status: string): RefundAnswer['state'] {
  if (status === 'successful' || status === 'succeeded' || status.startsWith('completed')) return 'refunded';
  if (['failed', 'declined', 'rejected', 'cancelled', 'canceled'].includes(status)) return 'failed';
  return 'pending';
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A major-unit amount of a currency, through whole minor units: 12.5 GHS → 12.5, 5000 RWF → 5000. */
function majorOf(amount: number, currency: string): number {
  const minor = Math.round(amount * 10 ** currencyDigits(currency));
  return Number(minorToDecimal(minor, currency));
}

export function createFlutterwaveProvider(config: FlutterwaveConfig): FlutterwaveProvider {
  const base = config.baseUrl.replace(/\/+$/, '');
  const publicUrl = config.publicUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const pageOf = (reference: string) => `/pay?reference=${encodeURIComponent(reference)}`;

  /** One call; a 4xx answer is handed to `onRefused` first, which may read it as an answer after all. */
  async function call(
    path: string,
    init: RequestInit,
    onRefused?: (status: number, body: { message?: unknown } | null) => boolean,
  ): Promise<Record<string, unknown> | null> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        ...init,
        headers: {
          Authorization: `Bearer ${config.secretKey}`,
          Accept: 'application/json',
          ...(init.body ? { 'Content-Type': 'application/json' } : {}),
        },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ProviderError('unreachable', `Flutterwave ${path}: ${(error as Error).message}`);
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new ProviderError('unreachable', `Flutterwave ${path} answered ${response.status}`, response.status);
    }
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (response.status >= 400) {
      if (onRefused?.(response.status, body)) return null;
      const message = textOf(body?.message);
      // Flutterwave's errors carry no code, only their message: it is the code staff are shown.
      throw new ProviderError(
        'refused',
        `Flutterwave ${path} refused (${response.status}${message ? `: ${message.slice(0, 200)}` : ''})`,
        response.status,
        message ? message.slice(0, 200) : null,
      );
    }
    if (!body) throw new ProviderError('unreachable', `Flutterwave ${path}: unreadable answer`, response.status);
    return body;
  }

  function webhookAuthentic(headers: IncomingHttpHeaders): boolean {
    const header = headers[FLUTTERWAVE_HASH_HEADER];
    return sameSecret(typeof header === 'string' ? header : undefined, config.secretHash);
  }

  /**
   * Flutterwave's verify answer for our reference: decided (successful or failed), 'pending' while it holds
   * a transaction not decided yet (a card awaiting its bank's authorisation), or null when it knows none.
   */
  async function verify(reference: string): Promise<LookedUp | 'pending' | null> {
    const path = `/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(reference)}`;
    // Before the payer has tried a card, Flutterwave knows no transaction of the reference: undecided.
    const body = await call(
      path,
      { method: 'GET' },
      (status, answer) => (status === 400 || status === 404) && /no transaction/i.test(textOf(answer?.message) ?? ''),
    );
    if (!body) return null;
    const data = body.data as Record<string, unknown> | null | undefined;
    const status = textOf(data?.status)?.toLowerCase();
    const currency = textOf(data?.currency);
    const amountText = typeof data?.amount === 'number' ? String(data.amount) : textOf(data?.amount);
    const minor = currency && amountText ? decimalToMinor(amountText, currency) : null;
    if (body.status !== 'success' || !data || !status || !currency || minor === null) {
      throw new ProviderError('unreachable', `Flutterwave verify of ${reference}: unreadable answer`);
    }
    if (textOf(data.tx_ref) !== reference) {
      throw new ProviderError('refused', `Flutterwave verify of ${reference} answered another transaction`);
    }
    if (status !== 'successful' && status !== 'failed') return 'pending';
    const transactionId = idOf(data.id);
    const succeeded = status === 'successful';
    return {
      providerTransactionId: transactionId,
      event: {
        id: `flw_${transactionId ?? reference}_${status}`,
        type: succeeded ? 'payment.succeeded' : 'payment.failed',
        data: {
          reference,
          amount: minor / 10 ** currencyDigits(currency),
          currency,
          method: 'card',
          failure_reason: succeeded ? null : PAYMENT_MESSAGES.card_declined,
        },
      },
    };
  }

  /**
   * A refund as Flutterwave answered it (the refund call's `data`, or one of its refund list's rows), for the
   * transaction asked. An answer about another transaction's refund is refused rather than believed.
   */
  function refundAnswerOf(data: unknown, transactionId: string, path: string): RefundAnswer {
    const refund = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
    const id = idOf(refund.id);
    const status = textOf(refund.status)?.toLowerCase();
    if (!id || !status) throw new ProviderError('unreachable', `Flutterwave ${path}: unreadable refund`);
    // The refund call's own answer is of the transaction in its path; its `tx_id` is not compared, as
    // Flutterwave's documented example answers one unlike the transaction refunded.
    const of = idOf(refund.transaction_id);
    if (of !== null && of !== transactionId) {
      throw new ProviderError('refused', `Flutterwave ${path} answered a refund of transaction ${of}`);
    }
    return { state: refundStateOf(status), providerRefundId: id, providerCode: status };
  }

  /**
   * The refunds of a transaction Flutterwave already has, from its refund list filtered by the transaction's
   * id: the one our `refundReference` names in its comment first. `active` is the first not failed (we only
   * ever refund in full, so one given back or under way is the refund, whoever asked for it); `latest` (ours,
   * else the newest listed) answers for the refund when all of them failed.
   */
  async function listedRefunds(
    transactionId: string,
    refundReference: string,
  ): Promise<{ active: RefundAnswer | null; latest: RefundAnswer | null }> {
    const path = `/v3/refunds?id=${encodeURIComponent(transactionId)}`;
    const body = await call(path, { method: 'GET' });
    if (body?.status !== 'success' || !Array.isArray(body.data)) {
      throw new ProviderError('unreachable', `Flutterwave ${path}: unreadable answer`);
    }
    // The filter is Flutterwave's; each row is checked to be of this transaction all the same.
    const rows = (body.data as unknown[]).filter(
      (row) =>
        row && typeof row === 'object' && idOf((row as { transaction_id?: unknown }).transaction_id) === transactionId,
    ) as Record<string, unknown>[];
    const ours = rows.find((row) => textOf(row.comment)?.includes(refundReference));
    const answers = (ours ? [ours, ...rows] : rows).map((row) => refundAnswerOf(row, transactionId, path));
    return { active: answers.find((answer) => answer.state !== 'failed') ?? null, latest: answers[0] ?? null };
  }

  function transactionIdOf({ providerTransactionId }: RefundRequest): string {
    if (!FLUTTERWAVE_ID.test(providerTransactionId)) {
      throw new ProviderError('refused', `Flutterwave refunds need its transaction id, not ${providerTransactionId}`);
    }
    return providerTransactionId;
  }

  const refunds: FlutterwaveProvider['refunds'] = {
    /**
     * Gives a card payment back in full: `POST /v3/transactions/{id}/refund` with the amount, in major units
     * (full by default, sent to be explicit), and our refund reference in `comments`. Flutterwave takes no
     * idempotency key for refunds, so a repeat is made safe by asking first: when its refund list already
     * has a refund of the transaction not failed (the first call reached Flutterwave and its answer was
     * lost), that refund is answered and nothing is posted. Two calls racing past that check cannot both
     * refund either: Flutterwave refuses a refund beyond what is left of the transaction, and that refusal
     * is answered with the refund it lists. A refund that failed gave nothing back: asking again posts anew.
     */
    async refund(request: RefundRequest): Promise<RefundAnswer> {
      const transactionId = transactionIdOf(request);
      const before = (await listedRefunds(transactionId, request.refundReference)).active;
      if (before) return before;
      const path = `/v3/transactions/${transactionId}/refund`;
      let body: Record<string, unknown> | null;
      try {
        body = await call(path, {
          method: 'POST',
          body: JSON.stringify({
            amount: Number(minorToDecimal(request.amount, request.currency)),
            comments: `Refund ${request.refundReference} of payment ${request.paymentReference}`,
          }),
        });
      } catch (error) {
        if (!(error instanceof ProviderError) || error.kind !== 'refused') throw error;
        // Not caught: when the list cannot be had now, the refusal is not final yet either.
        const meanwhile = (await listedRefunds(transactionId, request.refundReference)).active;
        if (meanwhile) return meanwhile;
        throw error;
      }
      if (body?.status !== 'success') throw new ProviderError('unreachable', `Flutterwave ${path}: unreadable answer`);
      return refundAnswerOf(body.data, transactionId, path);
    },

    /**
     * What became of a refund answered `pending`: `GET /v3/refunds/{id}` of the refund id it was answered
     * with; without one, the transaction's refund list (its refund under way or given back, else the last
     * that failed). A refund Flutterwave does not know is refused.
     */
    async refundStatus(request: RefundRequest, providerRefundId: string | null): Promise<RefundAnswer> {
      const transactionId = transactionIdOf(request);
      if (providerRefundId === null) {
        const { active, latest } = await listedRefunds(transactionId, request.refundReference);
        const listed = active ?? latest;
        if (listed) return listed;
        throw new ProviderError('refused', `Flutterwave lists no refund of transaction ${transactionId}`);
      }
      if (!FLUTTERWAVE_ID.test(providerRefundId)) {
        throw new ProviderError('refused', `Flutterwave refund ids are digits, not ${providerRefundId}`);
      }
      const path = `/v3/refunds/${providerRefundId}`;
      const body = await call(path, { method: 'GET' });
      if (body?.status !== 'success') throw new ProviderError('unreachable', `Flutterwave ${path}: unreadable answer`);
      return refundAnswerOf(body.data, transactionId, path);
    },
  };

  return {
    name: 'flutterwave',
    methods: ['card'],
    // A tx_ref opens one hosted page, whose link is not kept: an hour without a card tried, it is given up.
    checkoutExpiresAfterMs: CHECKOUT_EXPIRES_AFTER_MS,

    async createCheckout(request: CheckoutRequest): Promise<Checkout> {
      const body = await call('/v3/payments', {
        method: 'POST',
        body: JSON.stringify({
          tx_ref: request.reference,
          amount: majorOf(request.amount, request.currency),
          currency: request.currency,
          redirect_url: `${publicUrl}${pageOf(request.reference)}`,
          ...(request.payer ? { customer: { email: request.payer.email, name: request.payer.name } } : {}),
          customizations: { title: 'Application fee', description: request.description.slice(0, 200) },
          payment_options: 'card',
        }),
      });
      const link = textOf((body?.data as { link?: unknown } | null | undefined)?.link);
      if (body?.status !== 'success' || !link || !/^https?:\/\//.test(link)) {
        throw new ProviderError('unreachable', 'Flutterwave /v3/payments: no checkout link in the answer');
      }
      return { reference: request.reference, checkoutUrl: link };
    },

    /**
     * A hosted link is answered once, when the checkout opens; a returning payer is sent to our own /pay
     * page, which shows the payment as Flutterwave's verify answer has it (ADR 038).
     */
    async checkoutUrl(reference: string): Promise<string> {
      return pageOf(reference);
    },

    /**
     * Flutterwave's webhooks are not signed over their bytes: they are taken through the dedicated route,
     * which checks the hash and asks `verify`. An event is never read from a webhook body.
     */
    verifyCallback(_rawBody: Buffer, headers: IncomingHttpHeaders): PaymentEvent {
      if (!webhookAuthentic(headers)) throw new AppError('UNAUTHENTICATED', PAYMENT_MESSAGES.signature_invalid);
      throw new AppError('INVALID_ARGUMENT', undefined, { body: 'a Flutterwave webhook is settled by verify' });
    },

    webhookAuthentic,

    webhookSubject(body: unknown): FlutterwaveWebhookSubject | null {
      if (!body || typeof body !== 'object') return null;
      const data = (body as { data?: unknown }).data;
      if (!data || typeof data !== 'object') return null;
      const { tx_ref: txRef, id } = data as { tx_ref?: unknown; id?: unknown };
      const reference = textOf(txRef);
      if (!reference || !REFERENCE.test(reference)) return null;
      const transactionId = idOf(id);
      return { reference, transactionId: transactionId && transactionId.length <= 40 ? transactionId : null };
    },

    async lookup(reference: string): Promise<LookedUp | null> {
      const answer = await verify(reference);
      return answer === 'pending' ? null : answer;
    },

    record: verify,

    refunds,
  };
}
