import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sameSecret, send, readBody, header, isSimulatorMode, listenSimulator, type SimulatorMode } from './http.ts';

/**
 * A local stand-in for MTN MoMo's Collection API, for development and tests: the same paths, headers,
 * bodies and auth checks as momodeveloper.mtn.com documents, so the adapter talks to it exactly as to
 * MTN. Its prompts live in memory (it is the provider's own state, not ours).
 *
 * - `POST /collection/token/` — Basic (API user : API key) and `Ocp-Apim-Subscription-Key`, else 401.
 * - `POST /collection/v1_0/requesttopay` — Bearer token, `X-Reference-Id` (UUID), `X-Target-Environment`;
 *   202, or 400 / 401 / 409 (a reference already used) as MoMo answers.
 * - `GET /collection/v1_0/requesttopay/{id}` — the prompt's status body, or 404.
 * - The callback: a PUT of the status body to the prompt's `X-Callback-Url`, unsigned, like MTN's.
 *
 * With the `disbursement` option it also serves the Disbursement product's refunds, which have their own
 * API user, key, subscription key and tokens (a Collection token is refused there, and the reverse):
 * - `POST /disbursement/token/` — as the Collection's, with the Disbursement credentials.
 * - `POST /disbursement/v1_0/refund` — Bearer, `X-Reference-Id` (UUID v4), `X-Target-Environment`; body
 *   `{ amount, currency, externalId, payerMessage, payeeNote, referenceIdToRefund }`. 400 for a body or
 *   reference MoMo would not take, 409 RESOURCE_ALREADY_EXIST for an X-Reference-Id used before (nothing
 *   more is refunded), 404 RESOURCE_NOT_FOUND when `referenceIdToRefund` names no request to pay; else 202,
 *   and the refund is decided as MoMo decides it, after accepting it: FAILED NOT_ALLOWED when the request
 *   to pay did not succeed or is already refunded in full, FAILED INVALID_CURRENCY in another currency,
 *   otherwise as the refund script says. MoMo's refund callback is not sent: `X-Callback-Url` is ignored.
 * - `GET /disbursement/v1_0/refund/{id}` — `{ amount, currency, financialTransactionId, externalId, payee,
 *   payerMessage, payeeNote, status, reason }`, or 404.
 *
 * Refund scripts (MOMO_REFUND_SCRIPTS), set for the refunds asked from then on by `scriptRefunds(script)`
 * or `POST /_simulator/refunds/script` with `{ "script": … }`; `GET /_simulator/refunds` lists them:
 * | script                | what happens                                                                 |
 * | --------------------- | ---------------------------------------------------------------------------- |
 * | pending_then_refunded | PENDING, then SUCCESSFUL after `refundDelayMs` (the default)                 |
 * | refunded              | SUCCESSFUL at once                                                           |
 * | pending_then_failed   | PENDING, then FAILED NOT_ENOUGH_FUNDS (the disbursement account is short)    |
 * | refused               | 403: the caller's address is not allowed to use the Disbursement API         |
 *
 * The payer's phone is `/_simulator/…`: `GET /_simulator/prompts`, `POST /_simulator/prompts/{id}/approve`,
 * `POST /_simulator/prompts/{id}/decline`, and `POST /_simulator/mode` with `{ "mode": "normal" | "503" |
 * "429" | "close" }` to make the whole API unreachable or rate limited.
 *
 * Scripted outcomes, by the last three digits of the payer's number (MOMO_SCRIPTS):
 * | ends in | what happens                                                                                 |
 * | ------- | -------------------------------------------------------------------------------------------- |
 * | other   | PENDING until approved or declined on `/_simulator/`; then SUCCESSFUL / APPROVAL_REJECTED    |
 * | 111     | approved by the payer at once: SUCCESSFUL, one callback                                      |
 * | 222     | declined at once: FAILED, APPROVAL_REJECTED, one callback                                    |
 * | 333     | FAILED, NOT_ENOUGH_FUNDS, one callback                                                       |
 * | 444     | stays PENDING, then FAILED, EXPIRED after `expireAfterMs`; no callback at all                |
 * | 555     | SUCCESSFUL, and the same callback is sent twice                                              |
 * | 666     | EXPIRED (no callback) after `expireAfterMs`, then SUCCESSFUL `lateAfterMs` later, with a callback |
 * | 777     | SUCCESSFUL, but the callback's body says ten times the amount asked                          |
 * | 888     | SUCCESSFUL, but the provider's own record (status and callback) says 1 more than asked       |
 * | 999     | PAYER_NOT_FOUND at once, one callback                                                        |
 */
