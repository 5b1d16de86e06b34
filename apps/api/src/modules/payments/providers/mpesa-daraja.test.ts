import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MPESA_SCRIPTS, startMpesaSimulator, type MpesaSimulator } from '../../../simulators/mpesa-daraja.ts';
import { ProviderError, type MobileMoneyStatus } from './mobile-money.ts';
import {
  accountReferenceOf,
  createMpesaDarajaProvider,
  darajaPassword,
  darajaTimestamp,
  type MpesaDarajaConfig,
} from './mpesa-daraja.ts';

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
};
// Margins wide enough for a loaded machine: each step is polled for, never slept on.
const EXPIRE_AFTER_MS = 600;
const LATE_AFTER_MS = 800;

let simulator: MpesaSimulator;
let receiver: Server;
let callbackUrl: string;
const received: { method: string; body: { Body?: { stkCallback?: Record<string, unknown> } } }[] = [];

beforeAll(async () => {
  simulator = await startMpesaSimulator({
    ...CREDENTIALS,
    expireAfterMs: EXPIRE_AFTER_MS,
    lateAfterMs: LATE_AFTER_MS,
    payerDelayMs: 10,
  });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/v1/payments/callbacks/mpesa`;
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
    // The callback names the prompt; nothing else of it is read.
    expect(mpesa.callbackSubject(callback!.body)).toEqual({ providerReference: id });
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
