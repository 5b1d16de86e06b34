import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sameSecret, send, readBody, header, isSimulatorMode, listenSimulator, type SimulatorMode } from './http.ts';

/**
 * A local stand-in for Airtel Money's Open API (collections), for development and tests: the same paths,
 * headers, bodies and auth checks as developers.airtel.africa documents, so the adapter talks to it exactly
 * as to Airtel. Its transactions live in memory (they are the provider's own state, not ours).
 *
 * - `POST /auth/oauth2/token` — JSON `{ client_id, client_secret, grant_type: "client_credentials" }`,
 *   else 401; answers `{ access_token, expires_in, token_type }`.
 * - `POST /merchant/v1/payments/` — Bearer token, `X-Country`, `X-Currency` (those of the body); 200 with
 *   `status.success`, or 400 / 401 as Airtel answers.
 * - `GET /standard/v1/payments/{id}` — the transaction enquiry (TIP, TS, TF, TE), or 404.
 * - `POST /standard/v1/payments/refund` — `{ transaction: { airtel_money_id } }` of a TS transaction.
 * - The callback: a POST of `{ transaction: { id, message, status_code, airtel_money_id } }` to the callback
 *   URL. Airtel takes that URL from its portal, not from the request: here it is the `callbackUrl` option, or
 *   `setCallbackUrl(url)`.
 *
 * The payer's phone is `/_simulator/…`, as for the MoMo simulator: `GET /_simulator/prompts`,
 * `POST /_simulator/prompts/{id}/approve`, `POST /_simulator/prompts/{id}/decline`, and
 * `POST /_simulator/mode` with `{ "mode": "normal" | "503" | "429" | "close" }` to make the whole API unreachable
 * or rate limited.
 *
 * Scripted outcomes, by the last three digits of the payer's msisdn (AIRTEL_SCRIPTS):
 * | ends in | what happens                                                                                  |
 * | ------- | --------------------------------------------------------------------------------------------- |
 * | other   | TIP until approved or declined on `/_simulator/`; then TS / TF (DP00800001008, refused)       |
 * | 111     | approved by the payer at once: TS, one callback                                               |
 * | 222     | declined at once: TF, DP00800001008, one callback                                             |
 * | 333     | TF, DP00800001007 (not enough balance), one callback                                          |
 * | 444     | stays TIP, then TE (DP00800001029, expired) after `expireAfterMs`; no callback at all         |
 * | 555     | TS, and the same callback is sent twice                                                       |
 * | 666     | TE (no callback) after `expireAfterMs`, then TS `lateAfterMs` later, with a callback          |
 * | 777     | a callback claiming TS while the enquiry still answers TIP (forged or early); TE at expiry     |
 * | 888     | TF, DP00800001002 (incorrect PIN), one callback                                               |
 * | 999     | refused at the request (400, DP00800001010: not registered on Airtel Money); no transaction   |
 */
export const AIRTEL_SCRIPTS = {
  approve: '111',
  decline: '222',
  insufficientFunds: '333',
  timeout: '444',
  duplicateCallback: '555',
  lateSuccess: '666',
  earlyCallback: '777',
  wrongPin: '888',
  unknownPayer: '999',
} as const;

export type AirtelTransactionStatus = 'TIP' | 'TS' | 'TF' | 'TE';

export interface AirtelPrompt {
  /** Our transaction id (`transaction.id`). */
  id: string;
  provider: 'airtel_money';
  /** As Airtel got it: without the country code. */
  msisdn: string;
  /** Major units, as sent. */
  amount: number;
  currency: string;
  country: string;
  status: AirtelTransactionStatus;
  /** Airtel's response code of the outcome (DP00800001001 success …). */
  responseCode: string;
  message: string;
  reference: string;
  airtelMoneyId: string | null;
  refunded: boolean;
  createdAt: string;
}

export interface AirtelSimulatorOptions {
  port?: number;
  host?: string;
  clientId: string;
  clientSecret: string;
  /** Where callbacks go: the URL a merchant registers in Airtel's portal. */
  callbackUrl?: string;
  /** The `expires_in` of the tokens it issues (Airtel's examples: 180). */
  tokenTtlSeconds?: number;
  /** How long an unanswered prompt stays TIP before it is TE. */
  expireAfterMs?: number;
  /** For the late-success script: how long after expiry the success comes. */
  lateAfterMs?: number;
  /** For the scripts that decide at once: how long "at once" is (the payer entering their PIN). */
  payerDelayMs?: number;
  now?: () => number;
}

