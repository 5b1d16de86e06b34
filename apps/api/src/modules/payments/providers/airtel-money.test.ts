import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AIRTEL_SCRIPTS, startAirtelSimulator, type AirtelSimulator } from '../../../simulators/airtel-money.ts';
import { airtelMsisdn, createAirtelMoneyProvider, type AirtelMoneyConfig } from './airtel-money.ts';
import { ProviderError, type MobileMoneyStatus } from './mobile-money.ts';
import type { RefundRequest } from './refunds.ts';

/*
 * The Airtel Money adapter against the Airtel simulator over real sockets: every scripted outcome, the
 * token's life, the headers Airtel requires, refunds and an unreachable provider. The callbacks the
 * simulator sends (to the URL "registered in the portal") land on a small HTTP server here.
 */

const CREDENTIALS = { clientId: randomUUID(), clientSecret: 'airtel-client-secret-for-tests' };
// Margins wide enough for a loaded machine: each step is polled for, never slept on.
const EXPIRE_AFTER_MS = 600;
const LATE_AFTER_MS = 800;

/** A payment as the status call names it: our reference and the payer's market. */
const paymentRef = (reference: string, country = 'UG', currency = 'UGX') => ({
  reference,
  providerReference: null,
  currency,
  country,
});

let simulator: AirtelSimulator;
let receiver: Server;
let callbackUrl: string;
const received: { method: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/v1/payments/callbacks/airtel-money`;
  simulator = await startAirtelSimulator({
    ...CREDENTIALS,
    callbackUrl,
    expireAfterMs: EXPIRE_AFTER_MS,
    lateAfterMs: LATE_AFTER_MS,
    payerDelayMs: 10,
  });
  airtel = adapter();
});

afterAll(async () => {
  await simulator.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

afterEach(() => simulator.setMode('normal'));

const adapter = (overrides: Partial<AirtelMoneyConfig> = {}) =>
  createAirtelMoneyProvider({ baseUrl: simulator.url, timeoutMs: 2000, ...CREDENTIALS, ...overrides });

let airtel: ReturnType<typeof adapter>;

/** Asks a Ugandan payer (a number ending in `script`) for 1500 UGX and answers our reference. */
async function prompt(script: string, { amount = 1500, currency = 'UGX', country = 'UG', prefix = '256750000' } = {}) {
  const reference = randomUUID();
  await airtel.requestPayment({
    reference,
    amount,
    currency,
    msisdn: `${prefix}${script}`,
    country,
    payerMessage: 'Application fee',
    payeeNote: 'University of Kigali — Nursing',
    callbackUrl,
  });
  return reference;
}

/** The status once it is no longer `state` (the simulator decides on timers). */
async function statusWhenNot(reference: string, state: MobileMoneyStatus['state'], within = 3000) {
  const until = Date.now() + within;
  for (;;) {
    const status = await airtel.status(paymentRef(reference));
    if (status.state !== state || Date.now() > until) return status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const callbacksFor = (reference: string) =>
  received.filter(({ body }) => (body.transaction as { id?: unknown } | undefined)?.id === reference);
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The callbacks received for a payment once at least `count` have come (and a moment more for any extra). */
async function callbacksAfter(reference: string, count: number, within = 5000) {
  const until = Date.now() + within;
  while (callbacksFor(reference).length < count && Date.now() < until) await settle(20);
  await settle(100);
  return callbacksFor(reference);
}

describe('the payer’s number', () => {
  it('is sent without its country code, as Airtel documents', () => {
    expect(airtelMsisdn('256750000111', 'UG')).toBe('750000111');
    expect(airtelMsisdn('250731234567', 'RW')).toBe('731234567');
    expect(airtelMsisdn('254733123456', 'KE')).toBe('733123456');
    expect(() => airtelMsisdn('250731234567', 'UG')).toThrow(RangeError);
    expect(() => airtelMsisdn('256', 'UG')).toThrow(RangeError);
  });
});

describe('the Airtel Money adapter against the simulator', () => {
  it('sends the published request: path, market headers and body, amount in major units', async () => {
    const reference = await prompt(AIRTEL_SCRIPTS.approve, {
      amount: 1250,
      currency: 'ZMW',
      country: 'ZM',
      prefix: '260970000',
    });
    const headers = simulator.lastHeaders();
    expect(headers['x-country']).toBe('ZM');
    expect(headers['x-currency']).toBe('ZMW');
    expect(headers.authorization).toMatch(/^Bearer \w+$/);
    expect(simulator.prompts().find((p) => p.id === reference)).toMatchObject({
      provider: 'airtel_money',
      msisdn: '970000111',
      amount: 12.5,
      currency: 'ZMW',
      country: 'ZM',
      reference: 'Application fee',
    });
  });

  it('a reference Airtel shows the payer is cut to 64 characters', async () => {
    const reference = randomUUID();
    await airtel.requestPayment({
      reference,
      amount: 1000,
      currency: 'UGX',
      msisdn: '256750000123',
      country: 'UG',
      payerMessage: 'x'.repeat(100),
      payeeNote: 'note',
      callbackUrl,
    });
    expect(simulator.prompts().find((p) => p.id === reference)?.reference).toHaveLength(64);
  });

  it('success after the payer approves on the phone (the dev page)', async () => {
    const reference = await prompt('123');
    expect(await airtel.status(paymentRef(reference))).toMatchObject({
      state: 'pending',
      reason: null,
      providerTransactionId: null,
    });
    const approve = await fetch(`${simulator.url}/_simulator/prompts/${reference}/approve`, { method: 'POST' });
    expect(approve.status).toBe(204);
    const status = await airtel.status(paymentRef(reference));
    // Airtel's enquiry states no amount: the transaction it confirms is the one we asked for.
    expect(status).toMatchObject({ state: 'succeeded', amount: null, currency: 'UGX', externalId: reference });
    expect(status.providerTransactionId).toMatch(/^MP[0-9A-F]+$/);
    expect(await callbacksAfter(reference, 1)).toHaveLength(1);
    expect(callbacksFor(reference)[0]).toMatchObject({
      method: 'POST',
      body: { transaction: { id: reference, status_code: 'TS', airtel_money_id: status.providerTransactionId } },
    });
    expect((await fetch(`${simulator.url}/_simulator/prompts/${reference}/decline`, { method: 'POST' })).status).toBe(
      409,
    );
  });

  it('a prompt declined on the dev page', async () => {
    const reference = await prompt('124');
    expect(simulator.decline(reference)).toBe(true);
    expect(await airtel.status(paymentRef(reference))).toMatchObject({
      state: 'failed',
      reason: 'declined',
      providerReason: 'DP00800001008',
    });
  });

  it.each([
    [AIRTEL_SCRIPTS.approve, 'succeeded', null, null],
    [AIRTEL_SCRIPTS.decline, 'failed', 'declined', 'DP00800001008'],
    [AIRTEL_SCRIPTS.insufficientFunds, 'failed', 'insufficient_funds', 'DP00800001007'],
    [AIRTEL_SCRIPTS.wrongPin, 'failed', 'wrong_pin', 'DP00800001002'],
  ])('scripted payer …%s: %s (%s), one callback', async (script, state, reason, providerReason) => {
    const reference = await prompt(script);
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({ state, reason, providerReason, amount: null });
    expect(await callbacksAfter(reference, 1)).toHaveLength(1);
  });

  it('an unknown payer is refused at the request, typed as refused with Airtel’s code', async () => {
    const error = await prompt(AIRTEL_SCRIPTS.unknownPayer).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'refused', status: 400, providerCode: 'DP00800001010', retryable: false });
  });

  it('timeout: TIP, then TE, and no callback at all', async () => {
    const reference = await prompt(AIRTEL_SCRIPTS.timeout);
    expect((await airtel.status(paymentRef(reference))).state).toBe('pending');
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({
      state: 'failed',
      reason: 'timeout',
      providerReason: 'DP00800001029',
    });
    await settle(100);
    expect(callbacksFor(reference)).toHaveLength(0);
  });

  it('a duplicate callback: two identical callbacks for one success', async () => {
    const reference = await prompt(AIRTEL_SCRIPTS.duplicateCallback);
    expect((await statusWhenNot(reference, 'pending')).state).toBe('succeeded');
    const [first, second] = await callbacksAfter(reference, 2);
    expect(callbacksFor(reference)).toHaveLength(2);
    expect(second).toEqual(first);
  });

  it('a late success after expiry: TE without callback, then TS with one', async () => {
    const reference = await prompt(AIRTEL_SCRIPTS.lateSuccess);
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({ state: 'failed', reason: 'timeout' });
    expect(callbacksFor(reference)).toHaveLength(0);
    expect((await statusWhenNot(reference, 'failed')).state).toBe('succeeded');
    expect(
      (await callbacksAfter(reference, 1)).map(({ body }) => (body.transaction as { status_code: string }).status_code),
    ).toEqual(['TS']);
  });

  it('an early (or forged) callback claims TS while the enquiry still answers TIP', async () => {
    const reference = await prompt(AIRTEL_SCRIPTS.earlyCallback);
    const [claim] = await callbacksAfter(reference, 1);
    expect(claim?.body).toMatchObject({ transaction: { id: reference, status_code: 'TS' } });
    expect(await airtel.status(paymentRef(reference))).toMatchObject({ state: 'pending' });
    // The callback names the payment; nothing else of it is read.
    expect(airtel.callbackSubject(claim?.body)).toEqual({ reference });
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({ state: 'failed', reason: 'timeout' });
  });

  it('reads the reference of a callback and nothing that is not one', () => {
    expect(airtel.callbackSubject({ transaction: { id: 'abc', status_code: 'TS' } })).toEqual({ reference: 'abc' });
    expect(airtel.callbackSubject({ transaction: { status_code: 'TS' } })).toBeNull();
    expect(airtel.callbackSubject({ id: 'abc' })).toBeNull();
    expect(airtel.callbackSubject({ transaction: 'abc' })).toBeNull();
    expect(airtel.callbackSubject('TS')).toBeNull();
    expect(airtel.callbackSubject({ transaction: { id: 'x'.repeat(101) } })).toBeNull();
  });

  it('a transaction id used twice is refused', async () => {
    const reference = await prompt('125');
    const again = airtel.requestPayment({
      reference,
      amount: 1500,
      currency: 'UGX',
      msisdn: '256750000125',
      country: 'UG',
      payerMessage: 'Application fee',
      payeeNote: 'note',
      callbackUrl,
    });
    await expect(again).rejects.toMatchObject({ kind: 'refused', status: 400 });
  });

  it('an unknown transaction is refused (404, DP00800001025)', async () => {
    await expect(airtel.status(paymentRef(randomUUID()))).rejects.toMatchObject({
      kind: 'refused',
      status: 404,
      providerCode: 'DP00800001025',
      retryable: false,
    });
  });

  it('the enquiry carries the market headers of the payment', async () => {
    const reference = await prompt(AIRTEL_SCRIPTS.timeout, { currency: 'RWF', country: 'RW', prefix: '250730000' });
    await airtel.status(paymentRef(reference, 'RW', 'RWF'));
    expect(simulator.lastHeaders()).toMatchObject({ 'x-country': 'RW', 'x-currency': 'RWF' });
  });

  it('the simulator refuses a call without the market headers, as Airtel does', async () => {
    const token = await fetch(`${simulator.url}/auth/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_id: CREDENTIALS.clientId,
        client_secret: CREDENTIALS.clientSecret,
        grant_type: 'client_credentials',
      }),
    });
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    const response = await fetch(`${simulator.url}/standard/v1/payments/${randomUUID()}`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(response.status).toBe(400);
  });
});

