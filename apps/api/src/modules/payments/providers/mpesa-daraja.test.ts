import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATED_PROVIDERS } from '../../../dev/payment-simulators.ts';
import { parseEnv } from '../../../lib/env.ts';
import { MPESA_SCRIPTS, startMpesaSimulator, type MpesaSimulator } from '../../../simulators/mpesa-daraja.ts';
import { mpesaProviderFrom } from '../mobile-money-providers.ts';
import { ProviderError, type MobileMoneyStatus } from './mobile-money.ts';
import {
  accountReferenceOf,
  createMpesaDarajaProvider,
  darajaPassword,
  darajaTimestamp,
  type MpesaDarajaConfig,
} from './mpesa-daraja.ts';
import type { RefundRequest } from './refunds.ts';

/*
 * The Daraja adapter against the Daraja simulator over real sockets: every scripted outcome, the token's
 * life, the password and auth checks, and an unreachable provider. The callbacks the simulator sends land
 * on a small HTTP server here, as they would on the api.
 */

const CREDENTIALS = {
  consumerKey: 'mpesa-consumer-key-for-tests',
  consumerSecret: 'mpesa-consumer-secret',
  shortcode: '174379',
  passkey: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
  // The reversal initiator and its encrypted password, as Daraja's portal would give them.
  initiatorName: 'kaminuza-reversals',
  securityCredential: 'c2VjdXJpdHktY3JlZGVudGlhbC1mb3ItdGVzdHM=',
};
// Margins wide enough for a loaded machine: each step is polled for, never slept on.
const EXPIRE_AFTER_MS = 600;
const LATE_AFTER_MS = 800;
const RESULT_DELAY_MS = 20;
const QUEUE_TIMEOUT_MS = 150;

let simulator: MpesaSimulator;
let receiver: Server;
let callbackUrl: string;
/** Where reversal Results come, followed by the refund reference (as the api's result route would take it). */
let resultBase: string;
const received: {
  method: string;
  url: string;
  body: { Body?: { stkCallback?: Record<string, unknown> }; Result?: Record<string, unknown> };
}[] = [];

beforeAll(async () => {
  simulator = await startMpesaSimulator({
    ...CREDENTIALS,
    expireAfterMs: EXPIRE_AFTER_MS,
    lateAfterMs: LATE_AFTER_MS,
    payerDelayMs: 10,
    resultDelayMs: RESULT_DELAY_MS,
    queueTimeoutMs: QUEUE_TIMEOUT_MS,
  });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/v1/payments/callbacks/mpesa`;
  resultBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/v1/payments/refunds/mpesa`;
  mpesa = adapter();
});