export interface AirtelCallback {
  url: string;
  body: { transaction: { id: string; message: string; status_code: string; airtel_money_id: string | null } };
  status: number | null;
}

export interface AirtelSimulator {
  url: string;
  stop(): Promise<void>;
  approve(id: string): boolean;
  decline(id: string): boolean;
  prompts(): AirtelPrompt[];
  setMode(mode: SimulatorMode): void;
  setCallbackUrl(url: string | null): void;
  /** How many tokens it has issued. */
  tokensIssued(): number;
  /** Callbacks it has sent (or tried to), in order. */
  callbacksSent(): AirtelCallback[];
  /** The headers of the last API request (not `/_simulator/`), lower-cased as Node gives them. */
  lastHeaders(): Record<string, string | string[] | undefined>;
}

/** Airtel's response codes the simulator answers, with their documented meaning. */
const CODES = {
  DP00800001001: 'Transaction is successful.',
  DP00800001002: 'Incorrect pin has been entered.',
  DP00800001006: 'Transaction in pending state. Please check after sometime.',
  DP00800001007: 'User wallet does not have enough money to cover the payable amount.',
  DP00800001008: 'The transaction was refused.',
  DP00800001010: 'Payee is not registered on Airtel Money platform.',
  DP00800001025: 'Transaction Not Found.',
  DP00800001029: 'Transaction has been expired.',
} as const;
type Code = keyof typeof CODES;

/** Airtel's `status` object of an answer. */
const statusOf = (httpCode: number, success: boolean, responseCode: Code | null, message?: string) => ({
  code: String(httpCode),
  message: message ?? (success ? 'SUCCESS' : responseCode ? CODES[responseCode] : 'FAILED'),
  result_code: success ? 'ESB000010' : 'ESB000001',
  ...(responseCode ? { response_code: responseCode } : {}),
  success,
});

const isText = (value: unknown, pattern: RegExp) => typeof value === 'string' && pattern.test(value);

