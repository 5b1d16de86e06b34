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
 */
export interface MtnMomoConfig {
  /** https://sandbox.momodeveloper.mtn.com, https://proxy.momoapi.mtn.com, or a local simulator. */
  baseUrl: string;
  apiUser: string;
  apiKey: string;
  subscriptionKey: string;
  /** `sandbox`, or the market's: mtnrwanda, mtnuganda, mtnghana, mtncameroon, mtnivorycoast, mtnzambia … */
  targetEnvironment: string;
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

export function createMtnMomoProvider(config: MtnMomoConfig): MobileMoneyProvider {
  const base = config.baseUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const margin = config.tokenMarginMs ?? DEFAULT_TOKEN_MARGIN_MS;
  const now = config.now ?? Date.now;
  let token: { value: string; until: number } | null = null;
  let fetching: Promise<string> | null = null;

  async function call(path: string, init: RequestInit & { headers: Record<string, string> }): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        ...init,
        headers: { 'Ocp-Apim-Subscription-Key': config.subscriptionKey, ...init.headers },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ProviderError('unreachable', `MTN MoMo ${path}: ${(error as Error).message}`);
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new ProviderError('unreachable', `MTN MoMo ${path} answered ${response.status}`, response.status);
    }
    if (response.status >= 400) {
      // A token MoMo no longer takes (revoked, or expired earlier than announced) is not used again.
      if (response.status === 401 && init.headers.Authorization?.startsWith('Bearer ')) token = null;
      const body = (await response.json().catch(() => null)) as { code?: unknown; message?: unknown } | null;
      const code = textOf(body?.code);
      throw new ProviderError(
        'refused',
        `MTN MoMo ${path} refused (${response.status}${code ? ` ${code}` : ''})`,
        response.status,
        code,
      );
    }
    return response;
  }

  async function freshToken(): Promise<string> {
    const basic = Buffer.from(`${config.apiUser}:${config.apiKey}`).toString('base64');
    const response = await call('/collection/token/', { method: 'POST', headers: { Authorization: `Basic ${basic}` } });
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

  const authorised = async () => ({
    Authorization: `Bearer ${await bearer()}`,
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
  };
}
