import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sameSecret, send, readBody, header, isSimulatorMode, listenSimulator, type SimulatorMode } from './http.ts';

/**
 * A local stand-in for Safaricom's Daraja API (M-Pesa Express, "STK Push"), for development and tests: the
 * same paths, auth, bodies and codes as Daraja documents, so the adapter talks to it exactly as to
 * Safaricom. Its prompts live in memory (it is the provider's own state, not ours).
 *
 * - `GET /oauth/v1/generate?grant_type=client_credentials` — Basic (consumer key : consumer secret), else
 *   400; answers `{ access_token, expires_in }` (a string of seconds).
 * - `POST /mpesa/stkpush/v1/processrequest` — Bearer token (else 401, errorCode 404.001.03); the body's
 *   shortcode, `Password` = base64(shortcode + passkey + Timestamp) and fields checked (else 400,
 *   errorCode 400.002.02); answers `{ MerchantRequestID, CheckoutRequestID, ResponseCode: "0", … }`.
 * - `POST /mpesa/stkpushquery/v1/query` — the same checks; `{ ResultCode, ResultDesc, … }` once the payer
 *   answered, the error 500.001.1001 "The transaction is being processed" while the prompt waits.
 * - The callback: a POST of `{ Body: { stkCallback } }` to the prompt's `CallBackURL`, unsigned, like
 *   Safaricom's; `CallbackMetadata` (Amount, MpesaReceiptNumber, TransactionDate, PhoneNumber) on success only.
 * - `POST /mpesa/reversal/v1/request` (Reversals) — Bearer token; `CommandID` TransactionReversal, a receipt-shaped
 *   `TransactionID`, whole-shilling `Amount`, `ReceiverParty` = the shortcode, `RecieverIdentifierType` "11",
 *   `ResultURL`, `QueueTimeOutURL`, `Remarks` (2–100 characters) checked (else 400, errorCode 400.002.02 "Bad
 *   Request - Invalid <field>"); answers `{ OriginatorConversationID, ConversationID, ResponseCode: "0",
 *   ResponseDescription }`. Like M-Pesa, it decides later and POSTs `{ Result: { ResultType, ResultCode,
 *   ResultDesc, OriginatorConversationID, ConversationID, TransactionID, ResultParameters?, ReferenceData } }` to
 *   `ResultURL` after `resultDelayMs`: 2001 when `Initiator` or `SecurityCredential` is not the configured one,
 *   R000002 for a receipt it never issued (or one of a prompt that did not succeed), R000001 for a receipt
 *   already reversed, else the receipt's script (below). Receipts are the `MpesaReceiptNumber`s of its callbacks.
 *
 * The payer's phone is `/_simulator/…`, the same paths as the MoMo simulator's: `GET /_simulator/prompts`,
 * `POST /_simulator/prompts/{id}/approve`, `POST /_simulator/prompts/{id}/decline` (id = CheckoutRequestID),
 * and `POST /_simulator/mode` with `{ "mode": "normal" | "503" | "429" | "close" }`.
 *
 * Scripted outcomes, by the last three digits of `PhoneNumber` (MPESA_SCRIPTS, MoMo's table; Daraja's
 * query states no amount, so 888 is a wrong PIN instead of a wrong amount on record):
 * | ends in | what happens                                                                                 |
 * | ------- | -------------------------------------------------------------------------------------------- |
 * | other   | pending until approved or declined on `/_simulator/`; then ResultCode 0 / 1032, one callback  |
 * | 111     | approved by the payer at once: ResultCode 0, one callback                                    |
 * | 222     | cancelled by the payer at once: 1032, one callback                                           |
 * | 333     | 1 (insufficient balance), one callback                                                       |
 * | 444     | pending, then 1037 (payer unreachable) after `expireAfterMs`; no callback at all             |
 * | 555     | ResultCode 0, and the same callback is sent twice                                            |
 * | 666     | 1037 (no callback) after `expireAfterMs`, then ResultCode 0 `lateAfterMs` later, with a callback |
 * | 777     | ResultCode 0, but the callback's Amount is ten times the amount asked                        |
 * | 888     | 2001 (wrong PIN entered), one callback                                                       |
 * | 999     | the push itself is refused: 400, errorCode 400.002.02 "Bad Request - Invalid PhoneNumber"    |
 *
 * Scripted reversals, per receipt (`scriptReversal`, or `POST /_simulator/reversals/{receipt}` with
 * `{ "outcome": … }`; `reversalScript` for the others, `reversed` by default):
 * | outcome         | what happens                                                                            |
 * | --------------- | --------------------------------------------------------------------------------------- |
 * | `reversed`      | Result 0 with its ResultParameters; the receipt is reversed (a second reversal: R000001) |
 * | `failed`        | Result 1 "The balance is insufficient" (the shortcode cannot cover it); not reversed    |
 * | `queue_timeout` | no Result; after `queueTimeoutMs` a timeout notice POSTed to `QueueTimeOutURL`          |
 * | `no_result`     | nothing is ever sent                                                                    |
 * Daraja documents no body for the queue timeout notice; the simulator sends the Result envelope with
 * ResultType 1 and its own ResultCode `QueueTimeout`, so only its shape is Daraja's.
 */
