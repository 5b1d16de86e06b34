import {
  ProviderError,
  decimalToMinor,
  minorToDecimal,
  type MobileMoneyCallbackSubject,
  type MobileMoneyFailure,
  type MobileMoneyPaymentRef,
  type MobileMoneyProvider,
  type MobileMoneyRequest,
  type MobileMoneyRequested,
  type MobileMoneyStatus,
} from './mobile-money.ts';
import type { RefundAnswer, RefundRequest, RefundingProvider } from './refunds.ts';

/**
 * MTN MoMo Collections (momodeveloper.mtn.com, "Collection" product), over its published HTTP API:
 * - `POST {base}/collection/token/` — Basic auth (API user : API key) and the subscription key; answers
 *   `{ access_token, token_type, expires_in }`. The token is kept until shortly before it expires.
 * - `POST {base}/collection/v1_0/requesttopay` — Bearer token, `X-Reference-Id` (our UUID v4),
 *   `X-Target-Environment`, `X-Callback-Url`, the subscription key; answers 202 with no body.
 * - `GET {base}/collection/v1_0/requesttopay/{referenceId}` — the prompt's `status` (PENDING, SUCCESSFUL,
 *   FAILED), `reason`, `amount`, `currency`, `externalId`, `financialTransactionId`.
 * MoMo's callback (a PUT of the same body to `X-Callback-Url`) is not signed: it only names the payment to
 * ask about. No call is retried here: retries are jobs, which tell `unreachable` from `refused`.
 *
 * Refunds are not part of the Collection product: MoMo gives money back through the **Disbursement**
 * product, with its own API user, key, subscription key and token (`POST {base}/disbursement/token/`):
 * - `POST {base}/disbursement/v1_0/refund` — Bearer, `X-Reference-Id` (our refund reference, a UUID v4),
 *   `X-Target-Environment`; body `{ amount, currency, externalId, payerMessage, payeeNote,
 *   referenceIdToRefund }`, the last being the request to pay's X-Reference-Id; answers 202 with no body,
 *   or 409 RESOURCE_ALREADY_EXIST when that X-Reference-Id was used before.
 * - `GET {base}/disbursement/v1_0/refund/{referenceId}` — `{ amount, currency, financialTransactionId,
 *   externalId, payee, payerMessage, payeeNote, status: PENDING | SUCCESSFUL | FAILED, reason }`.
 * Without the disbursement credentials the adapter has no `refunds`, and staff refund by hand.
 */
export interface MtnMomoDisbursementConfig {
  /** The API user (a UUID) of the Disbursement product: not the Collection one. */
  apiUser: string;
  apiKey: string;
  /** The Disbursement product's own subscription key. */
  subscriptionKey: string;
}

