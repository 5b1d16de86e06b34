import { constants, generateKeyPairSync, privateDecrypt, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sameSecret, send, readBody, header, isSimulatorMode, listenSimulator, type SimulatorMode } from './http.ts';

/**
 * A local stand-in for Vodacom's M-Pesa OpenAPI in Tanzania (market vodacomTZN), for development and tests:
 * the same paths, fields, response codes and encrypted credentials as openapiportal.m-pesa.com documents,
 * so the adapter talks to it exactly as to Vodacom. It makes its own RSA key pair at start and gives the
 * public key (base64 DER, as Vodacom's portal shows its own) to configure the adapter with; every call's
 * Bearer value must decrypt, with its private key, to the API key (session call) or to a live session id.
 *
 * - `GET /ipg/v2/vodacomTZN/getSession/` — `{ output_ResponseCode: "INS-0", output_SessionID }`, or 401 INS-2.
 * - `POST /ipg/v2/vodacomTZN/c2bPayment/singleStage/` — held open until the payer answers (or the prompt
 *   expires), then answered with the outcome's code; INS-10 (409) for a conversation id used before.
 * - `GET /ipg/v2/vodacomTZN/queryTransactionStatus/` — by `input_QueryReference` (the payment's or a
 *   reversal's conversation id, or a transaction id): `output_ResponseTransactionStatus` Pending, Completed,
 *   Failed or Reversed; an unknown reference is 400 INS-18.
 * - `PUT /ipg/v2/vodacomTZN/reversal/` — the full amount of a completed payment, once.
 * A session refused (expired, or never issued) is 401 INS-2; an API call without an Origin header is 400.
 *
 * The payer's phone is `/_simulator/…` as for the other simulators: `GET /_simulator/prompts`,
 * `POST /_simulator/prompts/{id}/approve`, `…/decline`, and `POST /_simulator/mode`.
 *
 * Scripted outcomes, by the last three digits of the payer's msisdn (VODACOM_SCRIPTS):
 * | ends in | what happens                                                                                  |
 * | ------- | --------------------------------------------------------------------------------------------- |
 * | other   | waits for the dev phone: INS-0 (approved) or INS-5 (declined); INS-9 after `expireAfterMs`    |
 * | 111     | approved by the payer at once: INS-0                                                          |
 * | 222     | declined at once: INS-5 (cancelled by the customer)                                           |
 * | 333     | INS-2006 (insufficient balance)                                                               |
 * | 444     | no answer from the payer: INS-9 (request timeout) after `expireAfterMs`                       |
 * | 555     | approved, but the payment call's answer is lost (connection dropped): only the query tells    |
 * | 666     | INS-9 after `expireAfterMs`, then Completed `lateAfterMs` later (a late success)              |
 * | 777     | approved, but every answer names another conversation id (an answer that is not ours)        |
 * | 888     | INS-2001 (the payer's PIN refused)                                                            |
 * | 999     | refused at once: INS-2051 (invalid MSISDN); no transaction                                    |
 */
export const VODACOM_SCRIPTS = {
  approve: '111',
  decline: '222',
  insufficientFunds: '333',
  timeout: '444',
  lostAnswer: '555',
  lateSuccess: '666',
  notOurs: '777',
  wrongPin: '888',
  unknownPayer: '999',
} as const;

export type VodacomPromptStatus = 'PENDING' | 'SUCCESSFUL' | 'FAILED';

export interface VodacomPrompt {
  /** Our conversation id (`input_ThirdPartyConversationID`): the payment's reference. */
  id: string;
  provider: 'mpesa_tz';
  msisdn: string;
  /** Major units, as sent. */
  amount: string;
  currency: string;
  status: VodacomPromptStatus;
  /** Vodacom's response code of the outcome (INS-0 …); null while the payer has not answered. */
  responseCode: string | null;
  transactionId: string | null;
  conversationId: string;
  transactionReference: string;
  description: string;
  reversed: boolean;
  createdAt: string;
}

export interface VodacomSimulatorOptions {
  port?: number;
  host?: string;
  apiKey: string;
  serviceProviderCode: string;
  /** How long a session is accepted. */
  sessionTtlMs?: number;
  /** How long an unanswered prompt waits before INS-9. */
  expireAfterMs?: number;
  /** For the late-success script: how long after the timeout the success comes. */
  lateAfterMs?: number;
  /** For the scripts that decide at once: how long "at once" is (the payer entering the PIN). */
  payerDelayMs?: number;
  now?: () => number;
}

