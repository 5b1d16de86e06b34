import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATED_PROVIDERS, startPaymentSimulators } from '../../../dev/payment-simulators.ts';
import { MOMO_SCRIPTS, startMomoSimulator, type MomoSimulator } from '../../../simulators/mtn-momo.ts';
import { testEnv } from '../../../test/app.ts';
import { mtnMomoProviderFrom } from '../mobile-money-providers.ts';
import { ProviderError, decimalToMinor, minorToDecimal, type MobileMoneyStatus } from './mobile-money.ts';
import { createMtnMomoProvider, type MtnMomoConfig } from './mtn-momo.ts';
import type { RefundAnswer, RefundRequest } from './refunds.ts';

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
/** The Disbursement product's own API user and keys, through which MoMo refunds. */
const DISBURSEMENT = {
  apiUser: randomUUID(),
  apiKey: 'momo-disbursement-api-key',
  subscriptionKey: 'momo-disbursement-subscription-key',
};
const REFUND_DELAY_MS = 150;
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
    disbursement: DISBURSEMENT,
    expireAfterMs: EXPIRE_AFTER_MS,
    lateAfterMs: LATE_AFTER_MS,
    payerDelayMs: 10,
    refundDelayMs: REFUND_DELAY_MS,
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

afterEach(() => {
  simulator.setMode('normal');
  simulator.scriptRefunds('pending_then_refunded');
});