export interface MtnMomoConfig {
  /** https://sandbox.momodeveloper.mtn.com, https://proxy.momoapi.mtn.com, or a local simulator. */
  baseUrl: string;
  apiUser: string;
  apiKey: string;
  subscriptionKey: string;
  /** `sandbox`, or the market's: mtnrwanda, mtnuganda, mtnghana, mtncameroon, mtnivorycoast, mtnzambia … */
  targetEnvironment: string;
  /** The Disbursement product's credentials, for refunds (same base URL and target environment). */
  disbursement?: MtnMomoDisbursementConfig;
  /** Per call. */
  timeoutMs?: number;
  /** How long before `expires_in` a token is replaced. */
  tokenMarginMs?: number;
  now?: () => number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_TOKEN_MARGIN_MS = 60_000;

/** MoMo's failure codes (ErrorReason.code) in our words. */
const FAILURES: Record<string, MobileMoneyFailure> = {
  APPROVAL_REJECTED: 'declined',
  NOT_ENOUGH_FUNDS: 'insufficient_funds',
  EXPIRED: 'timeout',
  PAYER_NOT_FOUND: 'unknown_payer',
  PAYEE_NOT_FOUND: 'not_allowed',
  NOT_ALLOWED: 'not_allowed',
  NOT_ALLOWED_TARGET_ENVIRONMENT: 'not_allowed',
  PAYER_LIMIT_REACHED: 'not_allowed',
  PAYEE_NOT_ALLOWED_TO_RECEIVE: 'not_allowed',
  INVALID_CURRENCY: 'not_allowed',
  TRANSACTION_CANCELED: 'declined',
};

/** The reason of a status body: MoMo documents `{ code, message }`; a bare code is read as well. */
function reasonCode(reason: unknown): string | null {
  if (typeof reason === 'string') return reason;
  if (reason && typeof reason === 'object' && typeof (reason as { code?: unknown }).code === 'string') {
    return (reason as { code: string }).code;
  }
  return null;
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : null);

/** What a refund's status body says, in the interface's words. */
const REFUND_STATES: Record<string, RefundAnswer['state']> = {
  SUCCESSFUL: 'refunded',
  PENDING: 'pending',
  FAILED: 'failed',
};

/** Shown in the payer's and our MoMo statements; MoMo refuses notes over 160 characters or with quotes. */
const refundNote = (paymentReference: string) => `Refund of payment ${paymentReference}`.slice(0, 160);

type CallInit = RequestInit & { headers: Record<string, string> };

/**
 * One MoMo product (Collection, Disbursement): its subscription key on every call, and its own token,
 * which the other product does not take.
 */
function momoProduct(
  product: 'collection' | 'disbursement',
  credentials: { apiUser: string; apiKey: string; subscriptionKey: string },
  options: { base: string; timeoutMs: number; margin: number; now: () => number },
) {
  const { base, timeoutMs, margin, now } = options;
  let token: { value: string; until: number } | null = null;
  let fetching: Promise<string> | null = null;

  async function call(path: string, init: CallInit): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        ...init,
        headers: { 'Ocp-Apim-Subscription-Key': credentials.subscriptionKey, ...init.headers },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ProviderError('unreachable', `MTN MoMo ${path}: ${(error as Error).message}`);
    }
    if (response.status >= 400) {
      // A token MoMo no longer takes (revoked, or expired earlier than announced) is not used again.
      if (response.status === 401 && init.headers.Authorization?.startsWith('Bearer ')) token = null;
      const body = (await response.json().catch(() => null)) as { code?: unknown; message?: unknown } | null;
      const code = textOf(body?.code);
      // MoMo also answers some refusals with 500 (NOT_ALLOWED, INVALID_CURRENCY …): still retried later,
      // as any 5xx, but with MoMo's code kept for whoever reads the error.
      const kind = response.status >= 500 ? 'unreachable' : 'refused';
      throw new ProviderError(
        kind,
        `MTN MoMo ${path} ${kind === 'refused' ? 'refused' : 'answered'} (${response.status}${code ? ` ${code}` : ''})`,
        response.status,
        code,
      );
    }
    return response;
  }

  async function freshToken(): Promise<string> {
    const basic = Buffer.from(`${credentials.apiUser}:${credentials.apiKey}`).toString('base64');
    const response = await call(`/${product}/token/`, { method: 'POST', headers: { Authorization: `Basic ${basic}` } });
    const body = (await response.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown } | null;
    const value = textOf(body?.access_token);
    const expiresIn = Number(body?.expires_in);
    if (!value || !Number.isFinite(expiresIn))
      throw new ProviderError('unreachable', 'MTN MoMo token answer unreadable');
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

  return { call, bearer };
}

export function createMtnMomoProvider(config: MtnMomoConfig): MobileMoneyProvider {
  const options = {
    base: config.baseUrl.replace(/\/+$/, ''),
    timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    margin: config.tokenMarginMs ?? DEFAULT_TOKEN_MARGIN_MS,
    now: config.now ?? Date.now,
  };
  const collection = momoProduct('collection', config, options);
  const { call } = collection;

  const authorised = async () => ({
    Authorization: `Bearer ${await collection.bearer()}`,
    'X-Target-Environment': config.targetEnvironment,
  });

  return {
    name: 'mtn_momo',

    async requestPayment(request: MobileMoneyRequest): Promise<MobileMoneyRequested> {
      const response = await call('/collection/v1_0/requesttopay', {
        method: 'POST',
        headers: {
          ...(await authorised()),
          'X-Reference-Id': request.reference,
          'X-Callback-Url': request.callbackUrl,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          amount: minorToDecimal(request.amount, request.currency),
          currency: request.currency,
          externalId: request.reference,
          payer: { partyIdType: 'MSISDN', partyId: request.msisdn },
          payerMessage: request.payerMessage,
          payeeNote: request.payeeNote,
        }),
      });
      await response.body?.cancel();
      return { reference: request.reference, providerReference: null };
    },

    async status({ reference }: MobileMoneyPaymentRef): Promise<MobileMoneyStatus> {
      const response = await call(`/collection/v1_0/requesttopay/${encodeURIComponent(reference)}`, {
        method: 'GET',
        headers: await authorised(),
      });
      const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
      const currency = textOf(body?.currency);
      const amountText = textOf(body?.amount) ?? (typeof body?.amount === 'number' ? String(body.amount) : null);
      const amount = currency && amountText ? decimalToMinor(amountText, currency) : null;
      const status = textOf(body?.status);
      if (!body || !currency || amount === null || !status) {
        throw new ProviderError('unreachable', `MTN MoMo status of ${reference} unreadable`);
      }
      const code = reasonCode(body.reason);
      const state = status === 'SUCCESSFUL' ? 'succeeded' : status === 'FAILED' ? 'failed' : 'pending';
      return {
        state,
        amount,
        currency,
        externalId: textOf(body.externalId) ?? '',
        reason: state === 'failed' ? (FAILURES[code ?? ''] ?? 'provider_error') : null,
        providerReason: state === 'failed' ? code : null,
        providerTransactionId: textOf(body.financialTransactionId),
      };
    },

    callbackSubject(body: unknown): MobileMoneyCallbackSubject | null {
      if (!body || typeof body !== 'object') return null;
      const { externalId, referenceId } = body as { externalId?: unknown; referenceId?: unknown };
      const reference = textOf(externalId) ?? textOf(referenceId);
      return reference && reference.length <= 100 ? { reference } : null;
    },

    ...(config.disbursement
      ? { refunds: momoRefunds(momoProduct('disbursement', config.disbursement, options), config.targetEnvironment) }
      : {}),
  };
}