afterAll(async () => {
  await simulator.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

afterEach(() => simulator.setMode('normal'));

const adapter = (overrides: Partial<MpesaDarajaConfig> = {}) =>
  createMpesaDarajaProvider({ baseUrl: simulator.url, timeoutMs: 2000, ...CREDENTIALS, ...overrides });

let mpesa: ReturnType<typeof adapter>;

/** A payment as the status call names it: Daraja reads the CheckoutRequestID. */
const paymentRef = (reference: string, providerReference: string | null) => ({
  reference,
  providerReference,
  currency: 'KES',
  country: 'KE',
});

/** Asks the payer (a number ending in `script`) for 1500 KES; answers our reference and Daraja's id. */
async function prompt(script: string, amount = 150_000, client = mpesa) {
  const reference = randomUUID();
  const { providerReference } = await client.requestPayment({
    reference,
    amount,
    currency: 'KES',
    msisdn: `254712345${script}`,
    country: 'KE',
    payerMessage: 'Application fee',
    payeeNote: 'University of Nairobi — Nursing',
    callbackUrl,
  });
  return { reference, id: providerReference!, ref: paymentRef(reference, providerReference) };
}

/** The status once it is no longer `state` (the simulator decides on timers). */
async function statusWhenNot(ref: ReturnType<typeof paymentRef>, state: MobileMoneyStatus['state'], within = 3000) {
  const until = Date.now() + within;
  for (;;) {
    const status = await mpesa.status(ref);
    if (status.state !== state || Date.now() > until) return status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const callbacksFor = (id: string) => received.filter(({ body }) => body.Body?.stkCallback?.CheckoutRequestID === id);
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The callbacks received for a prompt once at least `count` have come (and a moment more for any extra). */
async function callbacksAfter(id: string, count: number, within = 5000) {
  const until = Date.now() + within;
  while (callbacksFor(id).length < count && Date.now() < until) await settle(20);
  await settle(100);
  return callbacksFor(id);
}

const metadata = (callback: { body: { Body?: { stkCallback?: Record<string, unknown> } } } | undefined) =>
  Object.fromEntries(
    (
      (callback?.body.Body?.stkCallback?.CallbackMetadata as { Item?: { Name: string; Value: unknown }[] })?.Item ?? []
    ).map(({ Name, Value }) => [Name, Value]),
  );

describe('Daraja’s request fields', () => {
  it('stamps in East Africa Time and signs with base64(shortcode + passkey + timestamp)', () => {
    expect(darajaTimestamp(Date.UTC(2026, 0, 31, 22, 5, 9))).toBe('20260201010509');
    expect(darajaPassword('174379', 'passkey', '20260201010509')).toBe(
      Buffer.from('174379passkey20260201010509').toString('base64'),
    );
  });

  it('derives a 12-character account reference from ours', () => {
    expect(accountReferenceOf('0b6f3c1e-88aa-4f1b-9c2d-3e4f5a6b7c8d')).toBe('0B6F3C1E88AA');
  });
});

describe('the M-Pesa adapter against the simulator', () => {
  it('sends the published request and keeps Daraja’s CheckoutRequestID', async () => {
    const { reference, id } = await prompt('123', 250_000);
    expect(id).toMatch(/^ws_CO_\d+$/);
    const [sent] = simulator.prompts().filter((p) => p.CheckoutRequestID === id);
    expect(sent).toMatchObject({
      id,
      provider: 'mpesa',
      msisdn: '254712345123',
      amount: '2500',
      currency: 'KES',
      status: 'PENDING',
      BusinessShortCode: '174379',
      Amount: 2500,
      PartyA: '254712345123',
      PhoneNumber: '254712345123',
      CallBackURL: callbackUrl,
      AccountReference: accountReferenceOf(reference),
      TransactionDesc: 'Application f',
    });
    // The dev page's list carries the same common fields.
    const listed = (await (await fetch(`${simulator.url}/_simulator/prompts`)).json()) as { id: string }[];
    expect(listed.find((entry) => entry.id === id)).toMatchObject({
      provider: 'mpesa',
      amount: '2500',
      currency: 'KES',
    });
  });

  it('refuses what Daraja cannot take: cents, or another currency', async () => {
    const ask = (amount: number, currency: string) =>
      mpesa.requestPayment({
        reference: randomUUID(),
        amount,
        currency,
        msisdn: '254712345123',
        country: 'KE',
        payerMessage: 'Application fee',
        payeeNote: 'note',
        callbackUrl,
      });
    await expect(ask(150_050, 'KES')).rejects.toMatchObject({ kind: 'refused' });
    await expect(ask(1500, 'RWF')).rejects.toMatchObject({ kind: 'refused' });
  });

  it('pending while the payer has not answered ("being processed"), then success approved on the dev page', async () => {
    const { reference, id, ref } = await prompt('124');
    expect(await mpesa.status(ref)).toEqual({
      state: 'pending',
      amount: null,
      currency: 'KES',
      externalId: reference,
      reason: null,
      providerReason: null,
      providerTransactionId: null,
    });
    const approve = await fetch(`${simulator.url}/_simulator/prompts/${id}/approve`, { method: 'POST' });
    expect(approve.status).toBe(204);
    expect(await mpesa.status(ref)).toEqual({
      state: 'succeeded',
      amount: null,
      currency: 'KES',
      externalId: reference,
      reason: null,
      providerReason: null,
      providerTransactionId: null,
    });
    const [callback] = await callbacksAfter(id, 1);
    expect(callback).toMatchObject({
      method: 'POST',
      body: { Body: { stkCallback: { CheckoutRequestID: id, ResultCode: 0 } } },
    });
    expect(metadata(callback)).toMatchObject({ Amount: 1500, PhoneNumber: 254712345124 });
    expect(metadata(callback).MpesaReceiptNumber).toMatch(/^[A-Z0-9]{10}$/);
    // Decided once: a second answer from the phone changes nothing.
    expect((await fetch(`${simulator.url}/_simulator/prompts/${id}/decline`, { method: 'POST' })).status).toBe(409);
  });

  it('a prompt declined on the dev page is cancelled by the user (1032)', async () => {
    const { id, ref } = await prompt('125');
    expect(simulator.decline(id)).toBe(true);
    expect(await mpesa.status(ref)).toMatchObject({ state: 'failed', reason: 'declined', providerReason: '1032' });
  });

  it.each([
    [MPESA_SCRIPTS.approve, 'succeeded', null, null],
    [MPESA_SCRIPTS.decline, 'failed', 'declined', '1032'],
    [MPESA_SCRIPTS.insufficientFunds, 'failed', 'insufficient_funds', '1'],
    [MPESA_SCRIPTS.wrongPin, 'failed', 'wrong_pin', '2001'],
  ])('scripted payer …%s: %s (%s), one callback', async (script, state, reason, providerReason) => {
    const { reference, id, ref } = await prompt(script);
    expect(await statusWhenNot(ref, 'pending')).toMatchObject({
      state,
      reason,
      providerReason,
      amount: null,
      externalId: reference,
    });
    const callbacks = await callbacksAfter(id, 1);
    expect(callbacks).toHaveLength(1);
    expect(callbacks[0]!.body.Body?.stkCallback?.ResultCode).toBe(Number(providerReason ?? 0));
    // Metadata only on success.
    expect('CallbackMetadata' in (callbacks[0]!.body.Body?.stkCallback ?? {})).toBe(state === 'succeeded');
  });

  it('an unknown payer: Daraja refuses the push itself (400.002.02)', async () => {
    const error = await prompt(MPESA_SCRIPTS.unknownPayer).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'refused', status: 400, providerCode: '400.002.02', retryable: false });
  });

  it('timeout: pending, then 1037, and no callback at all', async () => {
    const { id, ref } = await prompt(MPESA_SCRIPTS.timeout);
    expect((await mpesa.status(ref)).state).toBe('pending');
    expect(await statusWhenNot(ref, 'pending')).toMatchObject({
      state: 'failed',
      reason: 'timeout',
      providerReason: '1037',
    });
    await settle(100);
    expect(callbacksFor(id)).toHaveLength(0);
  });

  it('a duplicate callback: two identical callbacks for one success', async () => {
    const { id, ref } = await prompt(MPESA_SCRIPTS.duplicateCallback);
    expect((await statusWhenNot(ref, 'pending')).state).toBe('succeeded');
    const [first, second] = await callbacksAfter(id, 2);
    expect(callbacksFor(id)).toHaveLength(2);
    expect(second).toEqual(first);
  });

  it('a late success after expiry: 1037 without callback, then success with one', async () => {
    const { id, ref } = await prompt(MPESA_SCRIPTS.lateSuccess);
    expect(await statusWhenNot(ref, 'pending')).toMatchObject({ state: 'failed', reason: 'timeout' });
    expect(callbacksFor(id)).toHaveLength(0);
    expect((await statusWhenNot(ref, 'failed')).state).toBe('succeeded');
    expect((await callbacksAfter(id, 1)).map(({ body }) => body.Body?.stkCallback?.ResultCode)).toEqual([0]);
  });

  it('a callback with the wrong amount: the query (no amount) confirms the request we made', async () => {
    const { reference, id, ref } = await prompt(MPESA_SCRIPTS.wrongAmountCallback);
    expect(await statusWhenNot(ref, 'pending')).toMatchObject({
      state: 'succeeded',
      amount: null,
      externalId: reference,
    });
    const [callback] = await callbacksAfter(id, 1);
    expect(metadata(callback).Amount).toBe(15_000);
    // The callback names the prompt, and its receipt with the amount it claims: the receipt is kept only if
    // the query confirms and that amount is the payment's (mobile-money.service.ts), which it is not here.
    expect(mpesa.callbackSubject(callback!.body)).toEqual({
      providerReference: id,
      transactionHint: { id: metadata(callback).MpesaReceiptNumber, amount: 1_500_000 },
    });
  });

  it('a query answered for another CheckoutRequestID names that one, not our reference', async () => {
    // A Daraja that answers the query about another prompt than the one asked.
    const crossed = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (req.url?.startsWith('/oauth/')) return res.end(JSON.stringify({ access_token: 'token', expires_in: '3599' }));
      req.resume();
      res.end(
        JSON.stringify({
          ResponseCode: '0',
          MerchantRequestID: '1-1',
          CheckoutRequestID: 'ws_CO_someone_else',
          ResultCode: '0',
          ResultDesc: 'The service request is processed successfully.',
        }),
      );
    });
    await new Promise<void>((resolve) => crossed.listen(0, '127.0.0.1', resolve));
    try {
      const client = adapter({ baseUrl: `http://127.0.0.1:${(crossed.address() as AddressInfo).port}` });
      expect(await client.status(paymentRef(randomUUID(), 'ws_CO_ours'))).toMatchObject({
        state: 'succeeded',
        externalId: 'ws_CO_someone_else',
      });
    } finally {
      crossed.closeAllConnections();
      await new Promise<void>((resolve) => crossed.close(() => resolve()));
    }
  });

  it('reads the CheckoutRequestID of a callback and nothing that is not one', () => {
    expect(mpesa.callbackSubject({ Body: { stkCallback: { CheckoutRequestID: 'ws_CO_1', ResultCode: 0 } } })).toEqual({
      providerReference: 'ws_CO_1',
    });
    expect(mpesa.callbackSubject({ Body: { stkCallback: { ResultCode: 0 } } })).toBeNull();
    expect(mpesa.callbackSubject({ Body: { stkCallback: { CheckoutRequestID: 42 } } })).toBeNull();
    expect(mpesa.callbackSubject({ Body: 'x' })).toBeNull();
    expect(mpesa.callbackSubject({ CheckoutRequestID: 'ws_CO_1' })).toBeNull();
    expect(mpesa.callbackSubject(null)).toBeNull();
    expect(mpesa.callbackSubject({ Body: { stkCallback: { CheckoutRequestID: 'x'.repeat(101) } } })).toBeNull();
  });

  it('an unknown CheckoutRequestID is refused (400), and a payment without one is not asked about', async () => {
    await expect(mpesa.status(paymentRef(randomUUID(), 'ws_CO_000000'))).rejects.toMatchObject({
      kind: 'refused',
      status: 400,
      providerCode: '400.002.02',
    });
    await expect(mpesa.status(paymentRef(randomUUID(), null))).rejects.toMatchObject({ kind: 'refused' });
  });
});