export async function startAirtelSimulator(options: AirtelSimulatorOptions): Promise<AirtelSimulator> {
  const now = options.now ?? Date.now;
  const tokenTtl = options.tokenTtlSeconds ?? 180;
  const expireAfterMs = options.expireAfterMs ?? 120_000;
  const lateAfterMs = options.lateAfterMs ?? 1_000;
  const payerDelayMs = options.payerDelayMs ?? 20;
  let callbackUrl = options.callbackUrl ?? null;
  const prompts = new Map<string, AirtelPrompt>();
  const tokens = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const callbacks: AirtelCallback[] = [];
  const deliveries = new Set<Promise<void>>();
  let issued = 0;
  let mode: SimulatorMode = 'normal';
  let lastHeaders: Record<string, string | string[] | undefined> = {};

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const callback = (prompt: AirtelPrompt, statusCode: AirtelTransactionStatus = prompt.status) => {
    if (!callbackUrl) return;
    const body: AirtelCallback['body'] = {
      transaction: {
        id: prompt.id,
        message: statusCode === 'TS' ? CODES.DP00800001001 : prompt.message,
        status_code: statusCode,
        airtel_money_id: prompt.airtelMoneyId,
      },
    };
    const entry: AirtelCallback = { url: callbackUrl, body, status: null };
    callbacks.push(entry);
    const delivery = fetch(callbackUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (response) => {
        entry.status = response.status;
        await response.body?.cancel();
      })
      .catch(() => undefined)
      .finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  };

  const settle = (prompt: AirtelPrompt, outcome: 'TS' | 'TF' | 'TE', code: Code) => {
    prompt.status = outcome;
    prompt.responseCode = code;
    prompt.message = CODES[code];
    if (outcome === 'TS') prompt.airtelMoneyId = `MP${randomBytes(6).toString('hex').toUpperCase()}`;
  };

  const decide = (id: string, outcome: 'TS' | 'TF', code: Code) => {
    const prompt = prompts.get(id);
    if (!prompt || prompt.status !== 'TIP') return false;
    settle(prompt, outcome, code);
    callback(prompt);
    return true;
  };

  const script = (prompt: AirtelPrompt) => {
    const { id } = prompt;
    const expire = (then?: () => void) =>
      later(expireAfterMs, () => {
        if (prompt.status !== 'TIP') return;
        settle(prompt, 'TE', 'DP00800001029');
        then?.();
      });
    switch (prompt.msisdn.slice(-3)) {
      case AIRTEL_SCRIPTS.approve:
        return later(payerDelayMs, () => decide(id, 'TS', 'DP00800001001'));
      case AIRTEL_SCRIPTS.decline:
        return later(payerDelayMs, () => decide(id, 'TF', 'DP00800001008'));
      case AIRTEL_SCRIPTS.insufficientFunds:
        return later(payerDelayMs, () => decide(id, 'TF', 'DP00800001007'));
      case AIRTEL_SCRIPTS.wrongPin:
        return later(payerDelayMs, () => decide(id, 'TF', 'DP00800001002'));
      case AIRTEL_SCRIPTS.timeout:
        return expire();
      case AIRTEL_SCRIPTS.duplicateCallback:
        return later(payerDelayMs, () => {
          if (decide(id, 'TS', 'DP00800001001')) callback(prompt);
        });
      case AIRTEL_SCRIPTS.lateSuccess:
        return expire(() =>
          later(lateAfterMs, () => {
            settle(prompt, 'TS', 'DP00800001001');
            callback(prompt);
          }),
        );
      case AIRTEL_SCRIPTS.earlyCallback:
        later(payerDelayMs, () => callback(prompt, 'TS'));
        return expire();
      default:
        // Waits for the payer (the dev page), and expires like a real prompt when nobody answers.
        return expire();
    }
  };

  /** Bearer token, and the market headers; false (answered) when one is wrong. */
  function authorised(req: IncomingMessage, res: ServerResponse): boolean {
    const value = /^Bearer (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
    const until = value ? tokens.get(value) : undefined;
    if (until === undefined || until <= now()) {
      send(res, 401, { error: 'invalid_token', error_description: 'The access token is missing, invalid or expired.' });
      return false;
    }
    if (!isText(header(req, 'x-country'), /^[A-Z]{2}$/) || !isText(header(req, 'x-currency'), /^[A-Z]{3}$/)) {
      send(res, 400, { status: statusOf(400, false, null, 'X-Country and X-Currency are required.') });
      return false;
    }
    return true;
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    const body = (await readBody(req).catch(() => null)) as Record<string, unknown> | null;
    if (
      !body ||
      body.grant_type !== 'client_credentials' ||
      !sameSecret(body.client_id, options.clientId) ||
      !sameSecret(body.client_secret, options.clientSecret)
    ) {
      send(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed.' });
      return;
    }
    const value = randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '');
    tokens.set(value, now() + tokenTtl * 1000);
    issued += 1;
    send(res, 200, { access_token: value, expires_in: String(tokenTtl), token_type: 'bearer' });
  }

  async function payment(req: IncomingMessage, res: ServerResponse) {
    const body = (await readBody(req).catch(() => undefined)) as Record<string, unknown> | null | undefined;
    const subscriber = body?.subscriber as Record<string, unknown> | undefined;
    const transaction = body?.transaction as Record<string, unknown> | undefined;
    const country = header(req, 'x-country');
    const currency = header(req, 'x-currency');
    const valid =
      body &&
      typeof body.reference === 'string' &&
      body.reference.length <= 64 &&
      subscriber &&
      transaction &&
      isText(subscriber.msisdn, /^\d{6,12}$/) &&
      subscriber.country === country &&
      subscriber.currency === currency &&
      transaction.country === country &&
      transaction.currency === currency &&
      typeof transaction.amount === 'number' &&
      Number.isFinite(transaction.amount) &&
      transaction.amount > 0 &&
      isText(transaction.id, /^[\w-]{1,64}$/);
    if (!valid) {
      send(res, 400, { status: statusOf(400, false, null, 'Invalid request body.') });
      return;
    }
    const id = transaction.id as string;
    const msisdn = subscriber.msisdn as string;
    if (prompts.has(id)) {
      send(res, 400, { status: statusOf(400, false, 'DP00800001008', 'Duplicate transaction id.') });
      return;
    }
    if (msisdn.endsWith(AIRTEL_SCRIPTS.unknownPayer)) {
      send(res, 400, { status: statusOf(400, false, 'DP00800001010') });
      return;
    }
    const prompt: AirtelPrompt = {
      id,
      provider: 'airtel_money',
      msisdn,
      amount: transaction.amount as number,
      currency: currency!,
      country: country!,
      status: 'TIP',
      responseCode: 'DP00800001006',
      message: CODES.DP00800001006,
      reference: body.reference as string,
      airtelMoneyId: null,
      refunded: false,
      createdAt: new Date(now()).toISOString(),
    };
    prompts.set(id, prompt);
    script(prompt);
    send(res, 200, {
      data: { transaction: { id, status: 'SUCCESS' } },
      status: statusOf(200, true, 'DP00800001006', 'SUCCESS'),
    });
  }

  function enquiry(res: ServerResponse, id: string) {
    const prompt = prompts.get(id);
    if (!prompt) return send(res, 404, { status: statusOf(404, false, 'DP00800001025') });
    send(res, 200, {
      data: {
        transaction: {
          airtel_money_id: prompt.airtelMoneyId ?? undefined,
          id: prompt.id,
          message: prompt.message,
          status: prompt.status,
        },
      },
      status: statusOf(200, true, prompt.responseCode as Code, 'SUCCESS'),
    });
  }

  async function refund(req: IncomingMessage, res: ServerResponse) {
    const body = (await readBody(req).catch(() => null)) as { transaction?: { airtel_money_id?: unknown } } | null;
    const airtelMoneyId = body?.transaction?.airtel_money_id;
    if (typeof airtelMoneyId !== 'string') {
      return send(res, 400, { status: statusOf(400, false, null, 'transaction.airtel_money_id is required.') });
    }
    const prompt = [...prompts.values()].find((candidate) => candidate.airtelMoneyId === airtelMoneyId);
    if (!prompt) return send(res, 404, { status: statusOf(404, false, 'DP00800001025') });
    if (prompt.status !== 'TS' || prompt.refunded) {
      return send(res, 200, {
        data: { transaction: { airtel_money_id: airtelMoneyId, status: 'TF' } },
        status: statusOf(200, false, 'DP00800001008'),
      });
    }
    prompt.refunded = true;
    send(res, 200, {
      data: { transaction: { airtel_money_id: airtelMoneyId, status: 'SUCCESS' } },
      status: statusOf(200, true, 'DP00800001001', 'SUCCESS'),
    });
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const path = url.pathname;
    const method = req.method ?? 'GET';

    if (path.startsWith('/_simulator/')) {
      if (method === 'GET' && path === '/_simulator/prompts') return send(res, 200, [...prompts.values()]);
      if (method === 'POST' && path === '/_simulator/mode') {
        const body = (await readBody(req).catch(() => null)) as { mode?: unknown } | null;
        if (!isSimulatorMode(body?.mode)) return send(res, 400);
        mode = body.mode;
        return send(res, 204);
      }
      const decision = /^\/_simulator\/prompts\/([^/]+)\/(approve|decline)$/.exec(path);
      if (method === 'POST' && decision) {
        const id = decodeURIComponent(decision[1]!);
        const done = decision[2] === 'approve' ? decide(id, 'TS', 'DP00800001001') : decide(id, 'TF', 'DP00800001008');
        return send(res, done ? 204 : 409);
      }
      return send(res, 404);
    }

    if (mode === 'close') {
      req.socket.destroy();
      return;
    }
    if (mode === '503') return send(res, 503, { status: statusOf(503, false, null, 'Service Unavailable') });
    if (mode === '429') return send(res, 429, { status: statusOf(429, false, null, 'Too Many Requests') });
    lastHeaders = { ...req.headers };

    if (method === 'POST' && path === '/auth/oauth2/token') return token(req, res);
    if (method === 'POST' && path === '/merchant/v1/payments/') {
      if (authorised(req, res)) await payment(req, res);
      return;
    }
    if (method === 'POST' && path === '/standard/v1/payments/refund') {
      if (authorised(req, res)) await refund(req, res);
      return;
    }
    const status = /^\/standard\/v1\/payments\/([^/]+)$/.exec(path);
    if (method === 'GET' && status) {
      if (authorised(req, res)) enquiry(res, decodeURIComponent(status[1]!));
      return;
    }
    send(res, 404, { status: statusOf(404, false, null, 'Resource not found') });
  }

  const server = await listenSimulator(
    route,
    (res) => send(res, 500, { status: statusOf(500, false, null, 'Something went wrong') }),
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
    approve: (id) => decide(id, 'TS', 'DP00800001001'),
    decline: (id) => decide(id, 'TF', 'DP00800001008'),
    prompts: () => [...prompts.values()].map((prompt) => ({ ...prompt })),
    setMode(next) {
      mode = next;
    },
    setCallbackUrl(url) {
      callbackUrl = url;
    },
    tokensIssued: () => issued,
    callbacksSent: () => callbacks.map((entry) => ({ ...entry })),
    lastHeaders: () => ({ ...lastHeaders }),
  };
}