export const MPESA_SCRIPTS = {
  approve: '111',
  decline: '222',
  insufficientFunds: '333',
  timeout: '444',
  duplicateCallback: '555',
  lateSuccess: '666',
  wrongAmountCallback: '777',
  wrongPin: '888',
  unknownPayer: '999',
} as const;

export const REVERSAL_OUTCOMES = ['reversed', 'failed', 'queue_timeout', 'no_result'] as const;
export type ReversalOutcome = (typeof REVERSAL_OUTCOMES)[number];

/** A reversal request as the simulator received it (Daraja's field names), and what became of it. */
export interface MpesaReversal {
  OriginatorConversationID: string;
  ConversationID: string;
  Initiator: string;
  TransactionID: string;
  Amount: number;
  ReceiverParty: string;
  ResultURL: string;
  QueueTimeOutURL: string;
  Remarks: string;
  Occasion: string | null;
  /** `queued` until M-Pesa's turn, then `sent` (its Result, ResultCode below), `timed_out` (the notice) or `dropped`. */
  status: 'queued' | 'sent' | 'timed_out' | 'dropped';
  ResultCode: number | string | null;
}

export interface MpesaPrompt {
  /** The fields every simulator lists its prompts with (the dev page's): id is the CheckoutRequestID. */
  id: string;
  provider: 'mpesa';
  msisdn: string;
  /** Whole shillings, as text. */
  amount: string;
  currency: 'KES';
  status: 'PENDING' | 'SUCCESSFUL' | 'FAILED';
  createdAt: string;
  /** Daraja's own. */
  MerchantRequestID: string;
  CheckoutRequestID: string;
  BusinessShortCode: string;
  Amount: number;
  PartyA: string;
  PhoneNumber: string;
  CallBackURL: string;
  AccountReference: string;
  TransactionDesc: string;
  ResultCode: number | null;
  ResultDesc: string | null;
  MpesaReceiptNumber: string | null;
}

export interface MpesaSimulatorOptions {
  port?: number;
  host?: string;
  consumerKey: string;
  consumerSecret: string;
  shortcode: string;
  passkey: string;
  /** The `expires_in` of the tokens it issues (Daraja: 3599). */
  tokenTtlSeconds?: number;
  /** How long an unanswered prompt stays pending before it fails with 1037. */
  expireAfterMs?: number;
  /** For the late-success script: how long after expiry the success comes. */
  lateAfterMs?: number;
  /** For the scripts that decide at once: how long "at once" is (the payer pressing a key). */
  payerDelayMs?: number;
  /**
   * The shortcode's reversal initiator and its security credential, as Daraja's portal set them up: a reversal
   * naming others gets Result 2001. Unset: no initiator exists, and every reversal gets 2001.
   */
  initiatorName?: string;
  securityCredential?: string;
  /** How long M-Pesa takes to decide a reversal and POST its Result. */
  resultDelayMs?: number;
  /** For the `queue_timeout` outcome: how long until the timeout notice. */
  queueTimeoutMs?: number;
  /** The outcome of a reversal of a receipt not scripted on its own. */
  reversalScript?: ReversalOutcome;
  now?: () => number;
}