describe('credentials and tokens', () => {
  it('reuses its token, asks one at a time, and refreshes it shortly before it expires', async () => {
    let clock = Date.now();
    const client = adapter({ now: () => clock, tokenMarginMs: 60_000 });
    const before = simulator.tokensIssued();
    const { ref } = await prompt('126', 150_000, client);
    await Promise.all(Array.from({ length: 5 }, () => client.status(ref)));
    await client.status(ref);
    expect(simulator.tokensIssued() - before).toBe(1);
    // The simulator's tokens last 3599 s; the adapter replaces one 60 s before that.
    clock += 3_538_000;
    await client.status(ref);
    expect(simulator.tokensIssued() - before).toBe(1);
    clock += 2_000;
    await client.status(ref);
    expect(simulator.tokensIssued() - before).toBe(2);
  });

  it('the simulator refuses an expired token (401), and the adapter then asks for a new one', async () => {
    let clock = Date.now();
    const short = await startMpesaSimulator({ ...CREDENTIALS, tokenTtlSeconds: 60, now: () => clock });
    try {
      const client = createMpesaDarajaProvider({ baseUrl: short.url, ...CREDENTIALS, tokenMarginMs: 0, now: () => 0 });
      const ref = paymentRef(randomUUID(), 'ws_CO_unknown');
      await expect(client.status(ref)).rejects.toMatchObject({ status: 400 });
      clock += 61_000;
      await expect(client.status(ref)).rejects.toMatchObject({
        kind: 'refused',
        status: 401,
        providerCode: '404.001.03',
      });
      await expect(client.status(ref)).rejects.toMatchObject({ kind: 'refused', status: 400 });
      expect(short.tokensIssued()).toBe(2);
    } finally {
      await short.stop();
    }
  });

  it('a wrong passkey makes a wrong password: refused (400), not retried', async () => {
    const error = await prompt('127', 150_000, adapter({ passkey: 'not-the-passkey' })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'refused', status: 400, providerCode: '400.002.02', retryable: false });
    expect((error as Error).message).not.toContain('not-the-passkey');
  });

  it('a wrong shortcode is refused', async () => {
    await expect(prompt('128', 150_000, adapter({ shortcode: '600000' }))).rejects.toMatchObject({
      kind: 'refused',
      status: 400,
    });
  });

  it('a wrong consumer secret is refused at the token', async () => {
    await expect(
      adapter({ consumerSecret: 'wrong' }).status(paymentRef(randomUUID(), 'ws_CO_1')),
    ).rejects.toMatchObject({ kind: 'refused', status: 400, providerCode: '400.008.01' });
  });
});

