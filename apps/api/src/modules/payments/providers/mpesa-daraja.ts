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

  /** The shortcode's credentials of one request, stamped now. */
  const signed = () => {
    const timestamp = darajaTimestamp(now());
    return {
      BusinessShortCode: config.shortcode,
      Password: darajaPassword(config.shortcode, config.passkey, timestamp),
      Timestamp: timestamp,
    };
  };

  return {
    name: 'mpesa',

    async requestPayment(request: MobileMoneyRequest): Promise<MobileMoneyRequested> {
      if (request.currency !== 'KES') {
        throw new ProviderError('refused', `M-Pesa collects Kenyan shillings, not ${request.currency}`);
      }
      const cents = 10 ** currencyDigits(request.currency);
      if (!Number.isSafeInteger(request.amount) || request.amount <= 0 || request.amount % cents !== 0) {
        throw new ProviderError('refused', `M-Pesa takes whole shillings: ${request.amount} cents is not`);
      }
      const answer = await post('/mpesa/stkpush/v1/processrequest', {
        ...signed(),
        TransactionType: 'CustomerPayBillOnline',
        Amount: request.amount / cents,
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
      return providerReference && providerReference.length <= 100 ? { providerReference } : null;
    },
  };
}