export interface MpesaSimulator {
  url: string;
  stop(): Promise<void>;
  approve(checkoutRequestId: string): boolean;
  decline(checkoutRequestId: string): boolean;
  prompts(): MpesaPrompt[];
  setMode(mode: SimulatorMode): void;
  /** How many tokens it has issued. */
  tokensIssued(): number;
  /** Callbacks it has sent (or tried to), in order. */
  callbacksSent(): { url: string; body: Record<string, unknown>; status: number | null }[];
  /** What the next reversal of `receipt` (an MpesaReceiptNumber) does. */
  scriptReversal(receipt: string, outcome: ReversalOutcome): void;
  /** Reversal requests it accepted, in order. */
  reversals(): MpesaReversal[];
  /** The receipts it has reversed. */
  reversedReceipts(): string[];
  /** Reversal Results and timeout notices it has sent (or tried to), in order. */
  resultsSent(): { url: string; body: Record<string, unknown>; status: number | null }[];
}

const TIMESTAMP = /^\d{14}$/;
/** An M-Pesa receipt number: ten capitals and digits (the simulator's are hexadecimal). */
const RECEIPT = /^[A-Z0-9]{10}$/;
const KENYAN_MSISDN = /^254\d{9}$/;

/** Daraja's ResultDesc of the codes the simulator answers. */
const RESULT_DESCRIPTIONS: Record<number, string> = {
  0: 'The service request is processed successfully.',
  1: 'The balance is insufficient for the transaction.',
  1032: 'Request cancelled by user',
  1037: 'DS timeout user cannot be reached',
  2001: 'The initiator information is invalid.',
};

/** Daraja's ResultDesc of the reversal Results the simulator sends. */
const REVERSAL_DESCRIPTIONS: Record<string, string> = {
  '0': 'The service request is processed successfully.',
  '1': 'The balance is insufficient for the transaction.',
  '2001': 'The initiator information is invalid.',
  R000001: 'The transaction has already been reversed.',
  R000002: 'The OriginalTransactionID is invalid.',
  QueueTimeout: 'The request timed out in the queue before M-Pesa processed it.',
};

/** Daraja's error body. */
const failure = (res: ServerResponse, status: number, errorCode: string, errorMessage: string) =>
  send(res, status, { requestId: `${randomBytes(4).toString('hex')}-${Date.now()}`, errorCode, errorMessage });

/** Daraja takes its numbers as JSON numbers or strings of digits. */
const digitsOf = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : typeof value === 'string' ? value : null;

/** yyyyMMddHHmmss in East Africa Time (UTC+3). */
const eatStamp = (at: number) => new Date(at + 3 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);

