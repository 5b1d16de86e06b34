import {
  ProviderError,
  currencyDigits,
  type MobileMoneyCallbackSubject,
  type MobileMoneyFailure,
  type MobileMoneyPaymentRef,
  type MobileMoneyProvider,
  type MobileMoneyRequest,
  type MobileMoneyRequested,
  type MobileMoneyStatus,
} from './mobile-money.ts';
import type { RefundAnswer, RefundRequest, RefundResult, RefundingProvider } from './refunds.ts';

/**
 * M-Pesa Express (Lipa Na M-Pesa Online, "STK Push") of Safaricom's Daraja API, over its published HTTP API:
 * - `GET {base}/oauth/v1/generate?grant_type=client_credentials` — Basic auth (consumer key : consumer
 *   secret); answers `{ access_token, expires_in }` (`expires_in` a string of seconds). The token is kept
 *   until shortly before it expires.
 * - `POST {base}/mpesa/stkpush/v1/processrequest` — Bearer token; `BusinessShortCode`, `Password` =
 *   base64(shortcode + passkey + Timestamp), `Timestamp` (yyyyMMddHHmmss, East Africa Time),
 *   `TransactionType` CustomerPayBillOnline, `Amount` (whole shillings), `PartyA`, `PartyB`, `PhoneNumber`,
 *   `CallBackURL`, `AccountReference`, `TransactionDesc`; answers `{ MerchantRequestID, CheckoutRequestID,
 *   ResponseCode: "0", … }`, or an error body `{ requestId, errorCode, errorMessage }`.
 * - `POST {base}/mpesa/stkpushquery/v1/query` — `BusinessShortCode`, `Password`, `Timestamp`,
 *   `CheckoutRequestID`; answers `ResultCode` once the payer answered, and the error body with errorCode
 *   500.001.1001 ("The transaction is being processed") while the prompt waits.
 * - `POST {base}/mpesa/reversal/v1/request` (Reversals, with an initiator: `refunds`) — `Initiator`,
 *   `SecurityCredential`, `CommandID` TransactionReversal, `TransactionID` (the payment's MpesaReceiptNumber),
 *   `Amount`, `ReceiverParty` (the shortcode), `RecieverIdentifierType` "11", `ResultURL`, `QueueTimeOutURL`,
 *   `Remarks`, `Occasion`; answers `{ OriginatorConversationID, ConversationID, ResponseCode: "0", … }`, and
 *   M-Pesa's outcome comes later, POSTed to `ResultURL` as `{ Result: { ResultCode, ConversationID, … } }`.
 * Daraja names the prompt by its own CheckoutRequestID, kept beside our reference as `providerReference`.
 * Its callback (a POST of `Body.stkCallback` to `CallBackURL`) is not signed: it only names the prompt to
 * ask about. No call is retried here: retries are jobs, which tell `unreachable` from `refused`.
 */