describe('an unreachable provider', () => {
  it('503 is unreachable: retry later', async () => {
    const client = adapter();
    simulator.setMode('503');
    await expect(client.status(paymentRef(randomUUID(), 'ws_CO_1'))).rejects.toMatchObject({
      kind: 'unreachable',
      status: 503,
      retryable: true,
    });
  });

  it('429 (its rate limit) is refused with its status, which the daily reconciliation asks again later', async () => {
    const client = adapter();
    simulator.setMode('429');
    await expect(client.status(paymentRef(randomUUID(), 'ws_CO_1'))).rejects.toMatchObject({ status: 429 });
  });

  it('closed connections are unreachable', async () => {
    const client = adapter();
    const reply = await fetch(`${simulator.url}/_simulator/mode`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'close' }),
    });
    expect(reply.status).toBe(204);
    await expect(client.status(paymentRef(randomUUID(), 'ws_CO_1'))).rejects.toMatchObject({
      kind: 'unreachable',
      status: null,
    });
  });

  it('no answer within the timeout is unreachable', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const client = adapter({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 200 });
      const started = Date.now();
      await expect(client.status(paymentRef(randomUUID(), 'ws_CO_1'))).rejects.toMatchObject({ kind: 'unreachable' });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe('refunds through Daraja’s Reversals API', () => {
  /** A payment the payer approved (script 111): our reference, Daraja's id, and the receipt its callback carried. */
  async function paid(amount = 150_000) {
    const payment = await prompt(MPESA_SCRIPTS.approve, amount);
    const [callback] = await callbacksAfter(payment.id, 1);
    const receipt = metadata(callback).MpesaReceiptNumber;
    expect(receipt).toMatch(/^[A-Z0-9]{10}$/);
    return { ...payment, receipt: receipt as string };
  }

  /** The full refund of a payment, as the refund job asks it, with its own result URL. */
  const refundOf = (payment: { reference: string; id: string; receipt: string }, amount = 150_000): RefundRequest => {
    const refundReference = randomUUID();
    return {
      refundReference,
      paymentReference: payment.reference,
      providerReference: payment.id,
      providerTransactionId: payment.receipt,
      amount,
      currency: 'KES',
      country: 'KE',
      resultUrl: `${resultBase}/${refundReference}`,
    };
  };

  const resultsFor = (request: RefundRequest) => received.filter(({ url }) => url.endsWith(request.refundReference));

  /** The Results POSTed to a refund's result URL once at least `count` have come (and a moment for any extra). */
  async function resultsAfter(request: RefundRequest, count: number, within = 5000) {
    const until = Date.now() + within;
    while (resultsFor(request).length < count && Date.now() < until) await settle(20);
    await settle(100);
    return resultsFor(request);
  }

  const refunds = () => mpesa.refunds!;

  it('reverses a paid receipt in full: pending with the ConversationID, then a Result read as refunded', async () => {
    const payment = await paid(250_000);
    const request = refundOf(payment, 250_000);
    const answer = await refunds().refund(request);
    expect(answer).toEqual({
      state: 'pending',
      providerRefundId: expect.stringMatching(/^AG_\d{8}_\w+$/),
      providerCode: '0',
    });
    // The request as Daraja documents it.
    expect(simulator.reversals().find((r) => r.ConversationID === answer.providerRefundId)).toMatchObject({
      Initiator: CREDENTIALS.initiatorName,
      TransactionID: payment.receipt,
      Amount: 2500,
      ReceiverParty: CREDENTIALS.shortcode,
      ResultURL: request.resultUrl,
      QueueTimeOutURL: request.resultUrl,
      Remarks: 'Application fee refund',
      Occasion: accountReferenceOf(payment.reference),
    });
    const [result] = await resultsAfter(request, 1);
    expect(result).toMatchObject({
      method: 'POST',
      body: {
        Result: {
          ResultType: 0,
          ResultCode: 0,
          ConversationID: answer.providerRefundId,
          ResultParameters: {
            ResultParameter: expect.arrayContaining([
              { Key: 'OriginalTransactionID', Value: payment.receipt },
              { Key: 'Amount', Value: 2500 },
            ]),
          },
        },
      },
    });
    expect(refunds().refundResult!(result!.body)).toEqual({
      state: 'refunded',
      providerRefundId: answer.providerRefundId,
      providerCode: '0',
    });
    expect(simulator.reversedReceipts()).toContain(payment.receipt);
  });

  it('the same request asked again reverses once: the second Result is R000001, read as refunded too', async () => {
    const payment = await paid();
    const request = refundOf(payment);
    // An answer lost on the way: the job asks again with the same request, here even at the same moment.
    const answers = await Promise.all([refunds().refund(request), refunds().refund(request)]);
    expect(answers.map(({ state }) => state)).toEqual(['pending', 'pending']);
    expect(answers[0]!.providerRefundId).not.toBe(answers[1]!.providerRefundId);
    const results = await resultsAfter(request, 2);
    expect(results.map(({ body }) => body.Result?.ResultCode).sort()).toEqual([0, 'R000001']);
    const read = results.map(({ body }) => refunds().refundResult!(body));
    expect(read.map((result) => result?.state)).toEqual(['refunded', 'refunded']);
    expect(read.map((result) => result?.providerRefundId).sort()).toEqual(
      answers.map(({ providerRefundId }) => providerRefundId).sort(),
    );
    // The money moved back once.
    expect(simulator.reversedReceipts().filter((receipt) => receipt === payment.receipt)).toHaveLength(1);
    expect(
      simulator.resultsSent().filter(({ body }) => {
        const result = body.Result as { ResultCode?: unknown; ResultParameters?: unknown } | undefined;
        return result?.ResultCode === 0 && JSON.stringify(result.ResultParameters).includes(payment.receipt);
      }),
    ).toHaveLength(1);
  });

  it('pending, then failed: M-Pesa cannot cover it (Result 1); asked again later, it is reversed', async () => {
    const payment = await paid();
    simulator.scriptReversal(payment.receipt, 'failed');
    const first = refundOf(payment);
    const answer = await refunds().refund(first);
    expect(answer.state).toBe('pending');
    const [result] = await resultsAfter(first, 1);
    expect(refunds().refundResult!(result!.body)).toEqual({
      state: 'failed',
      providerRefundId: answer.providerRefundId,
      providerCode: '1',
    });
    expect(simulator.reversedReceipts()).not.toContain(payment.receipt);
    const second = refundOf(payment);
    await refunds().refund(second);
    const [later] = await resultsAfter(second, 1);
    expect(refunds().refundResult!(later!.body)?.state).toBe('refunded');
  });

  it('a queue timeout: no Result, then the timeout notice at the same URL, read as failed; nothing was reversed', async () => {
    const payment = await paid();
    simulator.scriptReversal(payment.receipt, 'queue_timeout');
    const request = refundOf(payment);
    const answer = await refunds().refund(request);
    // The only thing ever sent is the notice: no Result came before it.
    const sent = await resultsAfter(request, 1);
    expect(sent).toHaveLength(1);
    const [notice] = sent;
    expect(notice!.body.Result).toMatchObject({ ResultType: 1, ConversationID: answer.providerRefundId });
    expect(simulator.reversals().find((r) => r.ConversationID === answer.providerRefundId)?.status).toBe('timed_out');
    expect(refunds().refundResult!(notice!.body)).toEqual({
      state: 'failed',
      providerRefundId: answer.providerRefundId,
      providerCode: 'QueueTimeout',
    });
    expect(simulator.reversedReceipts()).not.toContain(payment.receipt);
    // Asking again is safe: M-Pesa had not processed the first.
    const again = refundOf(payment);
    await refunds().refund(again);
    expect(refunds().refundResult!((await resultsAfter(again, 1))[0]!.body)?.state).toBe('refunded');
  });

  it('no result at all: the refund stays pending (no refund status call exists to ask)', async () => {
    const payment = await paid();
    simulator.scriptReversal(payment.receipt, 'no_result');
    const request = refundOf(payment);
    const answer = await refunds().refund(request);
    expect(answer.state).toBe('pending');
    const statusOf = () => simulator.reversals().find((r) => r.ConversationID === answer.providerRefundId)?.status;
    const until = Date.now() + 5000;
    while (statusOf() === 'queued' && Date.now() < until) await settle(20);
    expect(statusOf()).toBe('dropped');
    // Not even the queue timeout's notice comes.
    await settle(QUEUE_TIMEOUT_MS + 100);
    expect(resultsFor(request)).toHaveLength(0);
    expect(refunds().refundStatus).toBeUndefined();
  });

  it('a receipt M-Pesa never issued to the shortcode (or of a prompt that did not succeed): R000002, failed', async () => {
    const request = refundOf({ reference: randomUUID(), id: 'ws_CO_1', receipt: 'ZZZZ000000' });
    const answer = await refunds().refund(request);
    const [result] = await resultsAfter(request, 1);
    expect(result!.body.Result).toMatchObject({
      ResultCode: 'R000002',
      ResultDesc: 'The OriginalTransactionID is invalid.',
    });
    expect('ResultParameters' in result!.body.Result!).toBe(false);
    expect(refunds().refundResult!(result!.body)).toEqual({
      state: 'failed',
      providerRefundId: answer.providerRefundId,
      providerCode: 'R000002',
    });
  });

  it.each([
    ['initiator', { initiatorName: 'someone-else' }],
    ['security credential', { securityCredential: 'bm90LXRoZS1jcmVkZW50aWFs' }],
  ])(
    'a wrong %s: accepted, then Result 2001 (the initiator information is invalid), nothing reversed',
    async (_, wrong) => {
      const payment = await paid();
      const request = refundOf(payment);
      const client = adapter(wrong);
      const answer = await client.refunds!.refund(request);
      const [result] = await resultsAfter(request, 1);
      expect(client.refunds!.refundResult!(result!.body)).toEqual({
        state: 'failed',
        providerRefundId: answer.providerRefundId,
        providerCode: '2001',
      });
      expect(simulator.reversedReceipts()).not.toContain(payment.receipt);
      expect(JSON.stringify(result!.body)).not.toContain(Object.values(wrong)[0]);
    },
  );

  it('outcomes can be scripted over HTTP too', async () => {
    const payment = await paid();
    const script = (outcome: unknown) =>
      fetch(`${simulator.url}/_simulator/reversals/${payment.receipt}`, {
        method: 'POST',
        body: JSON.stringify({ outcome }),
      });
    expect((await script('sometimes')).status).toBe(400);
    expect((await script('failed')).status).toBe(204);
    const request = refundOf(payment);
    await refunds().refund(request);
    expect((await resultsAfter(request, 1))[0]!.body.Result?.ResultCode).toBe(1);
  });

  it('refuses what Daraja cannot take, without a call: cents, another currency', async () => {
    const payment = await paid();
    const before = simulator.reversals().length;
    await expect(refunds().refund(refundOf(payment, 150_050))).rejects.toMatchObject({ kind: 'refused' });
    await expect(refunds().refund({ ...refundOf(payment), currency: 'UGX' })).rejects.toMatchObject({
      kind: 'refused',
    });
    expect(simulator.reversals()).toHaveLength(before);
  });

  it('a request Daraja refuses (400.002.02) is refused with its code, not retried', async () => {
    const error = await refunds()
      .refund(refundOf({ reference: randomUUID(), id: 'ws_CO_1', receipt: 'not-a-receipt' }))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'refused', status: 400, providerCode: '400.002.02', retryable: false });
  });

  it('wrong consumer credentials are refused at the token', async () => {
    const request = refundOf({ reference: randomUUID(), id: 'ws_CO_1', receipt: 'ABCDE12345' });
    await expect(adapter({ consumerSecret: 'wrong' }).refunds!.refund(request)).rejects.toMatchObject({
      kind: 'refused',
      status: 400,
      providerCode: '400.008.01',
    });
  });

  it('an unreachable Daraja (503, closed connections, silence) is unreachable: retry the same request', async () => {
    const request = refundOf({ reference: randomUUID(), id: 'ws_CO_1', receipt: 'ABCDE12345' });
    const client = adapter();
    simulator.setMode('503');
    await expect(client.refunds!.refund(request)).rejects.toMatchObject({
      kind: 'unreachable',
      status: 503,
      retryable: true,
    });
    simulator.setMode('close');
    await expect(client.refunds!.refund(request)).rejects.toMatchObject({ kind: 'unreachable', status: null });
    simulator.setMode('normal');
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const slow = adapter({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 200 });
      await expect(slow.refunds!.refund(request)).rejects.toMatchObject({ kind: 'unreachable' });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a token Daraja dropped early (401) is unreachable, and the retry gets a new token', async () => {
    let clock = Date.now();
    const short = await startMpesaSimulator({ ...CREDENTIALS, tokenTtlSeconds: 60, now: () => clock });
    try {
      const client = createMpesaDarajaProvider({ baseUrl: short.url, ...CREDENTIALS, tokenMarginMs: 0, now: () => 0 });
      const request = refundOf({ reference: randomUUID(), id: 'ws_CO_1', receipt: 'ABCDE12345' });
      expect((await client.refunds!.refund(request)).state).toBe('pending');
      clock += 61_000;
      await expect(client.refunds!.refund(request)).rejects.toMatchObject({
        kind: 'unreachable',
        status: 401,
        providerCode: '404.001.03',
      });
      expect((await client.refunds!.refund(request)).state).toBe('pending');
      expect(short.tokensIssued()).toBe(2);
    } finally {
      await short.stop();
    }
  });

  it('reads Daraja’s other answers: 500.001.1001 is an outage here, a non-zero ResponseCode a refusal', async () => {
    let reply: { status: number; body: Record<string, unknown> } = { status: 200, body: {} };
    const stub = createServer((req, res) => {
      req.resume();
      const { status, body } = req.url?.startsWith('/oauth/')
        ? { status: 200, body: { access_token: 'token', expires_in: '3599' } }
        : reply;
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    try {
      const client = adapter({ baseUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}` });
      const request = refundOf({ reference: randomUUID(), id: 'ws_CO_1', receipt: 'ABCDE12345' });
      reply = { status: 500, body: { errorCode: '500.001.1001', errorMessage: 'Internal Server Error' } };
      await expect(client.refunds!.refund(request)).rejects.toMatchObject({
        kind: 'unreachable',
        providerCode: '500.001.1001',
      });
      reply = { status: 500, body: { errorCode: '500.003.02', errorMessage: 'Spike Arrest Violation' } };
      await expect(client.refunds!.refund(request)).rejects.toMatchObject({
        kind: 'unreachable',
        providerCode: '500.003.02',
      });
      reply = { status: 200, body: { ConversationID: 'AG_1', ResponseCode: '1', ResponseDescription: 'Rejected' } };
      await expect(client.refunds!.refund(request)).rejects.toMatchObject({ kind: 'refused', providerCode: '1' });
      // Accepted without the id its Result will carry: unreadable, so asked again later (safe: R000001).
      reply = { status: 200, body: { ResponseCode: '0' } };
      await expect(client.refunds!.refund(request)).rejects.toMatchObject({ kind: 'unreachable' });
    } finally {
      stub.closeAllConnections();
      await new Promise<void>((resolve) => stub.close(() => resolve()));
    }
  });

  it('reads a reversal Result and nothing that is not one', () => {
    const read = refunds().refundResult!;
    const result = (fields: Record<string, unknown>) => ({
      Result: { ResultType: 0, ResultDesc: 'text', OriginatorConversationID: 'o-1', TransactionID: 'X', ...fields },
    });
    expect(read(result({ ResultCode: 0, ConversationID: 'AG_1' }))).toEqual({
      state: 'refunded',
      providerRefundId: 'AG_1',
      providerCode: '0',
    });
    expect(read(result({ ResultCode: '0', ConversationID: 'AG_1' }))?.state).toBe('refunded');
    expect(read(result({ ResultCode: 'R000001', ConversationID: 'AG_1' }))?.state).toBe('refunded');
    expect(read(result({ ResultCode: 2006, ConversationID: 'AG_1' }))).toMatchObject({
      state: 'failed',
      providerCode: '2006',
    });
    expect(read(result({ ResultCode: 0 }))).toBeNull();
    expect(read(result({ ResultCode: 0, ConversationID: 42 }))).toBeNull();
    expect(read(result({ ResultCode: 0, ConversationID: 'A'.repeat(101) }))).toBeNull();
    expect(read(result({ ConversationID: 'AG_1' }))).toBeNull();
    expect(read(result({ ResultCode: 0.5, ConversationID: 'AG_1' }))).toBeNull();
    expect(read({ Body: { stkCallback: { CheckoutRequestID: 'ws_CO_1', ResultCode: 0 } } })).toBeNull();
    expect(read({ Result: 'x' })).toBeNull();
    expect(read({ ConversationID: 'AG_1', ResultCode: 0 })).toBeNull();
    expect(read(null)).toBeNull();
    expect(read('{"Result":{}}')).toBeNull();
  });

  it('stops cleanly with reversals queued: no Result is sent afterwards', async () => {
    const quiet = await startMpesaSimulator({ ...CREDENTIALS, resultDelayMs: 150 });
    const client = adapter({ baseUrl: quiet.url });
    const request = refundOf({ reference: randomUUID(), id: 'ws_CO_1', receipt: 'ABCDE12345' });
    expect((await client.refunds!.refund(request)).state).toBe('pending');
    await quiet.stop();
    await settle(300);
    expect(quiet.resultsSent()).toHaveLength(0);
    expect(resultsFor(request)).toHaveLength(0);
  });
});

describe('refunds as configured', () => {
  it('without the initiator and its credential the adapter has no refunds (staff refund by hand)', () => {
    const { initiatorName: _initiator, securityCredential: _credential, ...collections } = CREDENTIALS;
    expect(createMpesaDarajaProvider({ baseUrl: simulator.url, ...collections }).refunds).toBeUndefined();
    expect(adapter({ securityCredential: '' }).refunds).toBeUndefined();
    const env = {
      MPESA_BASE_URL: simulator.url,
      MPESA_CONSUMER_KEY: CREDENTIALS.consumerKey,
      MPESA_CONSUMER_SECRET: CREDENTIALS.consumerSecret,
      MPESA_SHORTCODE: CREDENTIALS.shortcode,
      MPESA_PASSKEY: CREDENTIALS.passkey,
    };
    expect(mpesaProviderFrom(parseEnv(env))!.refunds).toBeUndefined();
    const withInitiator = parseEnv({
      ...env,
      MPESA_INITIATOR_NAME: CREDENTIALS.initiatorName,
      MPESA_SECURITY_CREDENTIAL: CREDENTIALS.securityCredential,
    });
    expect(mpesaProviderFrom(withInitiator)!.refunds?.refundResult).toBeTypeOf('function');
  });

  it('the development simulator and the app get matching reversal credentials', async () => {
    const entry = SIMULATED_PROVIDERS.find(({ provider }) => provider === 'mpesa')!;
    const started = await entry.start({ publicUrl: 'http://127.0.0.1:9' });
    try {
      const env = parseEnv(started.env as Record<string, string>);
      expect(env.MPESA_INITIATOR_NAME).toBeTruthy();
      const client = mpesaProviderFrom(env)!;
      const reference = randomUUID();
      const { providerReference } = await client.requestPayment({
        reference,
        amount: 150_000,
        currency: 'KES',
        msisdn: `254712345${MPESA_SCRIPTS.approve}`,
        country: 'KE',
        payerMessage: 'Application fee',
        payeeNote: 'note',
        callbackUrl,
      });
      const [callback] = await callbacksAfter(providerReference!, 1);
      const refundReference = randomUUID();
      const request: RefundRequest = {
        refundReference,
        paymentReference: reference,
        providerReference,
        providerTransactionId: metadata(callback).MpesaReceiptNumber as string,
        amount: 150_000,
        currency: 'KES',
        country: 'KE',
        resultUrl: `${resultBase}/${refundReference}`,
      };
      await client.refunds!.refund(request);
      const until = Date.now() + 5000;
      while (!received.some(({ url }) => url.endsWith(refundReference)) && Date.now() < until) await settle(20);
      const result = received.find(({ url }) => url.endsWith(refundReference));
      // Result 0, not 2001: the simulator knows the initiator the app was given.
      expect(client.refunds!.refundResult!(result?.body)?.state).toBe('refunded');
    } finally {
      await started.stop();
    }
  });
});
