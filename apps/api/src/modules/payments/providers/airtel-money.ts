import { getCountryCallingCode, isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
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
 * Airtel Money collections (Airtel Africa's Open API, developers.airtel.africa), over its published HTTP API:
 * - `POST {base}/auth/oauth2/token` — JSON `{ client_id, client_secret, grant_type: "client_credentials" }`;
 *   answers `{ access_token, expires_in, token_type }`. The token is kept until shortly before it expires.
 * - `POST {base}/merchant/v1/payments/` — the USSD push: Bearer token, `X-Country` and `X-Currency` of the
 *   market; body `{ reference, subscriber: { country, currency, msisdn }, transaction: { amount, country,
 *   currency, id } }` with the msisdn written without its country code and the amount in major units; our
 *   reference is `transaction.id`. Answers `{ data: { transaction: { id, status } }, status: { code,
 *   message, result_code, response_code, success } }`.
 * - `GET {base}/standard/v1/payments/{id}` — the transaction enquiry, with `X-Country` / `X-Currency`:
 *   `data.transaction: { airtel_money_id, id, message, status }`, status TS (success), TF (failed), TE
 *   (expired), TA / TIP (ambiguous, in progress); the failure's code is `status.response_code`. It states no
 *   amount: the transaction it confirms is the one we asked for.
 * - `POST {base}/standard/v1/payments/refund` — `{ transaction: { airtel_money_id } }`.
 * The callback (`{ transaction: { id, message, status_code, airtel_money_id } }`, POSTed to the URL
 * registered in Airtel's portal) only names the payment to ask about. No call is retried here: retries are
 * jobs, which tell `unreachable` from `refused`.
 */
export interface AirtelMoneyConfig {
  /** https://openapiuat.airtel.africa (staging), https://openapi.airtel.africa (live), or a local simulator. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Per call. */
  timeoutMs?: number;
  /** How long before `expires_in` a token is replaced (Airtel's live a few minutes). */
  tokenMarginMs?: number;
  now?: () => number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_TOKEN_MARGIN_MS = 30_000;
/** Airtel shows `reference` to the payer, and takes at most this many characters of it. */
const REFERENCE_MAX = 64;

/** Airtel's response codes (`status.response_code`) of a failed collection, in our words. */
const FAILURES: Record<string, MobileMoneyFailure> = {
  DP00800001002: 'wrong_pin',
  DP00800001003: 'not_allowed',
  DP00800001004: 'provider_error',
  DP00800001005: 'timeout',
  DP00800001007: 'insufficient_funds',
  DP00800001008: 'declined',
  DP00800001009: 'declined',
  DP00800001010: 'not_allowed',
  DP00800001024: 'timeout',
  DP00800001029: 'timeout',
};

/** Codes that say the transaction is not decided yet: ambiguous (000) and in process (006). */
const UNDECIDED = new Set(['DP00800001000', 'DP00800001006']);

const textOf = (value: unknown) => (typeof value === 'string' ? value : null);

interface AirtelAnswer {
  data?: { transaction?: Record<string, unknown> } | null;
  status?: { code?: unknown; message?: unknown; result_code?: unknown; response_code?: unknown; success?: unknown };
}

/** Airtel's own code of an answer: the DP… response code when it has one, else the ESB result code. */
const codeOf = (body: AirtelAnswer | null) => textOf(body?.status?.response_code) ?? textOf(body?.status?.result_code);

/** The payer's number as Airtel takes it: without the country calling code of `country`. */
export function airtelMsisdn(msisdn: string, country: string): string {
  if (!isSupportedCountry(country)) throw new RangeError(`not a country: ${country}`);
  const prefix = getCountryCallingCode(country as CountryCode);
  if (!/^\d+$/.test(msisdn) || !msisdn.startsWith(prefix) || msisdn.length <= prefix.length) {
    throw new RangeError(`${msisdn} is not a number of ${country}`);
  }
  return msisdn.slice(prefix.length);
}

export function createAirtelMoneyProvider(config: AirtelMoneyConfig): MobileMoneyProvider {
  const base = config.baseUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const margin = config.tokenMarginMs ?? DEFAULT_TOKEN_MARGIN_MS;
  const now = config.now ?? Date.now;
  let token: { value: string; until: number } | null = null;
  let fetching: Promise<string> | null = null;

  async function call(
    path: string,
    init: RequestInit & { headers: Record<string, string> },
  ): Promise<AirtelAnswer | null> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        ...init,
        headers: { Accept: '*/*', ...init.headers },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ProviderError('unreachable', `Airtel Money ${path}: ${(error as Error).message}`);
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new ProviderError('unreachable', `Airtel Money ${path} answered ${response.status}`, response.status);
    }
    let body: AirtelAnswer | null;
    try {
      body = (await response.json()) as AirtelAnswer | null;
    } catch {
      body = null;
    }
    if (body !== null && typeof body !== 'object') body = null;
    if (response.status >= 400) {
      // A token Airtel no longer takes (expired earlier than announced) is not used again.
      if (response.status === 401 && init.headers.Authorization?.startsWith('Bearer ')) token = null;
      const code = codeOf(body);
      throw new ProviderError(
        'refused',
        `Airtel Money ${path} refused (${response.status}${code ? ` ${code}` : ''})`,
        response.status,
        code,
      );
    }
    return body;
  }

  async function freshToken(): Promise<string> {
    const body = (await call('/auth/oauth2/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_id: config.clientId,
        client_secret: config.clientSecret,
        grant_type: 'client_credentials',
      }),
    })) as { access_token?: unknown; expires_in?: unknown } | null;
    const value = textOf(body?.access_token);
    // Airtel's examples write expires_in as a string of seconds ("180"); a number is read as well.
    const expiresIn = Number(body?.expires_in);
    if (!value || !Number.isFinite(expiresIn) || expiresIn <= 0) {
      throw new ProviderError('unreachable', 'Airtel Money token answer unreadable');
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

  const market = async (country: string, currency: string) => ({
    Authorization: `Bearer ${await bearer()}`,
    'X-Country': country,
    'X-Currency': currency,
  });

  return {
    name: 'airtel_money',

    async requestPayment(request: MobileMoneyRequest): Promise<MobileMoneyRequested> {
      const { country, currency } = request;
      const msisdn = airtelMsisdn(request.msisdn, country);
      const path = '/merchant/v1/payments/';
      const body = await call(path, {
        method: 'POST',
        headers: { ...(await market(country, currency)), 'Content-Type': 'application/json' },
        body: JSON.stringify({
          reference: request.payerMessage.slice(0, REFERENCE_MAX),
          subscriber: { country, currency, msisdn },
          transaction: {
            amount: Number(minorToDecimal(request.amount, currency)),
            country,
            currency,
            id: request.reference,
          },
        }),
      });
      // Airtel answers some refusals with 200 and `success: false`.
      if (body?.status?.success !== true) {
        const code = codeOf(body);
        throw new ProviderError('refused', `Airtel Money ${path} refused (${code ?? 'no code'})`, 200, code);
      }
      return { reference: request.reference, providerReference: null };
    },

    async status({ reference, country, currency }: MobileMoneyPaymentRef): Promise<MobileMoneyStatus> {
      const path = `/standard/v1/payments/${encodeURIComponent(reference)}`;
      const body = await call(path, { method: 'GET', headers: await market(country, currency) });
      const transaction = body?.data?.transaction;
      const status = textOf(transaction?.status);
      const code = codeOf(body);
      if (!transaction || !status) {
        if (body?.status?.success === false) {
          throw new ProviderError(
            'refused',
            `Airtel Money status of ${reference} refused (${code ?? 'no code'})`,
            200,
            code,
          );
        }
        throw new ProviderError('unreachable', `Airtel Money status of ${reference} unreadable`);
      }
      const state =
        status === 'TS' ? 'succeeded' : status === 'TF' || status === 'TE' ? 'failed' : ('pending' as const);
      let reason: MobileMoneyFailure | null = null;
      if (status === 'TE') reason = 'timeout';
      else if (state === 'failed') reason = (code && !UNDECIDED.has(code) && FAILURES[code]) || 'provider_error';
      return {
        state,
        amount: null,
        currency,
        externalId: textOf(transaction.id) ?? '',
        reason,
        providerReason: state === 'failed' ? (code ?? status) : null,
        providerTransactionId: state === 'succeeded' ? textOf(transaction.airtel_money_id) : null,
      };
    },

    callbackSubject(body: unknown): MobileMoneyCallbackSubject | null {
      if (!body || typeof body !== 'object') return null;
      const transaction = (body as { transaction?: unknown }).transaction;
      if (!transaction || typeof transaction !== 'object') return null;
      const reference = textOf((transaction as { id?: unknown }).id);
      return reference && reference.length <= 100 ? { reference } : null;
    },

    refunds: {
      /**
       * Airtel answers the refund at once (TS refunded, TF failed). It takes no key of ours: a refund asked
       * again after an answer was lost is refused as a second refund, and shown to staff as failed with
       * Airtel's code, for them to check in Airtel's portal.
       */
      async refund({ providerTransactionId, country, currency }: RefundRequest): Promise<RefundAnswer> {
        if (!country) throw new ProviderError('refused', 'Airtel Money refunds need the payer country');
        const path = '/standard/v1/payments/refund';
        const body = await call(path, {
          method: 'POST',
          headers: { ...(await market(country, currency)), 'Content-Type': 'application/json' },
          body: JSON.stringify({ transaction: { airtel_money_id: providerTransactionId } }),
        });
        const status = textOf(body?.data?.transaction?.status);
        const code = codeOf(body);
        const answer = (state: RefundAnswer['state']) => ({ state, providerRefundId: null, providerCode: code });
        if (status === 'TS' || status === 'SUCCESS') return answer('refunded');
        if (status === 'TF' || status === 'FAILED' || body?.status?.success === false) return answer('failed');
        return answer('pending');
      },
    },
  };
}
