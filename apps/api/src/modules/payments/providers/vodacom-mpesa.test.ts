import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  VODACOM_SCRIPTS,
  startVodacomMpesaSimulator,
  type VodacomSimulator,
} from '../../../simulators/vodacom-mpesa.ts';
import { ProviderError, type MobileMoneyStatus } from './mobile-money.ts';
import type { RefundRequest } from './refunds.ts';
import { createVodacomMpesaProvider, type VodacomMpesaConfig } from './vodacom-mpesa.ts';

/*
 * The M-Pesa Tanzania adapter against the Vodacom simulator over real sockets: the encrypted API key and
 * session, the single-stage payment read as a prompt and a status, every scripted outcome, the session's
 * renewal, reversals and an unreachable provider.
 */

const CREDENTIALS = { apiKey: randomUUID().replaceAll('-', ''), serviceProviderCode: '000000' };
// Margins wide enough for a loaded machine: each step is polled for, never slept on.
const EXPIRE_AFTER_MS = 600;
const LATE_AFTER_MS = 800;

const paymentRef = (reference: string) => ({ reference, providerReference: null, currency: 'TZS', country: 'TZ' });

let simulator: VodacomSimulator;
let vodacom: ReturnType<typeof adapter>;

const adapter = (overrides: Partial<VodacomMpesaConfig> = {}) =>
  createVodacomMpesaProvider({
    baseUrl: simulator.url,
    publicKey: simulator.publicKey,
    timeoutMs: 2000,
    paymentTimeoutMs: 5000,
    answerWithinMs: 300,
    ...CREDENTIALS,
    ...overrides,
  });

beforeAll(async () => {
  simulator = await startVodacomMpesaSimulator({
    ...CREDENTIALS,
    expireAfterMs: EXPIRE_AFTER_MS,
    lateAfterMs: LATE_AFTER_MS,
    payerDelayMs: 10,
  });
  vodacom = adapter();
});

afterAll(() => simulator.stop());

afterEach(() => simulator.setMode('normal'));

/** Asks a Tanzanian payer (a number ending in `script`) for `amount` minor units of TZS; answers our reference. */
async function prompt(script: string, { amount = 150_000, client = vodacom } = {}) {
  const reference = randomUUID();
  await client.requestPayment({
    reference,
    amount,
    currency: 'TZS',
    msisdn: `255754000${script}`,
    country: 'TZ',
    payerMessage: 'Application fee',
    payeeNote: 'University of Dar es Salaam — Nursing',
    callbackUrl: 'http://127.0.0.1:9/unused',
  });
  return reference;
}