export const MOMO_SCRIPTS = {
  approve: '111',
  decline: '222',
  insufficientFunds: '333',
  timeout: '444',
  duplicateCallback: '555',
  lateSuccess: '666',
  wrongAmountCallback: '777',
  wrongAmountRecord: '888',
  unknownPayer: '999',
} as const;

/** How the refunds asked from now on end (see the table above). */
export const MOMO_REFUND_SCRIPTS = ['pending_then_refunded', 'refunded', 'pending_then_failed', 'refused'] as const;
export type MomoRefundScript = (typeof MOMO_REFUND_SCRIPTS)[number];

const isRefundScript = (value: unknown): value is MomoRefundScript =>
  MOMO_REFUND_SCRIPTS.includes(value as MomoRefundScript);

export interface MomoRefund {
  referenceId: string;
  referenceIdToRefund: string;
  amount: string;
  currency: string;
  externalId: string;
  payee: { partyIdType: string; partyId: string };
  payerMessage: string;
  payeeNote: string;
  status: 'PENDING' | 'SUCCESSFUL' | 'FAILED';
  reason: { code: string; message: string } | null;
  financialTransactionId: string | null;
  script: MomoRefundScript;
  targetEnvironment: string;
  createdAt: string;
}

export interface MomoPrompt {
  referenceId: string;
  amount: string;
  currency: string;
  externalId: string;
  payer: { partyIdType: string; partyId: string };
  payerMessage: string;
  payeeNote: string;
  status: 'PENDING' | 'SUCCESSFUL' | 'FAILED';
  reason: string | null;
  financialTransactionId: string | null;
  callbackUrl: string | null;
  targetEnvironment: string;
  createdAt: string;
}

export interface MomoSimulatorOptions {
  port?: number;
  host?: string;
  apiUser: string;
  apiKey: string;
  subscriptionKey: string;
  /** The Disbursement product's credentials; without them its paths refuse every subscription key. */
  disbursement?: { apiUser: string; apiKey: string; subscriptionKey: string };
  /** For the pending refund scripts: how long a refund stays PENDING. */
  refundDelayMs?: number;
  /** The `expires_in` of the tokens it issues (MTN: 3600). */
  tokenTtlSeconds?: number;
  /** How long an unanswered prompt stays PENDING before it is EXPIRED. */
  expireAfterMs?: number;
  /** For the late-success script: how long after expiry the success comes. */
  lateAfterMs?: number;
  /** For the scripts that decide at once: how long "at once" is (the payer pressing a key). */
  payerDelayMs?: number;
  now?: () => number;
}

export interface MomoSimulator {
  url: string;
  stop(): Promise<void>;
  approve(referenceId: string): boolean;
  decline(referenceId: string): boolean;
  prompts(): MomoPrompt[];
  setMode(mode: SimulatorMode): void;
  /** How many tokens it has issued. */
  tokensIssued(): number;
  /** Callbacks it has sent (or tried to), in order. */
  callbacksSent(): { url: string; body: Record<string, unknown>; status: number | null }[];
  /** How the refunds asked from now on end. */
  scriptRefunds(script: MomoRefundScript): void;
  /** Every refund it has accepted, in order. */
  refunds(): MomoRefund[];
  /** How many Disbursement tokens it has issued. */
  disbursementTokensIssued(): number;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** MoMo's ErrorReason messages for the codes the simulator answers. */
const REASON_MESSAGES: Record<string, string> = {
  APPROVAL_REJECTED: 'The payer rejected the request.',
  NOT_ENOUGH_FUNDS: 'The payer does not have enough funds.',
  EXPIRED: 'The request expired before the payer approved it.',
  PAYER_NOT_FOUND: 'The payer was not found.',
};

/** The refund status body MoMo answers (`reason` as the ErrorReason `{ code, message }`). */
function refundBody(refund: MomoRefund) {
  return {
    amount: refund.amount,
    currency: refund.currency,
    financialTransactionId: refund.financialTransactionId ?? undefined,
    externalId: refund.externalId,
    payee: refund.payee,
    payerMessage: refund.payerMessage,
    payeeNote: refund.payeeNote,
    status: refund.status,
    ...(refund.reason ? { reason: refund.reason } : {}),
  };
}

/** A decimal amount as an integer of millionths, to add and compare amounts without float arithmetic. */
const millionths = (amount: string) => {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole + fraction.padEnd(6, '0').slice(0, 6));
};

