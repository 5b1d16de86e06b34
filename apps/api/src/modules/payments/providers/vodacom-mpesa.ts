import { constants, createPublicKey, publicEncrypt, randomUUID, type KeyObject } from 'node:crypto';
import {
  ProviderError,
  minorToDecimal,
  type MobileMoneyCallbackSubject,
  type MobileMoneyFailure,
  type MobileMoneyPaymentRef,
  type MobileMoneyProvider,
  type MobileMoneyRequest,
  type MobileMoneyRequested,
  type MobileMoneyStatus,
} from './mobile-money.ts';
import type { RefundAnswer, RefundRequest } from './refunds.ts';

/**
 * M-Pesa Tanzania: Vodacom's M-Pesa OpenAPI (openapiportal.m-pesa.com), market `vodacomTZN`, over its
 * published HTTP API. Every call is authorised by `Authorization: Bearer <x>`, where x is a secret encrypted
 * with Vodacom's RSA public key (PKCS#1 v1.5, base64): the API key for the session call, the session id for
 * the others.
 * - `GET {base}/ipg/v2/vodacomTZN/getSession/` — answers `{ output_ResponseCode: "INS-0", output_SessionID }`.
 *   A session lasts as long as the market allows; it is kept for `sessionTtlMs` and renewed earlier when
 *   Vodacom refuses it (401).
 * - `POST {base}/ipg/v2/vodacomTZN/c2bPayment/singleStage/` — `input_Amount` (major units), `input_Country`
 *   TZN, `input_Currency` TZS, `input_CustomerMSISDN`, `input_ServiceProviderCode`,
 *   `input_ThirdPartyConversationID` (our reference), `input_TransactionReference`,
 *   `input_PurchasedItemsDesc`. The call pushes the PIN prompt and answers only once the payer has answered
 *   it or Vodacom gave up: `output_ResponseCode` (INS-0 paid, else the failure), `output_TransactionID`,
 *   `output_ConversationID`, `output_ThirdPartyConversationID`.
 * - `GET {base}/ipg/v2/vodacomTZN/queryTransactionStatus/` — `input_QueryReference` (our reference),
 *   `input_ServiceProviderCode`, `input_ThirdPartyConversationID` (the query's own id, echoed back),
 *   `input_Country`; answers `output_ResponseTransactionStatus` (Completed …).
 * - `PUT {base}/ipg/v2/vodacomTZN/reversal/` — `input_TransactionID` of the payment, `input_ReversalAmount`,
 *   `input_ThirdPartyConversationID` (our refund reference); answered at once.
 *
 * Single stage answers synchronously and has no callback, while the platform asks a prompt to be sent and
 * then polls `status`. So `requestPayment` waits for the answer only `answerWithinMs` (a refusal such as an
 * invalid number comes at once and fails the payment at once); past that it returns and the call goes on,
 * up to `paymentTimeoutMs`. Its answer — Vodacom's answer to our own call, over TLS — is kept in memory for
 * `status`, which asks `queryTransactionStatus` too: a restart or a lost answer leaves the query to decide.
 * `callbackSubject` answers null: Vodacom sends nothing to us.
 */
export interface VodacomMpesaConfig {
  /**
   * https://openapi.m-pesa.com/sandbox (Vodacom's sandbox), https://openapi.m-pesa.com/openapi (live), or a
   * local simulator: the paths below are appended to it.
   */
  baseUrl: string;
  /** The application's API key from Vodacom's portal. */
  apiKey: string;
  /** Vodacom's public key as its portal gives it (base64 DER), or PEM. */
  publicKey: string;
  /** The organisation's shortcode (`input_ServiceProviderCode`). */
  serviceProviderCode: string;
  /** Per call other than the payment. */
  timeoutMs?: number;
  /** The payment call: Vodacom answers it only once the payer has entered the PIN (or not). */
  paymentTimeoutMs?: number;
  /** How long `requestPayment` waits for the payment's answer before leaving it to `status`. */
  answerWithinMs?: number;
  /** How long a session is used before a new one is asked. */
  sessionTtlMs?: number;
  now?: () => number;
  /**
   * Where the payment calls' answers are kept for `status`: by default one store per process and base URL,
   * so the adapter of the api's routes and that of its jobs share them.
   */
  outcomes?: Map<string, Outcome>;
}