const adapter = (overrides: Partial<MtnMomoConfig> = {}) =>
  createMtnMomoProvider({
    baseUrl: simulator.url,
    targetEnvironment: 'sandbox',
    timeoutMs: 2000,
    ...CREDENTIALS,
    disbursement: DISBURSEMENT,
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

describe('refunds through the Disbursement product', () => {
  /** A payment the payer approved at once, as MoMo's status confirms it. */
  async function paid(script: string = MOMO_SCRIPTS.approve) {
    const reference = await prompt(script);
    const { state, providerTransactionId } = await statusWhenNot(reference, 'pending');
    expect(state).toBe('succeeded');
    return { reference, providerTransactionId: providerTransactionId! };
  }

  /** The refund of a whole 1500 RWF payment, as the refund's job asks it. */
  const refundOf = (
    payment: { reference: string; providerTransactionId: string },
    overrides: Partial<RefundRequest> = {},
  ): RefundRequest => ({
    refundReference: randomUUID(),
    paymentReference: payment.reference,
    providerReference: null,
    providerTransactionId: payment.providerTransactionId,
    amount: 1500,
    currency: 'RWF',
    country: 'RW',
    resultUrl: 'http://127.0.0.1:9/unused',
    ...overrides,
  });

  /** The refund's answer once it is no longer pending, asked as the job asks it. */
  async function refundWhenNot(request: RefundRequest, providerRefundId: string | null, within = 3000) {
    const until = Date.now() + within;
    for (;;) {
      const answer = await momo.refunds!.refundStatus!(request, providerRefundId);
      if (answer.state !== 'pending' || Date.now() > until) return answer;
      await settle(25);
    }
  }

  const refundsOf = (reference: string) => simulator.refunds().filter((r) => r.referenceIdToRefund === reference);

  it('sends the published refund: the Disbursement product’s token, headers and body', async () => {
    simulator.scriptRefunds('refunded');
    const payment = await paid();
    const request = refundOf(payment);
    const client = adapter();
    const before = simulator.disbursementTokensIssued();
    const collectionTokens = simulator.tokensIssued();
    expect(await client.refunds!.refund(request)).toEqual({
      state: 'refunded',
      providerRefundId: request.refundReference,
      providerCode: 'SUCCESSFUL',
    });
    expect(refundsOf(payment.reference)).toEqual([
      expect.objectContaining({
        referenceId: request.refundReference,
        referenceIdToRefund: payment.reference,
        amount: '1500',
        currency: 'RWF',
        externalId: request.refundReference,
        payee: { partyIdType: 'MSISDN', partyId: '250788000111' },
        payerMessage: `Refund of payment ${payment.reference}`,
        payeeNote: `Refund of payment ${payment.reference}`,
        targetEnvironment: 'sandbox',
        status: 'SUCCESSFUL',
      }),
    ]);
    // The Collection's token is not the Disbursement's: refunds asked for their own.
    expect(simulator.disbursementTokensIssued()).toBe(before + 1);
    expect(simulator.tokensIssued()).toBe(collectionTokens);
  });

  it('writes the amount in the currency’s decimals', async () => {
    simulator.scriptRefunds('refunded');
    const reference = await momo.requestPayment({
      reference: randomUUID(),
      amount: 1250,
      currency: 'GHS',
      msisdn: '233240000111',
      country: 'GH',
      payerMessage: 'Application fee',
      payeeNote: 'note',
      callbackUrl,
    });
    const { providerTransactionId } = await statusWhenNot(reference.reference, 'pending');
    const request = refundOf(
      { reference: reference.reference, providerTransactionId: providerTransactionId! },
      { amount: 1250, currency: 'GHS', country: 'GH' },
    );
    expect((await momo.refunds!.refund(request)).state).toBe('refunded');
    expect(refundsOf(reference.reference)[0]).toMatchObject({ amount: '12.50', currency: 'GHS' });
  });

  it('pending, then refunded: refundStatus asks again under the same reference', async () => {
    const payment = await paid();
    const request = refundOf(payment);
    const answer = await momo.refunds!.refund(request);
    expect(answer).toEqual({ state: 'pending', providerRefundId: request.refundReference, providerCode: 'PENDING' });
    expect(await refundWhenNot(request, answer.providerRefundId)).toEqual({
      state: 'refunded',
      providerRefundId: request.refundReference,
      providerCode: 'SUCCESSFUL',
    });
    // Without a provider id of its own, MoMo's refund is asked by our reference.
    expect((await momo.refunds!.refundStatus!(request, null)).state).toBe('refunded');
    expect(refundsOf(payment.reference)[0]?.financialTransactionId).toMatch(/^\d+$/);
  });

  it('pending, then failed with MoMo’s code; a failed refund gave nothing, so another may be asked', async () => {
    simulator.scriptRefunds('pending_then_failed');
    const payment = await paid();
    const request = refundOf(payment);
    const answer = await momo.refunds!.refund(request);
    expect(answer.state).toBe('pending');
    expect(await refundWhenNot(request, answer.providerRefundId)).toEqual({
      state: 'failed',
      providerRefundId: request.refundReference,
      providerCode: 'NOT_ENOUGH_FUNDS',
    });
    simulator.scriptRefunds('refunded');
    expect((await momo.refunds!.refund(refundOf(payment))).state).toBe('refunded');
  });

  it('the same request asked again (its answer lost) refunds once, and answers what became of it', async () => {
    const payment = await paid();
    const request = refundOf(payment);
    const first = await momo.refunds!.refund(request);
    expect(first.state).toBe('pending');
    // The job retries with the same request, possibly from another instance with its own token.
    const again = adapter().refunds!;
    expect(await again.refund(request)).toEqual(first);
    await settle(REFUND_DELAY_MS + 100);
    expect(await again.refund(request)).toEqual({
      state: 'refunded',
      providerRefundId: request.refundReference,
      providerCode: 'SUCCESSFUL',
    });
    expect(refundsOf(payment.reference)).toHaveLength(1);
  });

  it('ten concurrent askings of the same request refund once', async () => {
    simulator.scriptRefunds('refunded');
    const payment = await paid();
    const request = refundOf(payment);
    const answers = await Promise.all(Array.from({ length: 10 }, () => momo.refunds!.refund(request)));
    expect(new Set(answers.map((answer) => answer.state))).toEqual(new Set(['refunded']));
    expect(refundsOf(payment.reference)).toHaveLength(1);
  });

  it('a payment already refunded is not refunded again under another reference', async () => {
    simulator.scriptRefunds('refunded');
    const payment = await paid();
    expect((await momo.refunds!.refund(refundOf(payment))).state).toBe('refunded');
    expect(await momo.refunds!.refund(refundOf(payment))).toMatchObject({
      state: 'failed',
      providerCode: 'NOT_ALLOWED',
    });
    expect(refundsOf(payment.reference).map((refund) => refund.status)).toEqual(['SUCCESSFUL', 'FAILED']);
  });

  it.each([
    ['declined', MOMO_SCRIPTS.decline],
    ['still pending', '127'],
  ])('a payment %s moved no money: the refund fails (NOT_ALLOWED)', async (_case, script) => {
    const reference = await prompt(script);
    if (script === MOMO_SCRIPTS.decline) expect((await statusWhenNot(reference, 'pending')).state).toBe('failed');
    expect(await momo.refunds!.refund(refundOf({ reference, providerTransactionId: '1' }))).toMatchObject({
      state: 'failed',
      providerCode: 'NOT_ALLOWED',
    });
  });

  it('a refund in another currency than the payment’s fails (INVALID_CURRENCY)', async () => {
    const payment = await paid();
    expect(await momo.refunds!.refund(refundOf(payment, { currency: 'UGX', country: 'UG' }))).toMatchObject({
      state: 'failed',
      providerCode: 'INVALID_CURRENCY',
    });
  });

  it('a payment MoMo does not know is refused (404), with MoMo’s code', async () => {
    const error = await momo
      .refunds!.refund(refundOf({ reference: randomUUID(), providerTransactionId: '1' }))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'refused', status: 404, providerCode: 'RESOURCE_NOT_FOUND' });
  });

  it('a refused refund (403: this address may not use the Disbursement API) is refused, not retried', async () => {
    const payment = await paid();
    simulator.scriptRefunds('refused');
    await expect(momo.refunds!.refund(refundOf(payment))).rejects.toMatchObject({
      kind: 'refused',
      status: 403,
      retryable: false,
    });
    expect(refundsOf(payment.reference)).toHaveLength(0);
  });

  it('a refund reference MoMo does not take (not a UUID v4) is refused (400)', async () => {
    const payment = await paid();
    await expect(momo.refunds!.refund(refundOf(payment, { refundReference: 'refund-1' }))).rejects.toMatchObject({
      kind: 'refused',
      status: 400,
      providerCode: 'INVALID_REFERENCE_ID',
    });
  });

  it('the Collection’s credentials do not refund (401): the Disbursement product has its own', async () => {
    const payment = await paid();
    const client = adapter({ disbursement: CREDENTIALS });
    await expect(client.refunds!.refund(refundOf(payment))).rejects.toMatchObject({ kind: 'refused', status: 401 });
    const wrongKey = adapter({ disbursement: { ...DISBURSEMENT, apiKey: 'wrong' } });
    await expect(wrongKey.refunds!.refund(refundOf(payment))).rejects.toMatchObject({ kind: 'refused', status: 401 });
    expect(refundsOf(payment.reference)).toHaveLength(0);
  });

  it('a status that names another amount or refund is not believed', async () => {
    simulator.scriptRefunds('refunded');
    const payment = await paid();
    const request = refundOf(payment);
    await momo.refunds!.refund(request);
    for (const other of [{ amount: 1600 }, { currency: 'UGX' }, { refundReference: randomUUID() }]) {
      await expect(
        momo.refunds!.refundStatus!({ ...request, ...other }, request.refundReference),
        JSON.stringify(other),
      ).rejects.toMatchObject({ kind: 'refused' });
    }
  });

  it('an unknown refund is refused by refundStatus (404)', async () => {
    const request = refundOf({ reference: randomUUID(), providerTransactionId: '1' });
    await expect(momo.refunds!.refundStatus!(request, request.refundReference)).rejects.toMatchObject({
      kind: 'refused',
      status: 404,
    });
  });

  it('an unreachable provider (503, closed connections) is unreachable; the same request later refunds once', async () => {
    const payment = await paid();
    const request = refundOf(payment);
    simulator.setMode('503');
    await expect(momo.refunds!.refund(request)).rejects.toMatchObject({ kind: 'unreachable', status: 503 });
    await expect(momo.refunds!.refundStatus!(request, request.refundReference)).rejects.toMatchObject({
      kind: 'unreachable',
      retryable: true,
    });
    simulator.setMode('close');
    await expect(momo.refunds!.refund(request)).rejects.toMatchObject({ kind: 'unreachable', status: null });
    simulator.setMode('normal');
    simulator.scriptRefunds('refunded');
    expect((await momo.refunds!.refund(request)).state).toBe('refunded');
    expect(refundsOf(payment.reference)).toHaveLength(1);
  });

  it('no answer within the timeout is unreachable', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const client = adapter({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 200 });
      const request = refundOf({ reference: randomUUID(), providerTransactionId: '1' });
      await expect(client.refunds!.refund(request)).rejects.toMatchObject({ kind: 'unreachable' });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it.each([503, 404])('accepted, but its status answered %i: pending, to be asked again', async (failure) => {
    // In front of the simulator: the refund gets through, the status call does not (yet).
    const front = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method === 'GET' && req.url?.startsWith('/disbursement/v1_0/refund/')) {
          res.writeHead(failure, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 'X' }));
          return;
        }
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
        ) as Record<string, string>;
        void fetch(`${simulator.url}${req.url}`, {
          method: req.method,
          headers,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        }).then(async (answer) => {
          res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(await answer.text());
        });
      });
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const client = adapter({ baseUrl: `http://127.0.0.1:${(front.address() as AddressInfo).port}` });
      simulator.scriptRefunds('refunded');
      const payment = await paid();
      const request = refundOf(payment);
      const answer: RefundAnswer = await client.refunds!.refund(request);
      expect(answer).toEqual({ state: 'pending', providerRefundId: request.refundReference, providerCode: null });
      expect(await momo.refunds!.refundStatus!(request, answer.providerRefundId)).toMatchObject({ state: 'refunded' });
    } finally {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    }
  });

  it('the simulator takes its refund script over HTTP, and lists its refunds', async () => {
    const set = (script: unknown) =>
      fetch(`${simulator.url}/_simulator/refunds/script`, { method: 'POST', body: JSON.stringify({ script }) });
    expect((await set('sometimes')).status).toBe(400);
    expect((await set('refunded')).status).toBe(204);
    const payment = await paid();
    expect((await momo.refunds!.refund(refundOf(payment))).state).toBe('refunded');
    const listed = (await (await fetch(`${simulator.url}/_simulator/refunds`)).json()) as {
      referenceIdToRefund: string;
    }[];
    expect(listed.filter((refund) => refund.referenceIdToRefund === payment.reference)).toHaveLength(1);
  });
});