/** The status once it is no longer `state` (the simulator decides on timers). */
async function statusWhenNot(reference: string, state: MobileMoneyStatus['state'], client = vodacom, within = 4000) {
  const until = Date.now() + within;
  for (;;) {
    const status = await client.status(paymentRef(reference));
    if (status.state !== state || Date.now() > until) return status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the M-Pesa Tanzania adapter against the simulator', () => {
  it('sends the published single-stage request: amount in major units, TZN, TZS, our reference', async () => {
    const reference = await prompt(VODACOM_SCRIPTS.approve, { amount: 150_050 });
    expect(simulator.prompts().find((p) => p.id === reference)).toMatchObject({
      provider: 'mpesa_tz',
      msisdn: '255754000111',
      amount: '1500.50',
      currency: 'TZS',
      transactionReference: reference.replaceAll('-', '').slice(0, 20),
      description: 'Application fee',
    });
    const headers = simulator.lastHeaders();
    // The session id, encrypted: never the id itself, and never the API key.
    expect(headers.authorization).toMatch(/^Bearer [A-Za-z0-9+/]+=*$/);
    expect(headers.authorization).not.toContain(CREDENTIALS.apiKey);
    expect(headers.origin).toBe('*');
  });

  it('success: the payment’s answer, then the query, say so with Vodacom’s transaction id', async () => {
    const reference = await prompt(VODACOM_SCRIPTS.approve);
    const status = await statusWhenNot(reference, 'pending');
    expect(status).toMatchObject({ state: 'succeeded', amount: null, currency: 'TZS', externalId: reference });
    expect(status.providerTransactionId).toBe(simulator.prompts().find((p) => p.id === reference)?.transactionId);
    expect(status.providerTransactionId).toMatch(/^[0-9A-F]{10}$/);
  });

  it('a payer approving on the dev phone after requestPayment has returned', async () => {
    const reference = await prompt('123');
    expect(await vodacom.status(paymentRef(reference))).toMatchObject({ state: 'pending', reason: null });
    const approve = await fetch(`${simulator.url}/_simulator/prompts/${reference}/approve`, { method: 'POST' });
    expect(approve.status).toBe(204);
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({ state: 'succeeded', externalId: reference });
    expect((await fetch(`${simulator.url}/_simulator/prompts/${reference}/decline`, { method: 'POST' })).status).toBe(
      409,
    );
  });

  it('a payer declining on the dev phone: the payment’s late answer is kept for status', async () => {
    const reference = await prompt('124');
    expect(simulator.decline(reference)).toBe(true);
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({
      state: 'failed',
      reason: 'declined',
      providerReason: 'INS-5',
    });
  });

  it.each([
    [VODACOM_SCRIPTS.decline, 'declined', 'INS-5'],
    [VODACOM_SCRIPTS.insufficientFunds, 'insufficient_funds', 'INS-2006'],
    [VODACOM_SCRIPTS.wrongPin, 'wrong_pin', 'INS-2001'],
    [VODACOM_SCRIPTS.unknownPayer, 'unknown_payer', 'INS-2051'],
  ])('scripted payer …%s fails the request at once: %s (%s)', async (script, failure, code) => {
    const error = await prompt(script).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'refused', providerCode: code, failure, retryable: false });
  });

  it('a failure answered after requestPayment returned is what status says', async () => {
    const slow = adapter({ answerWithinMs: 0 });
    const reference = await prompt(VODACOM_SCRIPTS.insufficientFunds, { client: slow });
    expect(await statusWhenNot(reference, 'pending', slow)).toMatchObject({
      state: 'failed',
      reason: 'insufficient_funds',
      providerReason: 'INS-2006',
    });
  });

  it('timeout: pending while the payer does not answer, then INS-9', async () => {
    const reference = await prompt(VODACOM_SCRIPTS.timeout);
    expect((await vodacom.status(paymentRef(reference))).state).toBe('pending');
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({
      state: 'failed',
      reason: 'timeout',
      providerReason: 'INS-9',
    });
  });

  it('a payment’s answer lost on the way: the query decides', async () => {
    const reference = await prompt(VODACOM_SCRIPTS.lostAnswer);
    const status = await statusWhenNot(reference, 'pending');
    expect(status).toMatchObject({ state: 'succeeded', externalId: reference });
    expect(status.providerTransactionId).toBe(simulator.prompts().find((p) => p.id === reference)?.transactionId);
  });

  it('after a restart (nothing kept in memory), the query alone tells success and failure', async () => {
    const paid = await prompt(VODACOM_SCRIPTS.approve);
    const declined = await prompt('125');
    simulator.decline(declined);
    await statusWhenNot(paid, 'pending');
    const restarted = adapter({ outcomes: new Map() });
    expect(await restarted.status(paymentRef(paid))).toMatchObject({ state: 'succeeded', externalId: paid });
    expect(await restarted.status(paymentRef(declined))).toMatchObject({ state: 'failed', reason: 'declined' });
  });

  it('a late success after the timeout: the query says Completed later', async () => {
    const reference = await prompt(VODACOM_SCRIPTS.lateSuccess);
    expect(await statusWhenNot(reference, 'pending')).toMatchObject({ state: 'failed', reason: 'timeout' });
    expect(await statusWhenNot(reference, 'failed')).toMatchObject({ state: 'succeeded', externalId: reference });
  });

  it('an answer naming another conversation is not ours: never a success of this payment', async () => {
    const reference = await prompt(VODACOM_SCRIPTS.notOurs);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(simulator.prompts().find((p) => p.id === reference)?.status).toBe('SUCCESSFUL');
    const status = await vodacom.status(paymentRef(reference));
    expect(status).toMatchObject({ state: 'pending', externalId: '', providerTransactionId: null });
  });

  it('a query about another reference answers that one, not ours', async () => {
    const other = await prompt(VODACOM_SCRIPTS.approve);
    const ours = await prompt('126');
    expect(await statusWhenNot(other, 'pending')).toMatchObject({ state: 'succeeded', externalId: other });
    expect(await vodacom.status(paymentRef(ours))).toMatchObject({ state: 'pending', externalId: ours });
  });

  it('a reference the query does not know is pending (made elsewhere, or not arrived yet)', async () => {
    expect(await vodacom.status(paymentRef(randomUUID()))).toMatchObject({ state: 'pending' });
  });

  it('a payment call that got no answer and that Vodacom does not know: failed, unavailable', async () => {
    simulator.setMode('close');
    const reference = await prompt(VODACOM_SCRIPTS.approve);
    simulator.setMode('normal');
    expect(simulator.prompts().some((p) => p.id === reference)).toBe(false);
    expect(await vodacom.status(paymentRef(reference))).toMatchObject({
      state: 'failed',
      reason: 'unavailable',
      providerReason: 'INS-18',
    });
  });

  it('the adapter of the jobs knows what the adapter of the routes was answered', async () => {
    const slow = adapter({ answerWithinMs: 0 });
    const reference = await prompt(VODACOM_SCRIPTS.insufficientFunds, { client: slow });
    expect(await statusWhenNot(reference, 'pending', adapter())).toMatchObject({
      state: 'failed',
      reason: 'insufficient_funds',
    });
  });

  it('a reference used twice: the second call is a duplicate and the first one counts', async () => {
    const reference = await prompt('127');
    const again = await vodacom.requestPayment({
      reference,
      amount: 150_000,
      currency: 'TZS',
      msisdn: '255754000127',
      country: 'TZ',
      payerMessage: 'Application fee',
      payeeNote: 'note',
      callbackUrl: 'http://127.0.0.1:9/unused',
    });
    expect(again).toEqual({ reference, providerReference: null });
    expect(simulator.prompts().filter((p) => p.id === reference)).toHaveLength(1);
  });

  it('only TZS in Tanzania, and only Tanzanian numbers', async () => {
    const base = {
      reference: randomUUID(),
      amount: 1000,
      payerMessage: 'fee',
      payeeNote: 'note',
      callbackUrl: 'http://127.0.0.1:9/unused',
    };
    await expect(
      vodacom.requestPayment({ ...base, currency: 'KES', country: 'KE', msisdn: '254712345111' }),
    ).rejects.toBeInstanceOf(RangeError);
    await expect(
      vodacom.requestPayment({ ...base, currency: 'TZS', country: 'TZ', msisdn: '254712345111' }),
    ).rejects.toBeInstanceOf(RangeError);
  });

  it('has no callback to read', () => {
    expect(vodacom.callbackSubject({ output_ThirdPartyConversationID: 'abc' })).toBeNull();
  });
});