const MARKET = '/ipg/v2/vodacomTZN';
const COUNTRY = 'TZN';
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_PAYMENT_TIMEOUT_MS = 120_000;
const DEFAULT_ANSWER_WITHIN_MS = 2_000;
const DEFAULT_SESSION_TTL_MS = 50 * 60_000;
/** Vodacom takes 1–20 characters of `input_TransactionReference`, letters and digits. */
const TRANSACTION_REFERENCE_MAX = 20;
/** How long an answer of a payment call is kept for `status` (a prompt lives 5 minutes). */
const OUTCOME_KEPT_MS = 60 * 60_000;

/** Vodacom's documented response codes of a payment that did not happen, in our words. */
const FAILURES: Record<string, MobileMoneyFailure> = {
  'INS-4': 'not_allowed',
  'INS-5': 'declined',
  'INS-6': 'declined',
  'INS-9': 'timeout',
  'INS-995': 'not_allowed',
  'INS-996': 'not_allowed',
  // The customer is the initiator of a C2B payment: this is the PIN they entered.
  'INS-2001': 'wrong_pin',
  'INS-2006': 'insufficient_funds',
  'INS-2051': 'unknown_payer',
};

/** The query's statuses of a payment that will not be paid. */
const FAILED_STATUSES = new Set(['failed', 'cancelled', 'canceled', 'declined', 'expired', 'reversed']);

const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

type VodacomAnswer = Record<string, unknown> | null;

/** What became of a payment call, kept for `status`. */
export interface Outcome {
  /** Vodacom's code of the answer; null while it has not come, or when no answer came. */
  code: string | null;
  transactionId: string | null;
  at: number;
  /** The call is still waiting for the payer. */
  inFlight: boolean;
  /** Vodacom said it has the payment already (INS-10): the first call's outcome is the query's to tell. */
  sent?: boolean;
}

/** The query's code for a reference it does not know. */
const UNKNOWN_TRANSACTION = 'INS-18';

const stores = new Map<string, Map<string, Outcome>>();
const storeOf = (base: string) => {
  let store = stores.get(base);
  if (!store) stores.set(base, (store = new Map()));
  return store;
};

/** Vodacom's public key, from the bare base64 its portal shows or from PEM. */
export function vodacomPublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed);
  return createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
}

/** `secret` as Vodacom takes it in the Authorization header: RSA PKCS#1 v1.5 with its public key, base64. */
export function encryptForVodacom(key: KeyObject, secret: string): string {
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(secret, 'utf8')).toString('base64');
}

/** The payer's number as Vodacom takes it: 255 and nine digits, as we keep it. */
function tanzanianMsisdn(msisdn: string): string {
  if (!/^255\d{9}$/.test(msisdn)) throw new RangeError(`${msisdn} is not a Tanzanian number`);
  return msisdn;
}

/** Our reference cut to what Vodacom takes as `input_TransactionReference`. */
const transactionReference = (reference: string) =>
  reference.replace(/[^A-Za-z0-9]/g, '').slice(0, TRANSACTION_REFERENCE_MAX) || 'KAMINUZA';