const transactionId = () => String(1e9 + Math.floor(Math.random() * 9e9));

/** The status body MoMo answers and PUTs to the callback URL (`reason` as the ErrorReason `{ code, message }`). */
function statusBody(prompt: MomoPrompt) {
  return {
    amount: prompt.amount,
    currency: prompt.currency,
    financialTransactionId: prompt.financialTransactionId ?? undefined,
    externalId: prompt.externalId,
    payer: prompt.payer,
    payerMessage: prompt.payerMessage,
    payeeNote: prompt.payeeNote,
    status: prompt.status,
    ...(prompt.reason
      ? { reason: { code: prompt.reason, message: REASON_MESSAGES[prompt.reason] ?? prompt.reason } }
      : {}),
  };
}

/**
 * A prompt as `/_simulator/prompts` lists it: MoMo's own fields, with those every simulator lists its
 * prompts by (id, provider, msisdn, amount, currency, status, createdAt), so one dev page drives them all.
 */
const listed = (prompt: MomoPrompt) => ({
  id: prompt.referenceId,
  provider: 'mtn_momo' as const,
  msisdn: prompt.payer.partyId,
  ...prompt,
});

export async function startMomoSimulator(options: MomoSimulatorOptions): Promise<MomoSimulator> {
  const now = options.now ?? Date.now;
  const tokenTtl = options.tokenTtlSeconds ?? 3600;
  const expireAfterMs = options.expireAfterMs ?? 120_000;
  const lateAfterMs = options.lateAfterMs ?? 1_000;
  const payerDelayMs = options.payerDelayMs ?? 20;
  const refundDelayMs = options.refundDelayMs ?? 3_000;
  const prompts = new Map<string, MomoPrompt>();
  const refunds = new Map<string, MomoRefund>();
  const tokens = new Map<string, number>();
  const disbursementTokens = new Map<string, number>();
  let disbursementIssued = 0;
  let refundScript: MomoRefundScript = 'pending_then_refunded';
  const timers = new Set<NodeJS.Timeout>();
  const callbacks: { url: string; body: Record<string, unknown>; status: number | null }[] = [];
  const deliveries = new Set<Promise<void>>();
  let issued = 0;
  let mode: SimulatorMode = 'normal';

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const callback = (prompt: MomoPrompt, override: Record<string, unknown> = {}) => {
    if (!prompt.callbackUrl) return;
    const body = { ...statusBody(prompt), ...override };
    const entry = { url: prompt.callbackUrl, body, status: null as number | null };
    callbacks.push(entry);
    const delivery = fetch(prompt.callbackUrl, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (response) => {
        entry.status = response.status;
        await response.body?.cancel();
      })
      // MTN does not retry a callback that fails; neither does its stand-in.
      .catch(() => undefined)
      .finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  };

  const settle = (prompt: MomoPrompt, outcome: 'SUCCESSFUL' | 'FAILED', reason: string | null) => {
    prompt.status = outcome;
    prompt.reason = reason;
    if (outcome === 'SUCCESSFUL') prompt.financialTransactionId = transactionId();
  };

  const decide = (referenceId: string, outcome: 'SUCCESSFUL' | 'FAILED', reason: string | null) => {
    const prompt = prompts.get(referenceId);
    if (!prompt || prompt.status !== 'PENDING') return false;
    settle(prompt, outcome, reason);
    callback(prompt);
    return true;
  };

  const script = (prompt: MomoPrompt) => {
    const id = prompt.referenceId;
    const suffix = prompt.payer.partyId.slice(-3);
    const expire = (then?: () => void) =>
      later(expireAfterMs, () => {
        if (prompt.status !== 'PENDING') return;
        settle(prompt, 'FAILED', 'EXPIRED');
        then?.();
      });
    switch (suffix) {
      case MOMO_SCRIPTS.approve:
        return later(payerDelayMs, () => decide(id, 'SUCCESSFUL', null));
      case MOMO_SCRIPTS.decline:
        return later(payerDelayMs, () => decide(id, 'FAILED', 'APPROVAL_REJECTED'));
      case MOMO_SCRIPTS.insufficientFunds:
        return later(payerDelayMs, () => decide(id, 'FAILED', 'NOT_ENOUGH_FUNDS'));
      case MOMO_SCRIPTS.unknownPayer:
        return later(payerDelayMs, () => decide(id, 'FAILED', 'PAYER_NOT_FOUND'));
      case MOMO_SCRIPTS.timeout:
        return expire();
      case MOMO_SCRIPTS.duplicateCallback:
        return later(payerDelayMs, () => {
          if (decide(id, 'SUCCESSFUL', null)) callback(prompt);
        });
      case MOMO_SCRIPTS.lateSuccess:
        return expire(() =>
          later(lateAfterMs, () => {
            settle(prompt, 'SUCCESSFUL', null);
            callback(prompt);
          }),
        );
      case MOMO_SCRIPTS.wrongAmountCallback:
        return later(payerDelayMs, () => {
          if (prompt.status !== 'PENDING') return;
          settle(prompt, 'SUCCESSFUL', null);
          callback(prompt, { amount: String(Number(prompt.amount) * 10) });
        });
      case MOMO_SCRIPTS.wrongAmountRecord:
        return later(payerDelayMs, () => {
          prompt.amount = String(Number(prompt.amount) + 1);
          decide(id, 'SUCCESSFUL', null);
        });
      default:
        // Waits for the payer (the dev page), and expires like a real prompt when nobody answers.
        return expire();
    }
  };

  /** The product's subscription key: the Collection's by default, the Disbursement's on its paths. */
  function authorised(
    req: IncomingMessage,
    res: ServerResponse,
    subscriptionKey: string | null = options.subscriptionKey,
  ): boolean {
    if (subscriptionKey === null || !sameSecret(header(req, 'ocp-apim-subscription-key'), subscriptionKey)) {
      send(res, 401, {
        statusCode: 401,
        message:
          'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
      });
      return false;
    }
    return true;
  }

  function bearer(req: IncomingMessage, res: ServerResponse, issued = tokens): boolean {
    const value = /^Bearer (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
    const until = value ? issued.get(value) : undefined;
    if (until === undefined || until <= now()) {
      send(res, 401, { code: 'INVALID_TOKEN', message: 'Access token is missing, invalid or expired.' });
      return false;
    }
    if (!header(req, 'x-target-environment')) {
      send(res, 400, { code: 'MISSING_TARGET_ENVIRONMENT', message: 'X-Target-Environment is required.' });
      return false;
    }
    return true;
  }

  /** Issues a token of one product to its API user; answers whether it did. */
  function token(
    req: IncomingMessage,
    res: ServerResponse,
    product: { apiUser: string; apiKey: string },
    issued: Map<string, number>,
  ): boolean {
    const basic = /^Basic (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
    const [user, ...rest] = Buffer.from(basic ?? '', 'base64')
      .toString('utf8')
      .split(':');
    if (!basic || !sameSecret(user, product.apiUser) || !sameSecret(rest.join(':'), product.apiKey)) {
      send(res, 401, { error: 'login_failed' });
      return false;
    }
    const value = randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '');
    issued.set(value, now() + tokenTtl * 1000);
    send(res, 200, { access_token: value, token_type: 'access_token', expires_in: tokenTtl });
    return true;
  }

  async function refund(req: IncomingMessage, res: ServerResponse) {
    // MTN lets the Disbursement API be called only from the addresses registered for the account.
    if (refundScript === 'refused') {
      send(res, 403, { statusCode: 403, message: 'Authorization failed. IP not authorized to use Disbursement API.' });
      return;
    }
    const referenceId = header(req, 'x-reference-id') ?? '';
    if (!UUID_V4.test(referenceId)) {
      send(res, 400, { code: 'INVALID_REFERENCE_ID', message: 'X-Reference-Id must be a UUID version 4.' });
      return;
    }
    const body = (await readBody(req).catch(() => undefined)) as Record<string, unknown> | null | undefined;
    const valid =
      body &&
      typeof body.amount === 'string' &&
      /^\d+(\.\d+)?$/.test(body.amount) &&
      typeof body.currency === 'string' &&
      /^[A-Z]{3}$/.test(body.currency) &&
      typeof body.externalId === 'string' &&
      typeof body.referenceIdToRefund === 'string' &&
      [body.payerMessage, body.payeeNote].every(
        (text) => text === undefined || (typeof text === 'string' && text.length <= 160),
      );
    if (!valid) {
      send(res, 400, { code: 'INVALID_REQUEST', message: 'The request body is not a valid Refund.' });
      return;
    }
    if (refunds.has(referenceId)) {
      send(res, 409, {
        code: 'RESOURCE_ALREADY_EXIST',
        message: 'Duplicated reference id. Creation of resource failed.',
      });
      return;
    }
    const original = prompts.get(body.referenceIdToRefund as string);
    if (!original) {
      send(res, 404, { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' });
      return;
    }
    const refund: MomoRefund = {
      referenceId,
      referenceIdToRefund: original.referenceId,
      amount: body.amount as string,
      currency: body.currency as string,
      externalId: body.externalId as string,
      payee: { ...original.payer },
      payerMessage: typeof body.payerMessage === 'string' ? body.payerMessage : '',
      payeeNote: typeof body.payeeNote === 'string' ? body.payeeNote : '',
      status: 'PENDING',
      reason: null,
      financialTransactionId: null,
      script: refundScript,
      targetEnvironment: header(req, 'x-target-environment')!,
      createdAt: new Date(now()).toISOString(),
    };
    // What is already given back, or on its way back: a refund that failed gave nothing.
    const refunded = [...refunds.values()]
      .filter((other) => other.referenceIdToRefund === original.referenceId && other.status !== 'FAILED')
      .reduce((sum, other) => sum + millionths(other.amount), 0n);
    refunds.set(referenceId, refund);
    const end = (status: 'SUCCESSFUL' | 'FAILED', reason: MomoRefund['reason'] = null) => {
      refund.status = status;
      refund.reason = reason;
      if (status === 'SUCCESSFUL') refund.financialTransactionId = transactionId();
    };
    if (original.status !== 'SUCCESSFUL') {
      end('FAILED', { code: 'NOT_ALLOWED', message: 'The transaction to refund did not succeed.' });
    } else if (refund.currency !== original.currency) {
      end('FAILED', { code: 'INVALID_CURRENCY', message: 'The currency is not the transaction’s.' });
    } else if (refunded + millionths(refund.amount) > millionths(original.amount)) {
      end('FAILED', { code: 'NOT_ALLOWED', message: 'The transaction is already refunded.' });
    } else if (refund.script === 'refunded') {
      end('SUCCESSFUL');
    } else {
      later(refundDelayMs, () =>
        refund.script === 'pending_then_failed'
          ? end('FAILED', { code: 'NOT_ENOUGH_FUNDS', message: 'The payer does not have enough funds.' })
          : end('SUCCESSFUL'),
      );
    }
    send(res, 202);
  }

  async function requestToPay(req: IncomingMessage, res: ServerResponse) {
    const referenceId = header(req, 'x-reference-id') ?? '';
    if (!UUID_V4.test(referenceId)) {
      send(res, 400, { code: 'INVALID_REFERENCE_ID', message: 'X-Reference-Id must be a UUID version 4.' });
      return;
    }
    const body = (await readBody(req).catch(() => undefined)) as Record<string, unknown> | null | undefined;
    const payer = body?.payer as { partyIdType?: unknown; partyId?: unknown } | undefined;
    const valid =
      body &&
      typeof body.amount === 'string' &&
      /^\d+(\.\d+)?$/.test(body.amount) &&
      typeof body.currency === 'string' &&
      /^[A-Z]{3}$/.test(body.currency) &&
      typeof body.externalId === 'string' &&
      payer?.partyIdType === 'MSISDN' &&
      typeof payer.partyId === 'string' &&
      /^\d{6,15}$/.test(payer.partyId);
    if (!valid) {
      send(res, 400, { code: 'INVALID_REQUEST', message: 'The request body is not a valid RequestToPay.' });
      return;
    }
    if (prompts.has(referenceId)) {
      send(res, 409, {
        code: 'RESOURCE_ALREADY_EXIST',
        message: 'Duplicated reference id. Creation of resource failed.',
      });
      return;
    }
    const prompt: MomoPrompt = {
      referenceId,
      amount: body.amount as string,
      currency: body.currency as string,
      externalId: body.externalId as string,
      payer: { partyIdType: 'MSISDN', partyId: payer.partyId as string },
      payerMessage: typeof body.payerMessage === 'string' ? body.payerMessage : '',
      payeeNote: typeof body.payeeNote === 'string' ? body.payeeNote : '',
      status: 'PENDING',
      reason: null,
      financialTransactionId: null,
      callbackUrl: header(req, 'x-callback-url') ?? null,
      targetEnvironment: header(req, 'x-target-environment')!,
      createdAt: new Date(now()).toISOString(),
    };
    prompts.set(referenceId, prompt);
    script(prompt);
    send(res, 202);
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const path = url.pathname;
    const method = req.method ?? 'GET';

    if (path.startsWith('/_simulator/')) {
      if (method === 'GET' && path === '/_simulator/prompts') return send(res, 200, [...prompts.values()].map(listed));
      if (method === 'GET' && path === '/_simulator/refunds') return send(res, 200, [...refunds.values()]);
      if (method === 'POST' && path === '/_simulator/refunds/script') {
        const body = (await readBody(req).catch(() => null)) as { script?: unknown } | null;
        if (!isRefundScript(body?.script)) return send(res, 400);
        refundScript = body.script;
        return send(res, 204);
      }
      if (method === 'POST' && path === '/_simulator/mode') {
        const body = (await readBody(req).catch(() => null)) as { mode?: unknown } | null;
        if (!isSimulatorMode(body?.mode)) return send(res, 400);
        mode = body.mode;
        return send(res, 204);
      }
      const decision = /^\/_simulator\/prompts\/([^/]+)\/(approve|decline)$/.exec(path);
      if (method === 'POST' && decision) {
        const id = decodeURIComponent(decision[1]!);
        const done =
          decision[2] === 'approve' ? decide(id, 'SUCCESSFUL', null) : decide(id, 'FAILED', 'APPROVAL_REJECTED');
        return send(res, done ? 204 : 409);
      }
      return send(res, 404);
    }

    if (mode === 'close') {
      req.socket.destroy();
      return;
    }
    if (mode === '503') return send(res, 503, { statusCode: 503, message: 'Service Unavailable' });
    // MoMo's gateway (Azure API Management) answers its rate limit so.
    if (mode === '429') return send(res, 429, { statusCode: 429, message: 'Rate limit is exceeded. Try again later.' });

    if (method === 'POST' && path === '/collection/token/') {
      if (authorised(req, res) && token(req, res, options, tokens)) issued += 1;
      return;
    }
    const disbursementKey = options.disbursement?.subscriptionKey ?? null;
    if (method === 'POST' && path === '/disbursement/token/') {
      if (authorised(req, res, disbursementKey) && token(req, res, options.disbursement!, disbursementTokens)) {
        disbursementIssued += 1;
      }
      return;
    }
    if (method === 'POST' && path === '/disbursement/v1_0/refund') {
      if (authorised(req, res, disbursementKey) && bearer(req, res, disbursementTokens)) await refund(req, res);
      return;
    }
    const refundStatus = /^\/disbursement\/v1_0\/refund\/([^/]+)$/.exec(path);
    if (method === 'GET' && refundStatus) {
      if (!authorised(req, res, disbursementKey) || !bearer(req, res, disbursementTokens)) return;
      const found = refunds.get(decodeURIComponent(refundStatus[1]!));
      if (!found) return send(res, 404, { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' });
      return send(res, 200, refundBody(found));
    }
    if (method === 'POST' && path === '/collection/v1_0/requesttopay') {
      if (authorised(req, res) && bearer(req, res)) await requestToPay(req, res);
      return;
    }
    const status = /^\/collection\/v1_0\/requesttopay\/([^/]+)$/.exec(path);
    if (method === 'GET' && status) {
      if (!authorised(req, res) || !bearer(req, res)) return;
      const prompt = prompts.get(decodeURIComponent(status[1]!));
      if (!prompt) return send(res, 404, { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' });
      return send(res, 200, statusBody(prompt));
    }
    send(res, 404, { statusCode: 404, message: 'Resource not found' });
  }

  const server = await listenSimulator(
    route,
    (res) => send(res, 500, { code: 'INTERNAL_PROCESSING_ERROR', message: 'An internal error occurred.' }),
    options,
  );

  return {
    url: server.url,
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...deliveries]);
      await server.close();
    },
    approve: (referenceId) => decide(referenceId, 'SUCCESSFUL', null),
    decline: (referenceId) => decide(referenceId, 'FAILED', 'APPROVAL_REJECTED'),
    prompts: () => [...prompts.values()].map((prompt) => ({ ...prompt, payer: { ...prompt.payer } })),
    setMode(next) {
      mode = next;
    },
    tokensIssued: () => issued,
    callbacksSent: () => callbacks.map((entry) => ({ ...entry })),
    scriptRefunds(script) {
      refundScript = script;
    },
    refunds: () => [...refunds.values()].map((refund) => ({ ...refund, payee: { ...refund.payee } })),
    disbursementTokensIssued: () => disbursementIssued,
  };
}