describe('reversals', () => {
  const refundOf = (paymentReference: string, providerTransactionId: string, amount = 150_000): RefundRequest => ({
    refundReference: randomUUID(),
    paymentReference,
    providerReference: null,
    providerTransactionId,
    amount,
    currency: 'TZS',
    country: 'TZ',
    resultUrl: 'http://127.0.0.1:9/unused',
  });

  it('reverses a completed payment once; asked again, the query tells it was done', async () => {
    const reference = await prompt(VODACOM_SCRIPTS.approve);
    const { providerTransactionId } = await statusWhenNot(reference, 'pending');
    const refund = refundOf(reference, providerTransactionId!);
    const done = await vodacom.refunds!.refund(refund);
    expect(done).toMatchObject({ state: 'refunded', providerCode: 'INS-0' });
    expect(done.providerRefundId).toMatch(/^[0-9A-F]{10}$/);
    expect(simulator.prompts().find((p) => p.id === reference)?.reversed).toBe(true);
    // The answer lost and the job asking again: a duplicate, and the query confirms the reversal.
    expect(await vodacom.refunds!.refund(refund)).toMatchObject({ state: 'pending', providerCode: 'INS-10' });
    expect(await vodacom.refunds!.refundStatus!(refund, null)).toMatchObject({
      state: 'refunded',
      providerRefundId: done.providerRefundId,
    });
    // Another reversal of the same payment fails.
    expect(await vodacom.refunds!.refund(refundOf(reference, providerTransactionId!))).toMatchObject({
      state: 'failed',
      providerCode: 'INS-6',
    });
  });

  it('a reversal of another amount, or of an unknown transaction, fails', async () => {
    const reference = await prompt(VODACOM_SCRIPTS.approve);
    const { providerTransactionId } = await statusWhenNot(reference, 'pending');
    expect(await vodacom.refunds!.refund(refundOf(reference, providerTransactionId!, 100))).toMatchObject({
      state: 'failed',
      providerCode: 'INS-6',
    });
    expect(await vodacom.refunds!.refund(refundOf(reference, 'NOTATXN'))).toMatchObject({
      state: 'failed',
      providerCode: 'INS-18',
    });
  });
});