export function createVodacomMpesaProvider(config: VodacomMpesaConfig): MobileMoneyProvider {
  const base = config.baseUrl.replace(/\/+$/, '');
  const key = vodacomPublicKey(config.publicKey);
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const paymentTimeoutMs = config.paymentTimeoutMs ?? DEFAULT_PAYMENT_TIMEOUT_MS;
  const answerWithinMs = config.answerWithinMs ?? DEFAULT_ANSWER_WITHIN_MS;
  const sessionTtlMs = config.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS;
  const now = config.now ?? Date.now;
  let session: { id: string; until: number } | null = null;
  let opening: Promise<string> | null = null;
  const outcomes = config.outcomes ?? storeOf(base);

  /** The answer's body, whatever its HTTP status (Vodacom answers payer outcomes with 4xx and a code). */
  async function call(
    path: string,
    init: { method: string; bearer: string; body?: object; timeoutMs?: number },
  ): Promise<{ status: number; body: VodacomAnswer }> {
    let response: Response;
    try {
      response = await fetch(`${base}${MARKET}${path}`, {
        method: init.method,
        headers: {
          Accept: 'application/json',
          Authorization: `Bearer ${init.bearer}`,
          // Vodacom's gateway requires an Origin header on API calls.
          Origin: '*',
          ...(init.body ? { 'Content-Type': 'application/json' } : {}),
        },
        body: init.body ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(init.timeoutMs ?? timeoutMs),
      });
    } catch (error) {
      throw new ProviderError('unreachable', `Vodacom M-Pesa ${path}: ${(error as Error).message}`);
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new ProviderError('unreachable', `Vodacom M-Pesa ${path} answered ${response.status}`, response.status);
    }
    let body: VodacomAnswer;
    try {
      body = (await response.json()) as VodacomAnswer;
    } catch {
      body = null;
    }
    if (body !== null && (typeof body !== 'object' || Array.isArray(body))) body = null;
    return { status: response.status, body };
  }

  const refused = (path: string, status: number, body: VodacomAnswer) => {
    const code = textOf(body?.output_ResponseCode);
    return new ProviderError(
      'refused',
      `Vodacom M-Pesa ${path} refused (${status}${code ? ` ${code}` : ''})`,
      status,
      code,
      code ? (FAILURES[code] ?? null) : null,
    );
  };

  async function openSession(): Promise<string> {
    const path = '/getSession/';
    const { status, body } = await call(path, { method: 'GET', bearer: encryptForVodacom(key, config.apiKey) });
    const id = textOf(body?.output_SessionID);
    if (status >= 400 || body?.output_ResponseCode !== 'INS-0') throw refused(path, status, body);
    if (!id) throw new ProviderError('unreachable', 'Vodacom M-Pesa session answer unreadable');
    session = { id, until: now() + sessionTtlMs };
    return id;
  }

  /** The session while it is fresh; one request for a new one however many calls wait for it. */
  async function sessionId(): Promise<string> {
    if (session && now() < session.until) return session.id;
    opening ??= openSession().finally(() => {
      opening = null;
    });
    return opening;
  }

  /**
   * A call authorised by the session. A 401 without a payer's outcome is the session refused (expired
   * before we thought): it is dropped and the call made once more with a new one — the refused call did
   * nothing.
   */
  async function withSession(path: string, init: { method: string; body?: object; timeoutMs?: number }) {
    for (let attempt = 0; ; attempt += 1) {
      const id = await sessionId();
      const answer = await call(path, { ...init, bearer: encryptForVodacom(key, id) });
      const code = textOf(answer.body?.output_ResponseCode);
      if (answer.status !== 401 || (code && FAILURES[code]) || attempt > 0) return answer;
      if (session?.id === id) session = null;
    }
  }

  /** The query's own conversation id is echoed back: an answer echoing another is not ours. */
  async function query(reference: string) {
    const conversation = randomUUID().replaceAll('-', '');
    const search = new URLSearchParams({
      input_QueryReference: reference,
      input_ServiceProviderCode: config.serviceProviderCode,
      input_ThirdPartyConversationID: conversation,
      input_Country: COUNTRY,
    });
    const path = `/queryTransactionStatus/?${search}`;
    const { status, body } = await withSession(path, { method: 'GET' });
    if (status >= 400 || body?.output_ResponseCode !== 'INS-0') throw refused('/queryTransactionStatus/', status, body);
    const transactionStatus = textOf(body.output_ResponseTransactionStatus);
    if (!transactionStatus) throw new ProviderError('unreachable', `Vodacom M-Pesa status of ${reference} unreadable`);
    return {
      ours: body.output_ThirdPartyConversationID === conversation,
      status: transactionStatus.toLowerCase(),
      transactionId: textOf(body.output_TransactionID) ?? textOf(body.output_OriginalTransactionID),
    };
  }

  function remember(reference: string, outcome: Outcome) {
    for (const [kept, old] of outcomes) if (now() - old.at > OUTCOME_KEPT_MS) outcomes.delete(kept);
    outcomes.set(reference, outcome);
  }

  /**
   * Keeps a payment call's answer when it names our reference. An answer echoing another conversation is
   * not ours: only the query can tell then.
   */
  function keep(reference: string, body: VodacomAnswer) {
    const code = textOf(body?.output_ResponseCode);
    const ours = code !== null && body?.output_ThirdPartyConversationID === reference;
    remember(reference, {
      code: ours && (code === 'INS-0' || FAILURES[code]) ? code : null,
      transactionId: ours ? textOf(body.output_TransactionID) : null,
      at: now(),
      inFlight: false,
      sent: true,
    });
  }

  const statusOf = (
    reference: string,
    currency: string,
    state: MobileMoneyStatus['state'],
    extra: Partial<MobileMoneyStatus> = {},
  ): MobileMoneyStatus => ({
    state,
    // Neither the payment's answer nor the query states an amount: what they confirm is the call we made.
    amount: null,
    currency,
    externalId: reference,
    reason: null,
    providerReason: null,
    providerTransactionId: null,
    ...extra,
  });

  return {
    name: 'mpesa_tz',

    async requestPayment(request: MobileMoneyRequest): Promise<MobileMoneyRequested> {
      if (request.currency !== 'TZS' || request.country !== 'TZ') {
        throw new RangeError(`M-Pesa Tanzania collects TZS in TZ, not ${request.currency} in ${request.country}`);
      }
      const { reference } = request;
      const path = '/c2bPayment/singleStage/';
      const body = {
        input_Amount: minorToDecimal(request.amount, request.currency),
        input_Country: COUNTRY,
        input_Currency: request.currency,
        input_CustomerMSISDN: tanzanianMsisdn(request.msisdn),
        input_ServiceProviderCode: config.serviceProviderCode,
        input_ThirdPartyConversationID: reference,
        input_TransactionReference: transactionReference(reference),
        input_PurchasedItemsDesc: request.payerMessage.slice(0, 256),
      };
      remember(reference, { code: null, transactionId: null, at: now(), inFlight: true });
      const paying = withSession(path, { method: 'POST', timeoutMs: paymentTimeoutMs, body }).then(
        ({ status, body: answer }) => {
          const code = textOf(answer?.output_ResponseCode);
          // The same reference asked twice (a retried job): the first call is the one that counts.
          if (code === 'INS-10') {
            remember(reference, { code: null, transactionId: null, at: now(), inFlight: false, sent: true });
            return;
          }
          // Kept for `status` when it comes after `requestPayment` returned; thrown to fail it at once before.
          keep(reference, answer);
          if (code !== 'INS-0') throw refused(path, status, answer);
        },
        (error: unknown) => {
          // No HTTP answer: Vodacom may have the payment all the same, and only the query can say.
          remember(reference, { code: null, transactionId: null, at: now(), inFlight: false });
          throw error;
        },
      );
      const waited = await Promise.race([
        paying.then(
          () => 'answered' as const,
          (error: unknown) => ({ error }),
        ),
        new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), answerWithinMs).unref()),
      ]);
      if (waited === 'waiting') {
        paying.catch(() => undefined);
      } else if (typeof waited === 'object') {
        const { error } = waited;
        // A 5xx said the payment was not taken; a dropped connection or our own timeout says nothing.
        if (!(error instanceof ProviderError) || error.kind === 'refused' || error.status !== null) throw error;
      }
      return { reference, providerReference: null };
    },

    async status({ reference, currency }: MobileMoneyPaymentRef): Promise<MobileMoneyStatus> {
      const kept = outcomes.get(reference);
      const failedBy = (code: string) =>
        statusOf(reference, currency, 'failed', { reason: FAILURES[code] ?? 'provider_error', providerReason: code });
      const answered = (code: string) =>
        code === 'INS-0'
          ? statusOf(reference, currency, 'succeeded', { providerTransactionId: kept?.transactionId ?? null })
          : failedBy(code);
      let queried: Awaited<ReturnType<typeof query>>;
      try {
        queried = await query(reference);
      } catch (error) {
        if (!(error instanceof ProviderError) || error.providerCode !== UNKNOWN_TRANSACTION) throw error;
        // A transaction the query does not know: the payment's answer decides, or it never reached Vodacom
        // (the call ended without an answer), or — its call still under way, or nothing known of it here
        // (another process made it) — it is pending until the prompt expires.
        if (kept?.code) return answered(kept.code);
        if (kept && !kept.inFlight && !kept.sent) {
          return statusOf(reference, currency, 'failed', {
            reason: 'unavailable',
            providerReason: UNKNOWN_TRANSACTION,
          });
        }
        return statusOf(reference, currency, 'pending');
      }
      if (!queried.ours) return statusOf('', currency, 'pending');
      if (queried.status === 'completed') {
        return statusOf(reference, currency, 'succeeded', {
          providerTransactionId: queried.transactionId ?? kept?.transactionId ?? null,
        });
      }
      // The payment's own answer, with its code, is on its way: wait for it rather than read a bare status.
      if (kept?.inFlight) return statusOf(reference, currency, 'pending');
      if (kept?.code) return answered(kept.code);
      if (FAILED_STATUSES.has(queried.status)) {
        return statusOf(reference, currency, 'failed', { reason: 'declined', providerReason: queried.status });
      }
      return statusOf(reference, currency, 'pending');
    },

    callbackSubject(): MobileMoneyCallbackSubject | null {
      return null;
    },

    refunds: {
      /**
       * The reversal answers at once. Our refund reference is its ThirdPartyConversationID, so a reversal
       * asked again after a lost answer is refused as a duplicate (INS-10) and `refundStatus` asks the query
       * about that reference instead.
       */
      async refund({ refundReference, providerTransactionId, amount, currency }: RefundRequest): Promise<RefundAnswer> {
        const path = '/reversal/';
        const { status, body } = await withSession(path, {
          method: 'PUT',
          body: {
            input_ReversalAmount: minorToDecimal(amount, currency),
            input_Country: COUNTRY,
            input_ServiceProviderCode: config.serviceProviderCode,
            input_ThirdPartyConversationID: refundReference,
            input_TransactionID: providerTransactionId,
          },
        });
        const code = textOf(body?.output_ResponseCode);
        if (code === 'INS-0') {
          return { state: 'refunded', providerRefundId: textOf(body?.output_TransactionID), providerCode: code };
        }
        if (code === 'INS-10') return { state: 'pending', providerRefundId: null, providerCode: code };
        if (status === 401 && !(code && FAILURES[code])) throw refused(path, status, body);
        return { state: 'failed', providerRefundId: null, providerCode: code ?? String(status) };
      },

      async refundStatus({ refundReference }: RefundRequest): Promise<RefundAnswer> {
        const queried = await query(refundReference);
        const answer = (state: RefundAnswer['state']) => ({
          state,
          providerRefundId: queried.transactionId,
          providerCode: queried.status,
        });
        if (!queried.ours) return answer('pending');
        if (queried.status === 'completed') return answer('refunded');
        return answer(FAILED_STATUSES.has(queried.status) ? 'failed' : 'pending');
      },
    },
  };
}