export interface VodacomSimulator {
  url: string;
  /** The public key the adapter encrypts with: base64 DER (SubjectPublicKeyInfo). */
  publicKey: string;
  stop(): Promise<void>;
  approve(id: string): boolean;
  decline(id: string): boolean;
  prompts(): VodacomPrompt[];
  setMode(mode: SimulatorMode): void;
  sessionsIssued(): number;
  /** The headers of the last API request (not `/_simulator/`). */
  lastHeaders(): Record<string, string | string[] | undefined>;
}

/** Vodacom's documented codes the simulator answers, with their HTTP status and description. */
const CODES = {
  'INS-0': [200, 'Request processed successfully'],
  'INS-2': [401, 'Invalid API Key'],
  'INS-5': [401, 'Transaction cancelled by customer'],
  'INS-6': [401, 'Transaction Failed'],
  'INS-9': [408, 'Request timeout'],
  'INS-10': [409, 'Duplicate Transaction'],
  'INS-18': [400, 'Invalid TransactionID Used'],
  'INS-20': [400, 'Not All Parameters Provided. Please try again.'],
  'INS-21': [400, 'Parameter validations failed. Please try again.'],
  'INS-2001': [400, 'Initiator authentication error.'],
  'INS-2006': [422, 'Insufficient balance'],
  'INS-2051': [400, 'MSISDN invalid.'],
} as const satisfies Record<string, readonly [number, string]>;
type Code = keyof typeof CODES;

const MARKET = '/ipg/v2/vodacomTZN';

const answer = (res: ServerResponse, code: Code, fields: Record<string, string> = {}) =>
  send(res, CODES[code][0], { output_ResponseCode: code, output_ResponseDesc: CODES[code][1], ...fields });

/**
 * The secret a Bearer value carries: RSA PKCS#1 v1.5 decrypted by hand, because Node refuses that padding
 * for private decryption (a padding oracle does not matter to a local stand-in).
 */
function decrypt(privateKey: KeyObject, value: string): string | null {
  try {
    const block = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, Buffer.from(value, 'base64'));
    if (block[0] !== 0 || block[1] !== 2) return null;
    const end = block.indexOf(0, 2);
    return end < 10 ? null : block.subarray(end + 1).toString('utf8');
  } catch {
    return null;
  }
}

const isText = (value: unknown, pattern: RegExp): value is string => typeof value === 'string' && pattern.test(value);