describe('refunds', () => {
  const refundOf = (paymentReference: string, providerTransactionId: string): RefundRequest => ({
    refundReference: randomUUID(),
    paymentReference,
    providerReference: null,
    providerTransactionId,
    amount: 5000,
    currency: 'UGX',
    country: 'UG',
    resultUrl: 'http://127.0.0.1:9/unused',
  });

  it('gives a succeeded payment back once, by its airtel_money_id', async () => {
    const reference = await prompt(AIRTEL_SCRIPTS.approve);
    const { providerTransactionId } = await statusWhenNot(reference, 'pending');
    const refund = refundOf(reference, providerTransactionId!);
    expect(await airtel.refunds!.refund(refund)).toEqual({
      state: 'refunded',
      providerRefundId: null,
      providerCode: 'DP00800001001',
    });
    expect(simulator.prompts().find((p) => p.id === reference)?.refunded).toBe(true);
    expect(await airtel.refunds!.refund(refund)).toEqual({
      state: 'failed',
      providerRefundId: null,
      providerCode: 'DP00800001008',
    });
  });

  it('an unknown airtel_money_id is refused', async () => {
    await expect(airtel.refunds!.refund(refundOf('pay_unknown', 'MP000000'))).rejects.toMatchObject({
      kind: 'refused',
      status: 404,
    });
  });
});