/**
 * Refunds through the Disbursement product. Our refund reference is the refund's X-Reference-Id, and MoMo
 * keeps a reference once used: a refund asked again after its answer was lost is answered 409
 * RESOURCE_ALREADY_EXIST and moves no money, and the adapter reads what became of the first one instead.
 * MoMo decides a refund after it has accepted it (202), so `refund` asks the status once and answers what
 * it says; a refund still PENDING is asked again by `refundStatus`, under the same reference.
 * No X-Callback-Url is sent: the callback would be unsigned, so only a hint to ask the status, which the
 * refund's job asks anyway.
 */
function momoRefunds(disbursement: ReturnType<typeof momoProduct>, targetEnvironment: string): RefundingProvider {
  const authorised = async () => ({
    Authorization: `Bearer ${await disbursement.bearer()}`,
    'X-Target-Environment': targetEnvironment,
  });

  /** The refund's status, checked to be the refund asked for: our reference as externalId, the amount, the currency. */
  async function status(request: RefundRequest, referenceId: string): Promise<RefundAnswer> {
    const path = `/disbursement/v1_0/refund/${encodeURIComponent(referenceId)}`;
    const response = await disbursement.call(path, { method: 'GET', headers: await authorised() });
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    const state = REFUND_STATES[textOf(body?.status) ?? ''];
    if (!body || !state) throw new ProviderError('unreachable', `MTN MoMo refund ${referenceId} unreadable`);
    const currency = textOf(body.currency);
    const amountText = textOf(body.amount) ?? (typeof body.amount === 'number' ? String(body.amount) : null);
    const amount = currency && amountText ? decimalToMinor(amountText, currency) : null;
    if (
      textOf(body.externalId) !== request.refundReference ||
      currency !== request.currency ||
      amount !== request.amount
    ) {
      // Another refund than the one asked for: nothing of it is believed, and staff check MoMo's portal.
      throw new ProviderError('refused', `MTN MoMo refund ${referenceId} names another refund or amount`, 200);
    }
    return {
      state,
      providerRefundId: referenceId,
      providerCode: state === 'failed' ? (reasonCode(body.reason) ?? 'FAILED') : textOf(body.status),
    };
  }

  return {
    async refund(request: RefundRequest): Promise<RefundAnswer> {
      const { refundReference, paymentReference, amount, currency } = request;
      try {
        const response = await disbursement.call('/disbursement/v1_0/refund', {
          method: 'POST',
          headers: { ...(await authorised()), 'X-Reference-Id': refundReference, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            amount: minorToDecimal(amount, currency),
            currency,
            externalId: refundReference,
            payerMessage: refundNote(paymentReference),
            payeeNote: refundNote(paymentReference),
            referenceIdToRefund: paymentReference,
          }),
        });
        await response.body?.cancel();
      } catch (error) {
        // Asked before (the answer was lost on the way): the first request stands, and says how it went.
        const repeated = error instanceof ProviderError && error.providerCode === 'RESOURCE_ALREADY_EXIST';
        if (!repeated) throw error;
      }
      try {
        return await status(request, refundReference);
      } catch (error) {
        // MoMo holds this refund (it accepted it, or it refused its reference as used): a status that did not
        // come back now, or that MoMo cannot show yet, is asked again later rather than read as a failure.
        if (error instanceof ProviderError && (error.kind === 'unreachable' || error.status === 404)) {
          return { state: 'pending', providerRefundId: refundReference, providerCode: null };
        }
        throw error;
      }
    },

    refundStatus(request: RefundRequest, providerRefundId: string | null): Promise<RefundAnswer> {
      return status(request, providerRefundId ?? request.refundReference);
    },
  };
}
