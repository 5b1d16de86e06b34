import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MOMO_SCRIPTS, startMomoSimulator, type MomoSimulator } from '../../../simulators/mtn-momo.ts';
import { ProviderError, decimalToMinor, minorToDecimal, type MobileMoneyStatus } from './mobile-money.ts';
import { createMtnMomoProvider, type MtnMomoConfig } from './mtn-momo.ts';

/** A payment as the status call names it (MoMo reads only our reference). */
const paymentRef = (reference: string) => ({ reference, providerReference: null, currency: 'RWF', country: 'RW' });

/*
 * The MoMo adapter against the MoMo simulator over real sockets: every scripted outcome, the token's
 * life, the auth checks and an unreachable provider. The callbacks the simulator sends land on a small
 * HTTP server here, as they would on the api.
 */

const CREDENTIALS = {
  apiUser: randomUUID(),
  apiKey: 'momo-api-key-for-tests',
  subscriptionKey: 'momo-subscription-key',
};
// Margins wide enough for a loaded machine: each step is polled for, never slept on.
const EXPIRE_AFTER_MS = 600;
const LATE_AFTER_MS = 800;

let simulator: MomoSimulator;
let receiver: Server;
let callbackUrl: string;
const received: { method: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  simulator = await startMomoSimulator({
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
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/v1/payments/callbacks/mtn_momo`;
  momo = adapter();
});

afterAll(async () => {
  await simulator.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

afterEach(() => simulator.setMode('normal'));

const adapter = (overrides: Partial<MtnMomoConfig> = {}) =>
  createMtnMomoProvider({
    baseUrl: simulator.url,
    targetEnvironment: 'sandbox',
    timeoutMs: 2000,
    ...CREDENTIALS,
    ...overrides,
  });

let momo: ReturnType<typeof adapter>;

/** Asks the payer (a number ending in `script`) for 1500 RWF and answers our reference. */
async function prompt(script: string, amount = 1500, currency = 'RWF') {
  const reference = randomUUID();
  await momo.requestPayment({
    reference,
    amount,
    currency,
    msisdn: `250788000${script}`,
    country: 'RW',
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
    const status = await momo.status(paymentRef(reference));
    if (status.state !== state || Date.now() > until) return status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const callbacksFor = (reference: string) => received.filter(({ body }) => body.externalId === reference);
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The callbacks received for a payment once at least `count` have come (and a moment more for any extra). */
async function callbacksAfter(reference: string, count: number, within = 5000) {
  const until = Date.now() + within;
  while (callbacksFor(reference).length < count && Date.now() < until) await settle(20);
  await settle(100);
  return callbacksFor(reference);
}

describe('amounts', () => {
  it('writes minor units as the decimal MoMo takes, by the currency’s digits', () => {
    expect(minorToDecimal(5000, 'RWF')).toBe('5000');
    expect(minorToDecimal(1250, 'GHS')).toBe('12.50');
    expect(minorToDecimal(5, 'USD')).toBe('0.05');
    expect(minorToDecimal(1234, 'BHD')).toBe('1.234');
    expect(() => minorToDecimal(12.5, 'USD')).toThrow(RangeError);
  });

  it('reads MoMo’s decimals back, refusing what the currency cannot hold', () => {
    expect(decimalToMinor('5000', 'RWF')).toBe(5000);
    expect(decimalToMinor('12.5', 'GHS')).toBe(1250);
    expect(decimalToMinor('12.50', 'GHS')).toBe(1250);
    expect(decimalToMinor('5000.00', 'UGX')).toBe(5000);
    expect(decimalToMinor('5000.5', 'RWF')).toBeNull();
    expect(decimalToMinor('1e3', 'USD')).toBeNull();
  });
});

describe('the MTN MoMo adapter against the simulator', () => {
  it('sends the published request: path, headers and body', async () => {
    const reference = await prompt('111', 1250, 'GHS');
    const [sent] = simulator.prompts().filter((p) => p.referenceId === reference);
    expect(sent).toMatchObject({
      amount: '12.50',
      currency: 'GHS',
      externalId: reference,
      payer: { partyIdType: 'MSISDN', partyId: '250788000111' },
      payerMessage: 'Application fee',
      payeeNote: 'University of Kigali — Nursing',
      callbackUrl,
      targetEnvironment: 'sandbox',
    });
  });

  it('success after the payer approves on the phone (the dev page)', async () => {
    const reference = await prompt('123');
    expect(await momo.status(paymentRef(reference))).toMatchObject({
      state: 'pending',
      reason: null,
      providerTransactionId: null,
    });
    const approve = await fetch(`${simulator.url}/_simulator/prompts/${reference}/approve`, { method: 'POST' });
    expect(approve.status).toBe(204);
    const status = await momo.status(paymentRef(reference));
    expect(status).toMatchObject({ state: 'succeeded', amount: 1500, currency: 'RWF', externalId: reference });
    expect(status.providerTransactionId).toMatch(/^\d+$/);
    expect(await callbacksAfter(reference, 1)).toHaveLength(1);
    expect(callbacksFor(reference)[0]).toMatchObject({ method: 'PUT', body: { status: 'SUCCESSFUL', amount: '1500' } });
    // Decided once: a second answer from the phone changes nothing.
    expect((await fetch(`${simulator.url}/_simulator/prompts/${reference}/decline`, { method: 'POST' })).status).toBe(
      409,
    );
  });

  it('a prompt declined on the dev page', async () => {
    const reference = await prompt('124');
    expect(simulator.decline(reference)).toBe(true);
    expect(await momo.status(paymentRef(reference))).toMatchObject({
      state: 'failed',
      reason: 'declined',
      providerReason: 'APPROVAL_REJECTED',
    });
  });

  it.each([
    [MOMO_SCRIPTS.approve, 'succeeded', null, null],
    [MOMO_SCRIPTS.decline, 'failed', 'declined', 'APPROVAL_REJECTED'],
    [MOMO_SCRIPTS.insufficientFunds, 'failed', 'insufficient_funds', 'NOT_ENOUGH_FUNDS'],
    [MOMO_SCRIPTS.unknownPayer, 'failed', 'unknown_payer', 'PAYER_NOT_FOUND'],
  ])('scripted payer …%s: %s (%s), one callback', async (script, state, reason, providerReason) => {
    const reference = await prompt(script);
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({ state, reason, providerReason, amount: 1500 });
    expect(await callbacksAfter(reference, 1)).toHaveLength(1);
  });

  it('timeout: PENDING, then EXPIRED, and no callback at all', async () => {
    const reference = await prompt(MOMO_SCRIPTS.timeout);
    expect((await momo.status(paymentRef(reference))).state).toBe('pending');
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({
      state: 'failed',
      reason: 'timeout',
      providerReason: 'EXPIRED',
    });
    await settle(100);
    expect(callbacksFor(reference)).toHaveLength(0);
  });

  it('a duplicate callback: two identical callbacks for one success', async () => {
    const reference = await prompt(MOMO_SCRIPTS.duplicateCallback);
    expect((await statusWhenNot(reference, 'pending')).state).toBe('succeeded');
    const [first, second] = await callbacksAfter(reference, 2);
    expect(callbacksFor(reference)).toHaveLength(2);
    expect(second).toEqual(first);
  });

  it('a late success after expiry: EXPIRED without callback, then SUCCESSFUL with one', async () => {
    const reference = await prompt(MOMO_SCRIPTS.lateSuccess);
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({ state: 'failed', reason: 'timeout' });
    expect(callbacksFor(reference)).toHaveLength(0);
    expect((await statusWhenNot(reference, 'failed')).state).toBe('succeeded');
    expect((await callbacksAfter(reference, 1)).map(({ body }) => body.status)).toEqual(['SUCCESSFUL']);
  });

  it('a callback with the wrong amount: the status answers what was asked', async () => {
    const reference = await prompt(MOMO_SCRIPTS.wrongAmountCallback);
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({ state: 'succeeded', amount: 1500 });
    expect((await callbacksAfter(reference, 1))[0]?.body.amount).toBe('15000');
    // The callback names the payment; nothing else of it is read.
    expect(momo.callbackSubject(callbacksFor(reference)[0]?.body)).toEqual({ reference: reference });
  });

  it('a provider record with another amount is answered as it is, for the caller to refuse', async () => {
    const reference = await prompt(MOMO_SCRIPTS.wrongAmountRecord);
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({ state: 'succeeded', amount: 1501 });
  });

  it('reads the reference of a callback and nothing that is not one', () => {
    expect(momo.callbackSubject({ externalId: 'abc', status: 'SUCCESSFUL' })).toEqual({ reference: 'abc' });
    expect(momo.callbackSubject({ status: 'SUCCESSFUL' })).toBeNull();
    expect(momo.callbackSubject('SUCCESSFUL')).toBeNull();
    expect(momo.callbackSubject({ externalId: 'x'.repeat(101) })).toBeNull();
  });

  it('a reference used twice is refused (409), typed as refused', async () => {
    const reference = await prompt('125');
    const again = momo.requestPayment({
      reference,
      amount: 1500,
      currency: 'RWF',
      msisdn: '250788000125',
      country: 'RW',
      payerMessage: 'Application fee',
      payeeNote: 'note',
      callbackUrl,
    });
    await expect(again).rejects.toMatchObject({ kind: 'refused', status: 409, providerCode: 'RESOURCE_ALREADY_EXIST' });
  });

  it('an unknown reference is refused (404)', async () => {
    await expect(momo.status(paymentRef(randomUUID()))).rejects.toMatchObject({
      kind: 'refused',
      status: 404,
      retryable: false,
    });
  });
});

describe('credentials and tokens', () => {
  it('reuses its token, asks one at a time, and refreshes it shortly before it expires', async () => {
    let clock = Date.now();
    const client = adapter({ now: () => clock, tokenMarginMs: 60_000 });
    const before = simulator.tokensIssued();
    const reference = await prompt('126');
    await Promise.all(Array.from({ length: 5 }, () => client.status(paymentRef(reference))));
    await client.status(paymentRef(reference));
    expect(simulator.tokensIssued() - before).toBe(1);
    // The simulator's tokens last 3600 s; the adapter replaces one 60 s before that.
    clock += 3_539_000;
    await client.status(paymentRef(reference));
    expect(simulator.tokensIssued() - before).toBe(1);
    clock += 2_000;
    await client.status(paymentRef(reference));
    expect(simulator.tokensIssued() - before).toBe(2);
  });

  it('the simulator refuses an expired token, as MoMo does', async () => {
    let clock = Date.now();
    const short = await startMomoSimulator({ ...CREDENTIALS, tokenTtlSeconds: 60, now: () => clock });
    try {
      // The adapter believes its token good for longer than the provider does.
      const client = createMtnMomoProvider({
        baseUrl: short.url,
        targetEnvironment: 'sandbox',
        ...CREDENTIALS,
        tokenMarginMs: 0,
        now: () => 0,
      });
      await expect(client.status(paymentRef(randomUUID()))).rejects.toMatchObject({ status: 404 });
      clock += 61_000;
      await expect(client.status(paymentRef(randomUUID()))).rejects.toMatchObject({ kind: 'refused', status: 401 });
      // The refused token is dropped: the next call (a job's retry) asks for a new one and gets through.
      await expect(client.status(paymentRef(randomUUID()))).rejects.toMatchObject({ kind: 'refused', status: 404 });
      expect(short.tokensIssued()).toBe(2);
    } finally {
      await short.stop();
    }
  });

  it('a wrong subscription key is refused (401), not retried', async () => {
    const client = adapter({ subscriptionKey: 'not-the-key' });
    const error = await client.status(paymentRef(randomUUID())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'refused', status: 401, retryable: false });
  });

  it('a wrong API key is refused at the token (401)', async () => {
    await expect(adapter({ apiKey: 'wrong' }).status(paymentRef(randomUUID()))).rejects.toMatchObject({
      kind: 'refused',
      status: 401,
    });
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