export async function startMpesaSimulator(options: MpesaSimulatorOptions): Promise<MpesaSimulator> {
  const now = options.now ?? Date.now;
  const tokenTtl = options.tokenTtlSeconds ?? 3599;
  const expireAfterMs = options.expireAfterMs ?? 120_000;
  const lateAfterMs = options.lateAfterMs ?? 1_000;
  const payerDelayMs = options.payerDelayMs ?? 20;
  const prompts = new Map<string, MpesaPrompt>();
  const tokens = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const callbacks: { url: string; body: Record<string, unknown>; status: number | null }[] = [];
  const deliveries = new Set<Promise<void>>();
  const resultDelayMs = options.resultDelayMs ?? 1_000;
  const queueTimeoutMs = options.queueTimeoutMs ?? 30_000;
  const reversals = new Map<string, MpesaReversal>();
  const reversalScripts = new Map<string, ReversalOutcome>();
  const reversed = new Set<string>();
  const results: { url: string; body: Record<string, unknown>; status: number | null }[] = [];
  let issued = 0;
  let sequence = 0;
  let mode: SimulatorMode = 'normal';
  /** Its own address, known once it listens: Daraja names its internal result queue in ReferenceData. */
  let selfUrl = '';

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  /** Daraja's callback body for a decided prompt; `amount` overrides the Amount item (a scripted lie). */
  const callbackBody = (prompt: MpesaPrompt, amount = prompt.Amount) => ({
    Body: {
      stkCallback: {
        MerchantRequestID: prompt.MerchantRequestID,
        CheckoutRequestID: prompt.CheckoutRequestID,
        ResultCode: prompt.ResultCode,
        ResultDesc: prompt.ResultDesc,
        ...(prompt.ResultCode === 0
          ? {
              CallbackMetadata: {
                Item: [
                  { Name: 'Amount', Value: amount },
                  { Name: 'MpesaReceiptNumber', Value: prompt.MpesaReceiptNumber },
                  { Name: 'TransactionDate', Value: Number(eatStamp(now())) },
                  { Name: 'PhoneNumber', Value: Number(prompt.PhoneNumber) },
                ],
              },
            }
          : {}),
      },
    },
  });

  /** POSTs `body` to `url` over a real socket, once, noting it (and its answer's status) in `log`. */
  const deliver = (log: typeof callbacks, url: string, body: Record<string, unknown>) => {
    const entry = { url, body, status: null as number | null };
    log.push(entry);
    const delivery = fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (response) => {
        entry.status = response.status;
        await response.body?.cancel();
      })
      // Safaricom does not retry a callback that fails; neither does its stand-in.
      .catch(() => undefined)
      .finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  };

  const callback = (prompt: MpesaPrompt, amount?: number) =>
    deliver(callbacks, prompt.CallBackURL, callbackBody(prompt, amount));

  const settle = (prompt: MpesaPrompt, resultCode: number) => {
    prompt.status = resultCode === 0 ? 'SUCCESSFUL' : 'FAILED';
    prompt.ResultCode = resultCode;
    prompt.ResultDesc = RESULT_DESCRIPTIONS[resultCode] ?? 'The service request has failed.';
    if (resultCode === 0) prompt.MpesaReceiptNumber = randomBytes(5).toString('hex').toUpperCase();
  };

  const decide = (id: string, resultCode: number) => {
    const prompt = prompts.get(id);
    if (!prompt || prompt.status !== 'PENDING') return false;
    settle(prompt, resultCode);
    callback(prompt);
    return true;
  };

  const script = (prompt: MpesaPrompt) => {
    const id = prompt.CheckoutRequestID;
    const expire = (then?: () => void) =>
      later(expireAfterMs, () => {
        if (prompt.status !== 'PENDING') return;
        settle(prompt, 1037);
        then?.();
      });
    switch (prompt.PhoneNumber.slice(-3)) {
      case MPESA_SCRIPTS.approve:
        return later(payerDelayMs, () => decide(id, 0));
      case MPESA_SCRIPTS.decline:
        return later(payerDelayMs, () => decide(id, 1032));
      case MPESA_SCRIPTS.insufficientFunds:
        return later(payerDelayMs, () => decide(id, 1));
      case MPESA_SCRIPTS.wrongPin:
        return later(payerDelayMs, () => decide(id, 2001));
      case MPESA_SCRIPTS.timeout:
        return expire();
      case MPESA_SCRIPTS.duplicateCallback:
        return later(payerDelayMs, () => {
          if (decide(id, 0)) callback(prompt);
        });
      case MPESA_SCRIPTS.lateSuccess:
        return expire(() =>
          later(lateAfterMs, () => {
            settle(prompt, 0);
            callback(prompt);
          }),
        );
      case MPESA_SCRIPTS.wrongAmountCallback:
        return later(payerDelayMs, () => {
          if (prompt.status !== 'PENDING') return;
          settle(prompt, 0);
          callback(prompt, prompt.Amount * 10);
        });
      default:
        // Waits for the payer (the dev page), and expires like a real prompt when nobody answers.
        return expire();
    }
  };

  /** Daraja's reversal Result for `code`; a success names the new reversal receipt and its parameters. */
  const reversalResult = (reversal: MpesaReversal, code: number | string, prompt?: MpesaPrompt) => ({
    Result: {
      ResultType: code === 'QueueTimeout' ? 1 : 0,
      ResultCode: code,
      ResultDesc: REVERSAL_DESCRIPTIONS[String(code)] ?? 'The service request has failed.',
      OriginatorConversationID: reversal.OriginatorConversationID,
      ConversationID: reversal.ConversationID,
      // A failed reversal has no receipt of its own: Daraja sends a zeroed one.
      TransactionID:
        code === 0 ? randomBytes(5).toString('hex').toUpperCase() : `${reversal.TransactionID.slice(0, 3)}0000000`,
      ...(code === 0 && prompt
        ? {
            ResultParameters: {
              ResultParameter: [
                { Key: 'Amount', Value: reversal.Amount },
                { Key: 'TransCompletedTime', Value: Number(eatStamp(now())) },
                { Key: 'OriginalTransactionID', Value: reversal.TransactionID },
                { Key: 'Charge', Value: 0 },
                { Key: 'CreditPartyPublicName', Value: `${prompt.PhoneNumber} - M-PESA CUSTOMER` },
                { Key: 'DebitPartyPublicName', Value: `${options.shortcode} - Simulated paybill` },
              ],
            },
          }
        : {}),
      ReferenceData: {
        ReferenceItem: { Key: 'QueueTimeoutURL', Value: `${selfUrl}/mpesa/reversalresults/v1/submit` },
      },
    },
  });

  const initiatorKnown = (initiator: string, credential: string) =>
    options.initiatorName !== undefined &&
    options.securityCredential !== undefined &&
    sameSecret(initiator, options.initiatorName) &&
    sameSecret(credential, options.securityCredential);

  /** M-Pesa's turn: what it makes of a queued reversal, decided when it gets to it (not when accepted). */
  const processReversal = (reversal: MpesaReversal, credential: string, outcome: ReversalOutcome) => {
    if (outcome === 'no_result') {
      reversal.status = 'dropped';
      return;
    }
    if (outcome === 'queue_timeout') {
      reversal.status = 'timed_out';
      deliver(results, reversal.QueueTimeOutURL, reversalResult(reversal, 'QueueTimeout'));
      return;
    }
    const prompt = [...prompts.values()].find(
      (candidate) => candidate.status === 'SUCCESSFUL' && candidate.MpesaReceiptNumber === reversal.TransactionID,
    );
    let code: number | string;
    if (!initiatorKnown(reversal.Initiator, credential)) code = 2001;
    else if (!prompt) code = 'R000002';
    else if (reversed.has(reversal.TransactionID)) code = 'R000001';
    else if (outcome === 'failed') code = 1;
    else {
      code = 0;
      reversed.add(reversal.TransactionID);
    }
    reversal.status = 'sent';
    reversal.ResultCode = code;
    deliver(results, reversal.ResultURL, reversalResult(reversal, code, prompt));
  };

  async function reversal(req: IncomingMessage, res: ServerResponse) {
    const body = (await readBody(req).catch(() => undefined)) as Record<string, unknown> | null | undefined;
    const invalid = (field: string) => failure(res, 400, '400.002.02', `Bad Request - Invalid ${field}`);
    if (!body || typeof body !== 'object') return invalid('Body');
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const webUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
    const initiator = text(body.Initiator);
    const credential = text(body.SecurityCredential);
    const transactionId = text(body.TransactionID);
    const amount = Number(digitsOf(body.Amount) || Number.NaN);
    const resultUrl = text(body.ResultURL);
    const timeoutUrl = text(body.QueueTimeOutURL);
    const remarks = text(body.Remarks);
    const occasion = body.Occasion;
    if (!initiator) return invalid('Initiator');
    if (!credential) return invalid('SecurityCredential');
    if (body.CommandID !== 'TransactionReversal') return invalid('CommandID');
    if (!RECEIPT.test(transactionId)) return invalid('TransactionID');
    if (!Number.isSafeInteger(amount) || amount < 1) return invalid('Amount');
    if (digitsOf(body.ReceiverParty) !== options.shortcode) return invalid('ReceiverParty');
    if (digitsOf(body.RecieverIdentifierType) !== '11') return invalid('RecieverIdentifierType');
    if (!webUrl(resultUrl)) return invalid('ResultURL');
    if (!webUrl(timeoutUrl)) return invalid('QueueTimeOutURL');
    if (remarks.length < 2 || remarks.length > 100) return invalid('Remarks');
    if (occasion !== undefined && (typeof occasion !== 'string' || occasion.length > 100)) return invalid('Occasion');
    sequence += 1;
    const entry: MpesaReversal = {
      // Daraja's shapes: "f1e2-4b95-a71d-b30d3cdbb7a7735297" and "AG_20210706_20106e9209f64bebd05b".
      OriginatorConversationID: `${randomUUID().slice(9)}${sequence}`,
      ConversationID: `AG_${eatStamp(now()).slice(0, 8)}_${randomBytes(10).toString('hex')}`,
      Initiator: initiator,
      TransactionID: transactionId,
      Amount: amount,
      ReceiverParty: options.shortcode,
      ResultURL: resultUrl,
      QueueTimeOutURL: timeoutUrl,
      Remarks: remarks,
      Occasion: typeof occasion === 'string' ? occasion : null,
      status: 'queued',
      ResultCode: null,
    };
    reversals.set(entry.ConversationID, entry);
    const outcome = reversalScripts.get(transactionId) ?? options.reversalScript ?? 'reversed';
    reversalScripts.delete(transactionId);
    later(outcome === 'queue_timeout' ? queueTimeoutMs : resultDelayMs, () =>
      processReversal(entry, credential, outcome),
    );
    send(res, 200, {
      OriginatorConversationID: entry.OriginatorConversationID,
      ConversationID: entry.ConversationID,
      ResponseCode: '0',
      ResponseDescription: 'Accept the service request successfully.',
    });
  }

  function bearer(req: IncomingMessage, res: ServerResponse): boolean {
    const value = /^Bearer (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
    const until = value ? tokens.get(value) : undefined;
    if (until === undefined || until <= now()) {
      failure(res, 401, '404.001.03', 'Invalid Access Token');
      return false;
    }
    return true;
  }

  function token(req: IncomingMessage, res: ServerResponse, url: URL) {
    const basic = /^Basic (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
    const [key, ...rest] = Buffer.from(basic ?? '', 'base64')
      .toString('utf8')
      .split(':');
    if (url.searchParams.get('grant_type') !== 'client_credentials') {
      return failure(res, 400, '400.008.02', 'Invalid grant type passed');
    }
    if (!basic || !sameSecret(key, options.consumerKey) || !sameSecret(rest.join(':'), options.consumerSecret)) {
      return failure(res, 400, '400.008.01', 'Invalid Authentication passed');
    }
    const value = randomBytes(21).toString('base64url');
    tokens.set(value, now() + tokenTtl * 1000);
    issued += 1;
    send(res, 200, { access_token: value, expires_in: String(tokenTtl) });
  }

  /** The body's shortcode and password, as both requests carry them; answers the body, or null (answered). */
  async function credentials(req: IncomingMessage, res: ServerResponse) {
    const body = (await readBody(req).catch(() => undefined)) as Record<string, unknown> | null | undefined;
    if (!body || typeof body !== 'object') {
      failure(res, 400, '400.002.02', 'Bad Request - Invalid Body');
      return null;
    }
    if (digitsOf(body.BusinessShortCode) !== options.shortcode) {
      failure(res, 400, '400.002.02', 'Bad Request - Invalid BusinessShortCode');
      return null;
    }
    const timestamp = typeof body.Timestamp === 'string' ? body.Timestamp : '';
    if (!TIMESTAMP.test(timestamp)) {
      failure(res, 400, '400.002.02', 'Bad Request - Invalid Timestamp');
      return null;
    }
    const password = Buffer.from(`${options.shortcode}${options.passkey}${timestamp}`).toString('base64');
    if (typeof body.Password !== 'string' || !sameSecret(body.Password, password)) {
      failure(res, 400, '400.002.02', 'Bad Request - Invalid Password');
      return null;
    }
    return body;
  }

  async function push(req: IncomingMessage, res: ServerResponse) {
    const body = await credentials(req, res);
    if (!body) return;
    const amount = body.Amount;
    const phone = digitsOf(body.PhoneNumber) ?? '';
    const callbackUrl = typeof body.CallBackURL === 'string' ? body.CallBackURL : '';
    const invalid = (field: string) => failure(res, 400, '400.002.02', `Bad Request - Invalid ${field}`);
    if (body.TransactionType !== 'CustomerPayBillOnline') return invalid('TransactionType');
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1) return invalid('Amount');
    if (!KENYAN_MSISDN.test(phone) || phone.endsWith(MPESA_SCRIPTS.unknownPayer)) return invalid('PhoneNumber');
    if (digitsOf(body.PartyA) !== phone) return invalid('PartyA');
    if (digitsOf(body.PartyB) !== options.shortcode) return invalid('PartyB');
    if (!URL.canParse(callbackUrl) || !/^https?:$/.test(new URL(callbackUrl).protocol)) return invalid('CallBackURL');
    if (typeof body.AccountReference !== 'string' || !body.AccountReference || body.AccountReference.length > 12) {
      return invalid('AccountReference');
    }
    if (typeof body.TransactionDesc !== 'string' || !body.TransactionDesc || body.TransactionDesc.length > 13) {
      return invalid('TransactionDesc');
    }
    sequence += 1;
    // Daraja's shape: ws_CO_ + ddMMyyyyHHmmss + a sequence + the payer's number.
    const stamp = eatStamp(now());
    const id = `ws_CO_${stamp.slice(6, 8)}${stamp.slice(4, 6)}${stamp.slice(0, 4)}${stamp.slice(8)}${String(sequence).padStart(4, '0')}${phone}`;
    const prompt: MpesaPrompt = {
      id,
      provider: 'mpesa',
      msisdn: phone,
      amount: String(amount),
      currency: 'KES',
      status: 'PENDING',
      createdAt: new Date(now()).toISOString(),
      MerchantRequestID: `${randomUUID().slice(0, 8)}-${sequence}`,
      CheckoutRequestID: id,
      BusinessShortCode: options.shortcode,
      Amount: amount,
      PartyA: phone,
      PhoneNumber: phone,
      CallBackURL: callbackUrl,
      AccountReference: body.AccountReference,
      TransactionDesc: body.TransactionDesc,
      ResultCode: null,
      ResultDesc: null,
      MpesaReceiptNumber: null,
    };
    prompts.set(id, prompt);
    script(prompt);
    send(res, 200, {
      MerchantRequestID: prompt.MerchantRequestID,
      CheckoutRequestID: id,
      ResponseCode: '0',
      ResponseDescription: 'Success. Request accepted for processing',
      CustomerMessage: 'Success. Request accepted for processing',
    });
  }

  async function query(req: IncomingMessage, res: ServerResponse) {
    const body = await credentials(req, res);
    if (!body) return;
    const prompt = typeof body.CheckoutRequestID === 'string' ? prompts.get(body.CheckoutRequestID) : undefined;
    if (!prompt) return failure(res, 400, '400.002.02', 'Bad Request - Invalid CheckoutRequestID');
    if (prompt.status === 'PENDING') return failure(res, 500, '500.001.1001', 'The transaction is being processed');
    send(res, 200, {
      ResponseCode: '0',
      ResponseDescription: 'The service request has been accepted successsfully',
      MerchantRequestID: prompt.MerchantRequestID,
      CheckoutRequestID: prompt.CheckoutRequestID,
      ResultCode: String(prompt.ResultCode),
      ResultDesc: prompt.ResultDesc,
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
      const script = /^\/_simulator\/reversals\/([^/]+)$/.exec(path);
      if (method === 'POST' && script) {
        const body = (await readBody(req).catch(() => null)) as { outcome?: unknown } | null;
        const outcome = REVERSAL_OUTCOMES.find((candidate) => candidate === body?.outcome);
        if (!outcome) return send(res, 400);
        reversalScripts.set(decodeURIComponent(script[1]!), outcome);
        return send(res, 204);
      }
      const decision = /^\/_simulator\/prompts\/([^/]+)\/(approve|decline)$/.exec(path);
      if (method === 'POST' && decision) {
        const id = decodeURIComponent(decision[1]!);
        return send(res, decide(id, decision[2] === 'approve' ? 0 : 1032) ? 204 : 409);
      }
      return send(res, 404);
    }

    if (mode === 'close') {
      req.socket.destroy();
      return;
    }
    if (mode === '503') return failure(res, 503, '503.001.01', 'Service Unavailable');
    if (mode === '429') return failure(res, 429, '429.001.01', 'Too Many Requests');

    if (method === 'GET' && path === '/oauth/v1/generate') return token(req, res, url);
    if (method === 'POST' && path === '/mpesa/stkpush/v1/processrequest') {
      if (bearer(req, res)) await push(req, res);
      return;
    }
    if (method === 'POST' && path === '/mpesa/stkpushquery/v1/query') {
      if (bearer(req, res)) await query(req, res);
      return;
    }
    if (method === 'POST' && path === '/mpesa/reversal/v1/request') {
      if (bearer(req, res)) await reversal(req, res);
      return;
    }
    failure(res, 404, '404.001.01', 'Resource not found');
  }

  const server = await listenSimulator(
    route,
    (res) => failure(res, 500, '500.003.02', 'Internal Server Error'),
    options,
  );
  selfUrl = server.url;

  return {
    url: server.url,
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...deliveries]);
      await server.close();
    },
    approve: (id) => decide(id, 0),
    decline: (id) => decide(id, 1032),
    prompts: () => [...prompts.values()].map((prompt) => ({ ...prompt })),
    setMode(next) {
      mode = next;
    },
    tokensIssued: () => issued,
    callbacksSent: () => callbacks.map((entry) => ({ ...entry })),
    scriptReversal(receipt, outcome) {
      reversalScripts.set(receipt, outcome);
    },
    reversals: () => [...reversals.values()].map((entry) => ({ ...entry })),
    reversedReceipts: () => [...reversed],
    resultsSent: () => results.map((entry) => ({ ...entry })),
  };
}