describe('credentials and tokens', () => {
  it('reuses its token, asks one at a time, and refreshes it shortly before it expires', async () => {
    let clock = Date.now();
    const client = adapter({ now: () => clock, tokenMarginMs: 30_000 });
    const before = simulator.tokensIssued();
    const reference = await prompt('126');
    await Promise.all(Array.from({ length: 5 }, () => client.status(paymentRef(reference))));
    await client.status(paymentRef(reference));
    expect(simulator.tokensIssued() - before).toBe(1);
    // The simulator's tokens last 180 s, as Airtel's examples; the adapter replaces one 30 s before that.
    clock += 149_000;
    await client.status(paymentRef(reference));
    expect(simulator.tokensIssued() - before).toBe(1);
    clock += 2_000;
    await client.status(paymentRef(reference));
    expect(simulator.tokensIssued() - before).toBe(2);
  });

  it('a token refused by Airtel is dropped, and the next call gets a new one', async () => {
    let clock = Date.now();
    const short = await startAirtelSimulator({ ...CREDENTIALS, tokenTtlSeconds: 60, now: () => clock });
    try {
      // The adapter believes its token good for longer than the provider does.
      const client = createAirtelMoneyProvider({ baseUrl: short.url, ...CREDENTIALS, tokenMarginMs: 0, now: () => 0 });
      await expect(client.status(paymentRef(randomUUID()))).rejects.toMatchObject({ status: 404 });
      clock += 61_000;
      await expect(client.status(paymentRef(randomUUID()))).rejects.toMatchObject({ kind: 'refused', status: 401 });
      await expect(client.status(paymentRef(randomUUID()))).rejects.toMatchObject({ kind: 'refused', status: 404 });
      expect(short.tokensIssued()).toBe(2);
    } finally {
      await short.stop();
    }
  });

  it('a wrong client secret is refused at the token (401), not retried', async () => {
    const error = await adapter({ clientSecret: 'wrong' })
      .status(paymentRef(randomUUID()))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'refused', status: 401, retryable: false });
  });
});

describe('an unreachable provider', () => {
  it('503 is unreachable: retry later', async () => {
    const client = adapter();
    simulator.setMode('503');
    await expect(client.status(paymentRef(randomUUID()))).rejects.toMatchObject({
      kind: 'unreachable',
      status: 503,
      retryable: true,
    });
  });

  it('429 (its rate limit) is refused with its status, which the daily reconciliation asks again later', async () => {
    const client = adapter();
    simulator.setMode('429');
    await expect(client.status(paymentRef(randomUUID()))).rejects.toMatchObject({ status: 429 });
  });

  it('closed connections are unreachable', async () => {
    const client = adapter();
    const reply = await fetch(`${simulator.url}/_simulator/mode`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'close' }),
    });
    expect(reply.status).toBe(204);
    await expect(client.status(paymentRef(randomUUID()))).rejects.toMatchObject({ kind: 'unreachable', status: null });
  });

  it('no answer within the timeout is unreachable', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const client = adapter({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 200 });
      const started = Date.now();
      await expect(client.status(paymentRef(randomUUID()))).rejects.toMatchObject({ kind: 'unreachable' });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