describe('the session', () => {
  it('opens one session for many calls, encrypted with Vodacom’s public key', async () => {
    const client = adapter();
    const before = simulator.sessionsIssued();
    const reference = await prompt('128', { client });
    await Promise.all(Array.from({ length: 5 }, () => client.status(paymentRef(reference))));
    expect(simulator.sessionsIssued() - before).toBe(1);
  });

  it('a session Vodacom no longer takes is renewed and the call made again', async () => {
    let clock = Date.now();
    const short = await startVodacomMpesaSimulator({ ...CREDENTIALS, sessionTtlMs: 60_000, now: () => clock });
    try {
      // The adapter believes its session good for longer than Vodacom does.
      const client = createVodacomMpesaProvider({
        baseUrl: short.url,
        publicKey: short.publicKey,
        ...CREDENTIALS,
        answerWithinMs: 300,
        sessionTtlMs: 3_600_000,
      });
      const reference = randomUUID();
      await client.requestPayment({
        reference,
        amount: 1000,
        currency: 'TZS',
        msisdn: '255754000129',
        country: 'TZ',
        payerMessage: 'fee',
        payeeNote: 'note',
        callbackUrl: 'http://127.0.0.1:9/unused',
      });
      clock += 61_000;
      expect(await client.status(paymentRef(reference))).toMatchObject({ state: 'pending', externalId: reference });
      expect(short.sessionsIssued()).toBe(2);
    } finally {
      await short.stop();
    }
  });

  it('the session is renewed when its time is up', async () => {
    let clock = Date.now();
    const client = adapter({ sessionTtlMs: 60_000, now: () => clock });
    const before = simulator.sessionsIssued();
    const reference = await prompt('130', { client });
    clock += 59_000;
    await client.status(paymentRef(reference));
    expect(simulator.sessionsIssued() - before).toBe(1);
    clock += 2_000;
    await client.status(paymentRef(reference));
    expect(simulator.sessionsIssued() - before).toBe(2);
  });

  it('a wrong API key is refused at the session (401 INS-2), not retried', async () => {
    const error = await adapter({ apiKey: 'wrong' })
      .status(paymentRef(randomUUID()))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'refused', status: 401, providerCode: 'INS-2', retryable: false });
  });

  it('a key pair other than Vodacom’s is refused: the simulator cannot read the API key', async () => {
    const other = await startVodacomMpesaSimulator(CREDENTIALS);
    try {
      const error = await adapter({ publicKey: other.publicKey })
        .status(paymentRef(randomUUID()))
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ kind: 'refused', status: 401, providerCode: 'INS-2' });
    } finally {
      await other.stop();
    }
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
    await expect(prompt(VODACOM_SCRIPTS.approve, { client })).rejects.toMatchObject({ kind: 'unreachable' });
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

  it('no answer to a status within the timeout is unreachable', async () => {
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