describe('MoMo refunds as the deployment configures them', () => {
  const collectionEnv = (url: string) =>
    testEnv({
      MTN_MOMO_BASE_URL: url,
      MTN_MOMO_API_USER: CREDENTIALS.apiUser,
      MTN_MOMO_API_KEY: CREDENTIALS.apiKey,
      MTN_MOMO_SUBSCRIPTION_KEY: CREDENTIALS.subscriptionKey,
      MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
    });

  it('without the Disbursement variables the adapter has no refunds (staff refund by hand)', () => {
    const provider = mtnMomoProviderFrom(collectionEnv(simulator.url))!;
    expect(provider.name).toBe('mtn_momo');
    expect(provider.refunds).toBeUndefined();
  });

  it('with them, it refunds through the Disbursement product', async () => {
    simulator.scriptRefunds('refunded');
    const provider = mtnMomoProviderFrom({
      ...collectionEnv(simulator.url),
      MTN_MOMO_DISBURSEMENT_API_USER: DISBURSEMENT.apiUser,
      MTN_MOMO_DISBURSEMENT_API_KEY: DISBURSEMENT.apiKey,
      MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: DISBURSEMENT.subscriptionKey,
    })!;
    const reference = await prompt(MOMO_SCRIPTS.approve);
    expect((await statusWhenNot(reference, 'pending')).state).toBe('succeeded');
    const refundReference = randomUUID();
    expect(
      await provider.refunds!.refund({
        refundReference,
        paymentReference: reference,
        providerReference: null,
        providerTransactionId: '1',
        amount: 1500,
        currency: 'RWF',
        country: 'RW',
        resultUrl: 'http://127.0.0.1:9/unused',
      }),
    ).toMatchObject({ state: 'refunded', providerRefundId: refundReference });
  });

  it('the development simulator and the app get matching Disbursement credentials', async () => {
    const momoEntry = SIMULATED_PROVIDERS.filter((entry) => entry.provider === 'mtn_momo');
    const simulators = await startPaymentSimulators(testEnv({ PUBLIC_URL: 'http://127.0.0.1:9' }), momoEntry);
    try {
      expect(simulators.env.MTN_MOMO_DISBURSEMENT_API_USER).toMatch(/^[0-9a-f-]{36}$/);
      expect(simulators.env.MTN_MOMO_DISBURSEMENT_API_USER).not.toBe(simulators.env.MTN_MOMO_API_USER);
      expect(simulators.env.MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY).not.toBe(simulators.env.MTN_MOMO_SUBSCRIPTION_KEY);
      const provider = mtnMomoProviderFrom(simulators.env)!;
      const reference = randomUUID();
      await provider.requestPayment({
        reference,
        amount: 30000,
        currency: 'RWF',
        msisdn: `250788000${MOMO_SCRIPTS.approve}`,
        country: 'RW',
        payerMessage: 'Application fee',
        payeeNote: 'note',
        callbackUrl: 'http://127.0.0.1:9/unused',
      });
      const until = Date.now() + 3000;
      while ((await provider.status(paymentRef(reference))).state === 'pending' && Date.now() < until) await settle(25);
      const answer = await provider.refunds!.refund({
        refundReference: randomUUID(),
        paymentReference: reference,
        providerReference: null,
        providerTransactionId: '1',
        amount: 30000,
        currency: 'RWF',
        country: 'RW',
        resultUrl: 'http://127.0.0.1:9/unused',
      });
      // The development simulator refunds as MoMo usually does: accepted, decided a moment later.
      expect(answer.state).toBe('pending');
    } finally {
      await simulators.stop();
    }
  });
});