export interface MpesaDarajaConfig {
  /** https://sandbox.safaricom.co.ke, https://api.safaricom.co.ke, or a local simulator. */
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  /** The paybill (business shortcode) the payments go to: `BusinessShortCode` and `PartyB`. */
  shortcode: string;
  /** The Lipa Na M-Pesa Online passkey Safaricom issues for that shortcode. */
  passkey: string;
  /**
   * The shortcode's API operator holding the "Org Reversals Initiator" role, and its password encrypted with
   * Safaricom's public certificate (the security credential Daraja's portal generates). Reversals only:
   * without both, the adapter has no `refunds` and staff refund on the M-Pesa portal by hand.
   */
  initiatorName?: string;
  securityCredential?: string;
  /** Per call. */
  timeoutMs?: number;
  /** How long before `expires_in` a token is replaced. */
  tokenMarginMs?: number;
  now?: () => number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_TOKEN_MARGIN_MS = 60_000;
/** East Africa Time, UTC+3 all year: Daraja's timestamps. */
const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;
/** Daraja's limits on the two texts of a request. */
const ACCOUNT_REFERENCE_MAX = 12;
const TRANSACTION_DESC_MAX = 13;
/** The error Daraja answers a query with while the payer has not answered yet. */
const STILL_PROCESSING = '500.001.1001';
/** The reversal's receiving organisation is a shortcode: Daraja's `RecieverIdentifierType` (its spelling). */
const SHORTCODE_IDENTIFIER = '11';
/** The reversal Result of a receipt M-Pesa has reversed before: "The transaction has already been reversed". */
const ALREADY_REVERSED = 'R000001';
/** What the payer's statement and the institution's M-Pesa portal show of a reversal (2–100 characters). */
const REVERSAL_REMARKS = 'Application fee refund';
/** Daraja's ids (ConversationID) are short; anything longer is not one of its answers. */
const MAX_ID_LENGTH = 100;

/** The STK query's ResultCode in our words; any other code is a provider error. */
const FAILURES: Record<string, MobileMoneyFailure> = {
  '1': 'insufficient_funds',
  '1032': 'declined',
  '1037': 'timeout',
  '1019': 'timeout',
  '2001': 'wrong_pin',
};

const textOf = (value: unknown) => (typeof value === 'string' ? value : null);
/** Daraja writes its codes as strings in answers and as numbers in callbacks: either is read. */
const codeOf = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isInteger(value) ? String(value) : null;

/** yyyyMMddHHmmss of an instant in East Africa Time. */
export function darajaTimestamp(at: number): string {
  return new Date(at + EAT_OFFSET_MS).toISOString().replace(/\D/g, '').slice(0, 14);
}

/** base64(shortcode + passkey + timestamp): the `Password` of the push and query requests. */
export function darajaPassword(shortcode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortcode}${passkey}${timestamp}`).toString('base64');
}

/** Our reference as the 12 letters and digits Daraja keeps as the payment's account reference. */
export const accountReferenceOf = (reference: string) =>
  reference
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, ACCOUNT_REFERENCE_MAX)
    .toUpperCase();

export function createMpesaDarajaProvider(config: MpesaDarajaConfig): MobileMoneyProvider {
  const base = config.baseUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const margin = config.tokenMarginMs ?? DEFAULT_TOKEN_MARGIN_MS;
  const now = config.now ?? Date.now;
  let token: { value: string; until: number } | null = null;
  let fetching: Promise<string> | null = null;

  /**
   * One call: the answer when it is 2xx, or the error body when it is Daraja's "being processed" (the
   * caller reads it as pending); every other failure thrown as a ProviderError.
   */
  async function call(
    path: string,
    init: RequestInit & { headers: Record<string, string> },
  ): Promise<{ ok: true; body: Record<string, unknown> | null } | { ok: false; processing: true }> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new ProviderError('unreachable', `M-Pesa ${path}: ${(error as Error).message}`);
    }
    let body: Record<string, unknown> | null;
    try {
      const parsed: unknown = await response.json();
      body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    const errorCode = codeOf(body?.errorCode);
    if (errorCode === STILL_PROCESSING) return { ok: false, processing: true };
    if (response.status >= 500) {
      throw new ProviderError('unreachable', `M-Pesa ${path} answered ${response.status}`, response.status, errorCode);
    }
    if (response.status >= 400) {
      // A token Daraja no longer takes (expired earlier than announced) is not used again.
      if (response.status === 401 && init.headers.Authorization?.startsWith('Bearer ')) token = null;
      throw new ProviderError(
        'refused',
        `M-Pesa ${path} refused (${response.status}${errorCode ? ` ${errorCode}` : ''})`,
        response.status,
        errorCode,
      );
    }
    return { ok: true, body };
  }

  async function freshToken(): Promise<string> {
    const basic = Buffer.from(`${config.consumerKey}:${config.consumerSecret}`).toString('base64');
    const answer = await call('/oauth/v1/generate?grant_type=client_credentials', {
      method: 'GET',
      headers: { Authorization: `Basic ${basic}` },
    });
    const body = answer.ok ? answer.body : null;
    const value = textOf(body?.access_token);
    const expiresIn = Number(body?.expires_in);
    if (!value || !Number.isFinite(expiresIn) || expiresIn <= 0) {
      throw new ProviderError('unreachable', 'M-Pesa token answer unreadable');
    }
    token = { value, until: now() + expiresIn * 1000 - margin };
    return value;
  }

  /** The cached token while it is fresh; one request for a new one however many calls wait for it. */
  async function bearer(): Promise<string> {
    if (token && now() < token.until) return token.value;
    fetching ??= freshToken().finally(() => {
      fetching = null;
    });
    return fetching;
  }

  async function post(path: string, body: Record<string, unknown>) {
    return call(path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await bearer()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  /** KES minor units as the whole shillings Daraja takes; refused (no call made) when they are not. */
  const shillingsOf = (amount: number, currency: string, what: string) => {
    if (currency !== 'KES') throw new ProviderError('refused', `M-Pesa ${what} Kenyan shillings, not ${currency}`);
    const cents = 10 ** currencyDigits(currency);
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount % cents !== 0) {
      throw new ProviderError('refused', `M-Pesa takes whole shillings: ${amount} cents is not`);
    }
    return amount / cents;
  };

  /** The shortcode's credentials of one request, stamped now. */
  const signed = () => {
    const timestamp = darajaTimestamp(now());
    return {
      BusinessShortCode: config.shortcode,
      Password: darajaPassword(config.shortcode, config.passkey, timestamp),
      Timestamp: timestamp,
    };
  };

  const { initiatorName, securityCredential } = config;
  const refunds: RefundingProvider | null =
    initiatorName && securityCredential
      ? {
          /**
           * Asks M-Pesa to reverse the payment's receipt in full. Daraja only accepts the request here
           * (pending, with its ConversationID); M-Pesa's outcome comes later to the request's result URL, as
           * ResultURL, or as QueueTimeOutURL when the request waited too long in Daraja's queue.
           *
           * Daraja takes no idempotency key, but M-Pesa reverses a receipt at most once: a reversal asked
           * again with the same request (its answer lost, or its result late) is accepted too, and its result
           * is R000001 "already reversed", which `refundResult` reads as refunded — the money is back with the
           * payer, whoever's request moved it. A 401 (a token Daraja dropped before its announced expiry) is
           * `unreachable` here rather than refused: nothing reached M-Pesa, and the retry gets a new token.
           */
          async refund(request: RefundRequest): Promise<RefundAnswer> {
            const shillings = shillingsOf(request.amount, request.currency, 'refunds');
            const path = '/mpesa/reversal/v1/request';
            let answer: Awaited<ReturnType<typeof post>>;
            try {
              answer = await post(path, {
                Initiator: initiatorName,
                SecurityCredential: securityCredential,
                CommandID: 'TransactionReversal',
                TransactionID: request.providerTransactionId,
                Amount: shillings,
                ReceiverParty: config.shortcode,
                RecieverIdentifierType: SHORTCODE_IDENTIFIER,
                ResultURL: request.resultUrl,
                QueueTimeOutURL: request.resultUrl,
                Remarks: REVERSAL_REMARKS,
                Occasion: accountReferenceOf(request.paymentReference),
              });
            } catch (error) {
              if (error instanceof ProviderError && error.status === 401) {
                throw new ProviderError('unreachable', error.message, error.status, error.providerCode);
              }
              throw error;
            }
            // For this API 500.001.1001 is Daraja's internal server error, not a prompt being processed.
            if (!answer.ok) {
              throw new ProviderError(
                'unreachable',
                `M-Pesa ${path} answered ${STILL_PROCESSING}`,
                500,
                STILL_PROCESSING,
              );
            }
            const responseCode = codeOf(answer.body?.ResponseCode);
            const conversationId = textOf(answer.body?.ConversationID);
            if (responseCode !== null && responseCode !== '0') {
              throw new ProviderError(
                'refused',
                `M-Pesa refused the reversal (ResponseCode ${responseCode})`,
                200,
                responseCode,
              );
            }
            if (!conversationId || conversationId.length > MAX_ID_LENGTH) {
              throw new ProviderError('unreachable', 'M-Pesa reversal answer unreadable');
            }
            return { state: 'pending', providerRefundId: conversationId, providerCode: responseCode };
          },

          /**
           * A reversal Result (`{ Result: { ResultCode, ConversationID, … } }`, to ResultURL or QueueTimeOutURL):
           * ResultCode 0 reversed, R000001 already reversed (refunded too), anything else failed with its code —
           * R000002 an unknown receipt, 2001 a wrong initiator or credential, 1 the shortcode's balance too low,
           * and the queue timeout's notice, which means M-Pesa never processed the request. An unsigned body
           * like the STK callback: the caller matches its ConversationID with the one `refund` answered.
           */
          refundResult(body: unknown): RefundResult | null {
            if (!body || typeof body !== 'object') return null;
            const result = (body as { Result?: unknown }).Result;
            if (!result || typeof result !== 'object') return null;
            const { ConversationID, ResultCode } = result as { ConversationID?: unknown; ResultCode?: unknown };
            const conversationId = textOf(ConversationID);
            const code = codeOf(ResultCode);
            if (!conversationId || conversationId.length > MAX_ID_LENGTH || !code) return null;
            return {
              state: code === '0' || code === ALREADY_REVERSED ? 'refunded' : 'failed',
              providerRefundId: conversationId,
              providerCode: code,
            };
          },
        }
      : null;

  return {
    name: 'mpesa',
    ...(refunds && { refunds }),

    async requestPayment(request: MobileMoneyRequest): Promise<MobileMoneyRequested> {
      const shillings = shillingsOf(request.amount, request.currency, 'collects');
      const answer = await post('/mpesa/stkpush/v1/processrequest', {
        ...signed(),
        TransactionType: 'CustomerPayBillOnline',
        Amount: shillings,
        PartyA: request.msisdn,
        PartyB: config.shortcode,
        PhoneNumber: request.msisdn,
        CallBackURL: request.callbackUrl,
        AccountReference: accountReferenceOf(request.reference),
        TransactionDesc: request.payerMessage.trim().slice(0, TRANSACTION_DESC_MAX) || 'Payment',
      });
      const body = answer.ok ? answer.body : null;
      const responseCode = codeOf(body?.ResponseCode);
      const checkoutRequestId = textOf(body?.CheckoutRequestID);
      if (responseCode !== null && responseCode !== '0') {
        throw new ProviderError('refused', `M-Pesa refused the push (ResponseCode ${responseCode})`, 200, responseCode);
      }
      if (!checkoutRequestId) throw new ProviderError('unreachable', 'M-Pesa push answer unreadable');
      return { reference: request.reference, providerReference: checkoutRequestId };
    },

    async status({ reference, providerReference }: MobileMoneyPaymentRef): Promise<MobileMoneyStatus> {
      if (!providerReference) {
        throw new ProviderError('refused', `M-Pesa payment ${reference} has no CheckoutRequestID to ask about`);
      }
      const answer = await post('/mpesa/stkpushquery/v1/query', { ...signed(), CheckoutRequestID: providerReference });
      const pending: MobileMoneyStatus = {
        state: 'pending',
        amount: null,
        currency: 'KES',
        externalId: reference,
        reason: null,
        providerReason: null,
        providerTransactionId: null,
      };
      if (!answer.ok) return pending;
      const checkoutRequestId = textOf(answer.body?.CheckoutRequestID);
      const resultCode = codeOf(answer.body?.ResultCode);
      if (!checkoutRequestId || resultCode === null) {
        throw new ProviderError('unreachable', `M-Pesa status of ${providerReference} unreadable`);
      }
      // The query confirms the prompt it was asked about, for our reference; any other is not ours to settle.
      const externalId = checkoutRequestId === providerReference ? reference : checkoutRequestId;
      if (resultCode === '0') return { ...pending, state: 'succeeded', externalId };
      return {
        ...pending,
        state: 'failed',
        externalId,
        reason: FAILURES[resultCode] ?? 'provider_error',
        providerReason: resultCode,
      };
    },

    callbackSubject(body: unknown): MobileMoneyCallbackSubject | null {
      if (!body || typeof body !== 'object') return null;
      const callback = (body as { Body?: { stkCallback?: unknown } }).Body?.stkCallback;
      if (!callback || typeof callback !== 'object') return null;
      const providerReference = textOf((callback as { CheckoutRequestID?: unknown }).CheckoutRequestID);
      if (!providerReference || providerReference.length > 100) return null;
      const receipt = receiptOf(callback);
      return receipt ? { providerReference, transactionHint: receipt } : { providerReference };
    },
  };
}

/** M-Pesa receipts are ten capitals and digits (e.g. NLJ7RT61SV); anything else is not kept. */
const RECEIPT = /^[A-Z0-9]{10}$/;

/**
 * The `MpesaReceiptNumber` and `Amount` (whole shillings, answered in cents) of a successful stkCallback's
 * `CallbackMetadata.Item`: what a reversal names. Daraja's STK query states no receipt, so the callback's
 * is the only one; it is kept only after the query confirms the success of the prompt the callback names
 * (by its CheckoutRequestID, known only to Safaricom and us), and when its amount is the payment's.
 */
function receiptOf(callback: object): { id: string; amount: number | null } | null {
  if ((callback as { ResultCode?: unknown }).ResultCode !== 0) return null;
  const items = (callback as { CallbackMetadata?: { Item?: unknown } }).CallbackMetadata?.Item;
  if (!Array.isArray(items)) return null;
  const valueOf = (name: string) =>
    (
      items.find(
        (entry: unknown) => !!entry && typeof entry === 'object' && (entry as { Name?: unknown }).Name === name,
      ) as { Value?: unknown } | undefined
    )?.Value;
  const id = valueOf('MpesaReceiptNumber');
  if (typeof id !== 'string' || !RECEIPT.test(id)) return null;
  const amount = valueOf('Amount');
  return {
    id,
    amount: typeof amount === 'number' && Number.isSafeInteger(amount) && amount >= 0 ? amount * 100 : null,
  };
}