export async function startVodacomMpesaSimulator(options: VodacomSimulatorOptions): Promise<VodacomSimulator> {
  const now = options.now ?? Date.now;
  const sessionTtlMs = options.sessionTtlMs ?? 60 * 60_000;
  const expireAfterMs = options.expireAfterMs ?? 60_000;
  const lateAfterMs = options.lateAfterMs ?? 1_000;
  const payerDelayMs = options.payerDelayMs ?? 20;
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const prompts = new Map<string, VodacomPrompt>();
  /** Reversals by their conversation id: the query answers about them too. */
  const reversals = new Map<string, { transactionId: string }>();
  /** The held payment calls, answered once their prompt is decided. */
  const waiting = new Map<string, () => void>();
  const sessions = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
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

  const transactionId = () => randomBytes(5).toString('hex').toUpperCase();

  const settle = (prompt: VodacomPrompt, code: Code) => {
    prompt.responseCode = code;
    prompt.status = code === 'INS-0' ? 'SUCCESSFUL' : 'FAILED';
    if (code === 'INS-0') prompt.transactionId = transactionId();
    waiting.get(prompt.id)?.();
    waiting.delete(prompt.id);
  };

  const decide = (id: string, code: Code) => {
    const prompt = prompts.get(id);
    if (!prompt || prompt.responseCode !== null) return false;
    settle(prompt, code);
    return true;
  };

  const script = (prompt: VodacomPrompt) => {
    const { id } = prompt;
    const expire = (then?: () => void) =>
      later(expireAfterMs, () => {
        if (decide(id, 'INS-9')) then?.();
      });
    switch (prompt.msisdn.slice(-3)) {
      case VODACOM_SCRIPTS.approve:
      case VODACOM_SCRIPTS.lostAnswer:
      case VODACOM_SCRIPTS.notOurs:
        return later(payerDelayMs, () => decide(id, 'INS-0'));
      case VODACOM_SCRIPTS.decline:
        return later(payerDelayMs, () => decide(id, 'INS-5'));
      case VODACOM_SCRIPTS.insufficientFunds:
        return later(payerDelayMs, () => decide(id, 'INS-2006'));
      case VODACOM_SCRIPTS.wrongPin:
        return later(payerDelayMs, () => decide(id, 'INS-2001'));
      case VODACOM_SCRIPTS.lateSuccess:
        return expire(() =>
          later(lateAfterMs, () => {
            prompt.status = 'SUCCESSFUL';
            prompt.transactionId = transactionId();
          }),
        );
      default:
        // The timeout script, and any other number: waits for the dev phone, and expires like a real prompt.
        return expire();
    }
  };

  /** The conversation id an answer names: another one for the script whose answers are not ours. */
  const echo = (prompt: VodacomPrompt | undefined, asked: string) =>
    prompt?.msisdn.endsWith(VODACOM_SCRIPTS.notOurs) ? randomUUID().replaceAll('-', '') : asked;

  function bearer(req: IncomingMessage): string | null {
    const value = /^Bearer (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
    return value ? decrypt(privateKey, value) : null;
  }

  /** A live session and the Origin header; false (answered) when either is missing. */
  function authorised(req: IncomingMessage, res: ServerResponse): boolean {
    const id = bearer(req);
    const until = id ? sessions.get(id) : undefined;
    if (until === undefined || until <= now()) {
      answer(res, 'INS-2');
      return false;
    }
    if (!header(req, 'origin')) {
      send(res, 400, { output_ResponseCode: 'INS-20', output_ResponseDesc: 'Origin header is required.' });
      return false;
    }
    return true;
  }

  function session(req: IncomingMessage, res: ServerResponse) {
    if (!sameSecret(bearer(req), options.apiKey)) return answer(res, 'INS-2');
    const id = randomBytes(16).toString('hex');
    sessions.set(id, now() + sessionTtlMs);
    issued += 1;
    answer(res, 'INS-0', { output_SessionID: id });
  }

  async function payment(req: IncomingMessage, res: ServerResponse) {
    const body = (await readBody(req).catch(() => null)) as Record<string, unknown> | null;
    const valid =
      body &&
      isText(body.input_Amount, /^\d{1,12}(\.\d{1,2})?$/) &&
      Number(body.input_Amount) > 0 &&
      body.input_Country === 'TZN' &&
      body.input_Currency === 'TZS' &&
      isText(body.input_CustomerMSISDN, /^\d{9,12}$/) &&
      sameSecret(body.input_ServiceProviderCode, options.serviceProviderCode) &&
      isText(body.input_ThirdPartyConversationID, /^[\w-]{1,64}$/) &&
      isText(body.input_TransactionReference, /^[A-Za-z0-9]{1,20}$/) &&
      isText(body.input_PurchasedItemsDesc, /^.{1,256}$/s);
    if (!valid) return answer(res, body ? 'INS-21' : 'INS-20');
    const id = body.input_ThirdPartyConversationID as string;
    const msisdn = body.input_CustomerMSISDN as string;
    if (prompts.has(id)) return answer(res, 'INS-10');
    if (!/^255\d{9}$/.test(msisdn) || msisdn.endsWith(VODACOM_SCRIPTS.unknownPayer)) return answer(res, 'INS-2051');
    const prompt: VodacomPrompt = {
      id,
      provider: 'mpesa_tz',
      msisdn,
      amount: body.input_Amount as string,
      currency: 'TZS',
      status: 'PENDING',
      responseCode: null,
      transactionId: null,
      conversationId: randomBytes(16).toString('hex'),
      transactionReference: body.input_TransactionReference as string,
      description: body.input_PurchasedItemsDesc as string,
      reversed: false,
      createdAt: new Date(now()).toISOString(),
    };
    prompts.set(id, prompt);
    // Single stage answers once the payer has: the call is held until then.
    waiting.set(id, () => {
      if (msisdn.endsWith(VODACOM_SCRIPTS.lostAnswer)) {
        req.socket.destroy();
        return;
      }
      answer(res, prompt.responseCode as Code, {
        output_TransactionID: prompt.transactionId ?? '',
        output_ConversationID: prompt.conversationId,
        output_ThirdPartyConversationID: echo(prompt, id),
      });
    });
    script(prompt);
  }

  function query(res: ServerResponse, search: URLSearchParams) {
    const reference = search.get('input_QueryReference');
    const conversation = search.get('input_ThirdPartyConversationID');
    if (!reference || !conversation || search.get('input_Country') !== 'TZN') return answer(res, 'INS-20');
    if (!sameSecret(search.get('input_ServiceProviderCode'), options.serviceProviderCode)) {
      return answer(res, 'INS-21');
    }
    const reversal = reversals.get(reference);
    if (reversal) {
      return answer(res, 'INS-0', {
        output_ResponseTransactionStatus: 'Completed',
        output_TransactionID: reversal.transactionId,
        output_ThirdPartyConversationID: conversation,
      });
    }
    const prompt =
      prompts.get(reference) ?? [...prompts.values()].find((candidate) => candidate.transactionId === reference);
    if (!prompt) return answer(res, 'INS-18');
    const status = prompt.reversed
      ? 'Reversed'
      : { PENDING: 'Pending', SUCCESSFUL: 'Completed', FAILED: 'Failed' }[prompt.status];
    answer(res, 'INS-0', {
      output_ResponseTransactionStatus: status,
      output_TransactionID: prompt.transactionId ?? '',
      output_ConversationID: prompt.conversationId,
      output_ThirdPartyConversationID: echo(prompt, conversation),
    });
  }

  async function reversal(req: IncomingMessage, res: ServerResponse) {
    const body = (await readBody(req).catch(() => null)) as Record<string, unknown> | null;
    const id = body?.input_ThirdPartyConversationID;
    if (
      !body ||
      !isText(body.input_TransactionID, /^\w{1,40}$/) ||
      !isText(body.input_ReversalAmount, /^\d{1,12}(\.\d{1,2})?$/) ||
      body.input_Country !== 'TZN' ||
      !isText(id, /^[\w-]{1,64}$/)
    ) {
      return answer(res, 'INS-20');
    }
    if (!sameSecret(body.input_ServiceProviderCode, options.serviceProviderCode)) return answer(res, 'INS-21');
    if (reversals.has(id) || prompts.has(id)) return answer(res, 'INS-10');
    const prompt = [...prompts.values()].find((candidate) => candidate.transactionId === body.input_TransactionID);
    if (!prompt) return answer(res, 'INS-18');
    if (
      prompt.status !== 'SUCCESSFUL' ||
      prompt.reversed ||
      Number(body.input_ReversalAmount) !== Number(prompt.amount)
    ) {
      return answer(res, 'INS-6');
    }
    prompt.reversed = true;
    const reversed = { transactionId: transactionId() };
    reversals.set(id, reversed);
    answer(res, 'INS-0', {
      output_TransactionID: reversed.transactionId,
      output_ConversationID: randomBytes(16).toString('hex'),
      output_ThirdPartyConversationID: id,
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
        return send(res, decide(id, decision[2] === 'approve' ? 'INS-0' : 'INS-5') ? 204 : 409);
      }
      return send(res, 404);
    }

    if (mode === 'close') {
      req.socket.destroy();
      return;
    }
    if (mode === '503') return send(res, 503, { output_ResponseCode: 'INS-16', output_ResponseDesc: 'Overloaded' });
    lastHeaders = { ...req.headers };

    if (method === 'GET' && path === `${MARKET}/getSession/`) return session(req, res);
    if (!authorised(req, res)) return;
    if (method === 'POST' && path === `${MARKET}/c2bPayment/singleStage/`) return payment(req, res);
    if (method === 'GET' && path === `${MARKET}/queryTransactionStatus/`) return query(res, url.searchParams);
    if (method === 'PUT' && path === `${MARKET}/reversal/`) return reversal(req, res);
    send(res, 404, { output_ResponseCode: 'INS-404', output_ResponseDesc: 'Not found' });
  }

  const server = await listenSimulator(
    route,
    (res) => send(res, 500, { output_ResponseCode: 'INS-1', output_ResponseDesc: 'Internal Error' }),
    options,
  );

  return {
    url: server.url,
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await server.close();
    },
    approve: (id) => decide(id, 'INS-0'),
    decline: (id) => decide(id, 'INS-5'),
    prompts: () => [...prompts.values()].map((prompt) => ({ ...prompt })),
    setMode(next) {
      mode = next;
    },
    sessionsIssued: () => issued,
    lastHeaders: () => ({ ...lastHeaders }),
  };
}
