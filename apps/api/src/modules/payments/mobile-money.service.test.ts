import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '@kaminuza/shared';
import { MOMO_SCRIPTS, startMomoSimulator, type MomoSimulator } from '../../simulators/mtn-momo.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createPayingInstitution, createPendingPayment, paymentByReference } from '../../test/payments.ts';
import {
  mobileMoneyCallback,
  pollMobileMoneyPayment,
  settleFromStatus,
  type MobileMoneySettlement,
} from './mobile-money.service.ts';
import type { MobileMoneyProvider } from './providers/mobile-money.ts';
import { createMtnMomoProvider } from './providers/mtn-momo.ts';
import { TEST_PUBLIC_URL } from '../../test/app.ts';

/** A payment as the status call names it (MoMo reads only our reference). */
const paymentRef = (reference: string) => ({ reference, providerReference: null, currency: 'RWF', country: 'RW' });

/*
 * MoMo payments settled in the database from the provider's status, whatever its callbacks say: every
 * scripted payer of the simulator, reached over HTTP by the real adapter, with the simulator's callbacks
 * arriving over HTTP at a receiver that does what the api's callback route will do.
 */

const CREDENTIALS = { apiUser: randomUUID(), apiKey: 'momo-api-key', subscriptionKey: 'momo-subscription-key' };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: MomoSimulator;
let momo: MobileMoneyProvider;
let receiver: Server;
let callbackUrl: string;
let partnerId: string;
/** What each callback that reached the receiver came to, by the payment it named. */
const outcomes: { reference: string | null; outcome: MobileMoneySettlement | 'ignored' | 'error' }[] = [];
const warnings: { object: object; message: string }[] = [];
const log = {
  warn(object: object, message: string) {
    warnings.push({ object, message });
  },
};
/** What a settlement driven directly by this file reports to, and links its receipt email from. */
const settling = { log, publicUrl: TEST_PUBLIC_URL };

beforeAll(async () => {
  database = await createTestDatabase();
  simulator = await startMomoSimulator({ ...CREDENTIALS, expireAfterMs: 600, lateAfterMs: 1500, payerDelayMs: 10 });
  momo = createMtnMomoProvider({
    baseUrl: simulator.url,
    targetEnvironment: 'sandbox',
    timeoutMs: 5000,
    ...CREDENTIALS,
  });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      mobileMoneyCallback(database.db, momo, body, settling)
        .catch(() => 'error' as const)
        .then((outcome) => {
          const subject = momo.callbackSubject(body);
          outcomes.push({ reference: subject && 'reference' in subject ? subject.reference : null, outcome });
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ outcome }));
        });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/v1/payments/callbacks/mtn_momo`;

  partnerId = await createPayingInstitution(database.db, 'momo');
});

afterAll(async () => {
  await simulator.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await database.close();
});

/** A student's application with a pending MoMo payment of 1500 RWF, asked of a payer whose number ends in `script`. */
async function pendingPayment(script: string, callback = callbackUrl) {
  const { applicationId, reference } = await createPendingPayment(database.db, partnerId, {
    provider: 'mtn_momo',
    amount: 1500,
    currency: 'RWF',
  });
  await momo.requestPayment({
    reference,
    amount: 1500,
    currency: 'RWF',
    msisdn: `250788${String(randomBytes(2).readUInt16BE() % 1000).padStart(3, '0')}${script}`,
    country: 'RW',
    payerMessage: 'Application fee',
    payeeNote: `Application ${applicationId}`,
    callbackUrl: callback,
  });
  return reference;
}

const paymentOf = (reference: string) => paymentByReference(database.db, reference);

/** Waits until `count` callbacks for the payment have been handled by the receiver. */
async function callbacksHandled(reference: string, count: number, within = 3000) {
  const until = Date.now() + within;
  for (;;) {
    const handled = outcomes.filter((entry) => entry.reference === reference);
    if (handled.length >= count || Date.now() > until) return handled.map(({ outcome }) => outcome);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the provider (as the reconciliation job will) until the payment is decided. */
async function pollUntilSettled(reference: string, within = 5000) {
  const until = Date.now() + within;
  for (;;) {
    const outcome = await pollMobileMoneyPayment(database.db, momo, reference, settling);
    if (outcome !== 'pending' || Date.now() > until) return outcome;
    await pause(25);
  }
}

describe('MoMo payments settled from the provider’s status', () => {
  it('success: the callback is checked against the status, then settles the payment', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.approve);
    expect(await callbacksHandled(reference, 1)).toEqual(['settled']);
    expect(await paymentOf(reference)).toMatchObject({
      status: 'succeeded',
      method: 'mobile_money',
      failure_reason: null,
      provider_event_id: `mtn_momo:${reference}:succeeded`,
    });
    expect((await paymentOf(reference)).paid_at).not.toBeNull();
  });

  it.each([
    [MOMO_SCRIPTS.decline, PAYMENT_MESSAGES.mobile_money_declined],
    [MOMO_SCRIPTS.insufficientFunds, PAYMENT_MESSAGES.mobile_money_insufficient_funds],
    [MOMO_SCRIPTS.unknownPayer, PAYMENT_MESSAGES.mobile_money_unknown_payer],
  ])('payer …%s fails the payment with what the payer is told', async (script, message) => {
    const reference = await pendingPayment(script);
    expect(await callbacksHandled(reference, 1)).toEqual(['settled']);
    expect(await paymentOf(reference)).toMatchObject({ status: 'failed', failure_reason: message, paid_at: null });
  });

  it('timeout: no callback comes; a poll finds it pending, then expired', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.timeout);
    expect(await pollMobileMoneyPayment(database.db, momo, reference, settling)).toBe('pending');
    expect(await pollUntilSettled(reference)).toBe('settled');
    expect(await callbacksHandled(reference, 1, 0)).toEqual([]);
    expect(await paymentOf(reference)).toMatchObject({
      status: 'failed',
      failure_reason: PAYMENT_MESSAGES.mobile_money_timeout,
    });
  });

  it('a duplicate callback settles once', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.duplicateCallback);
    expect((await callbacksHandled(reference, 2)).sort()).toEqual(['settled', 'unchanged']);
    expect((await paymentOf(reference)).status).toBe('succeeded');
  });

  it('a late success after expiry does not turn the expired payment into a paid one: it is owed back', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.lateSuccess);
    expect(await pollUntilSettled(reference)).toBe('settled');
    expect((await paymentOf(reference)).status).toBe('failed');
    expect(await callbacksHandled(reference, 1, 5000)).toEqual(['refund_needed']);
    expect(await paymentOf(reference)).toMatchObject({ status: 'failed', paid_at: null, refund_status: 'needed' });
    // Asked again, the same success is recorded once.
    expect(await pollMobileMoneyPayment(database.db, momo, reference, settling)).toBe('unchanged');
  });

  it('a callback with the wrong amount is not believed: the status’s amount is what settles', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.wrongAmountCallback);
    expect(await callbacksHandled(reference, 1)).toEqual(['settled']);
    expect(simulator.callbacksSent().find(({ body }) => body.externalId === reference)?.body.amount).toBe('15000');
    expect(await paymentOf(reference)).toMatchObject({ status: 'succeeded', amount: 1500 });
  });

  it('a forged success callback for a prompt still pending settles nothing', async () => {
    const reference = await pendingPayment('000');
    const forged = await fetch(callbackUrl, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ externalId: reference, amount: '1500', currency: 'RWF', status: 'SUCCESSFUL' }),
    });
    expect(await forged.json()).toEqual({ outcome: 'pending' });
    expect((await paymentOf(reference)).status).toBe('pending');
  });

  it('a provider record whose amount differs from ours is refused and logged', async () => {
    const reference = await pendingPayment(MOMO_SCRIPTS.wrongAmountRecord);
    expect(await callbacksHandled(reference, 1)).toEqual(['refused']);
    expect((await paymentOf(reference)).status).toBe('pending');
    expect(warnings).toContainEqual(
      expect.objectContaining({
        message: 'payment callback amount or currency differs from the payment: ignored',
        object: expect.objectContaining({ reference, amount: 1501, currency: 'RWF' }),
      }),
    );
  });

  it('a status naming another payment is refused and logged', async () => {
    const reference = await pendingPayment('001');
    const status = await momo.status(paymentRef(reference));
    const outcome = await settleFromStatus(
      database.db,
      momo,
      randomUUID(),
      { ...status, state: 'succeeded' },
      settling,
    );
    expect(outcome).toBe('refused');
    expect(warnings.at(-1)?.message).toBe('mobile money status names another payment: ignored');
  });

  it('a callback naming no payment is ignored', async () => {
    const reply = await fetch(callbackUrl, { method: 'PUT', body: JSON.stringify({ status: 'SUCCESSFUL' }) });
    expect(await reply.json()).toEqual({ outcome: 'ignored' });
  });

  it('10 identical callbacks arriving at once and a status poll settle the payment exactly once', async () => {
    // The simulator's own callback goes nowhere: the ten below and the poll race for the payment.
    const reference = await pendingPayment('002', `${simulator.url}/nowhere`);
    expect(simulator.approve(reference)).toBe(true);
    let sent = simulator.callbacksSent().find((entry) => entry.body.externalId === reference);
    for (let tries = 0; sent?.status == null && tries < 200; tries += 1) {
      await pause(25);
      sent = simulator.callbacksSent().find((entry) => entry.body.externalId === reference);
    }
    if (!sent) throw new Error('the simulator sent no callback');
    expect(sent.status).toBe(404);
    expect((await paymentOf(reference)).status).toBe('pending');
    const body = JSON.stringify(sent.body);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () =>
        fetch(callbackUrl, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body })
          .then((reply) => reply.json() as Promise<{ outcome: string }>)
          .then(({ outcome }) => outcome),
      ),
      pollMobileMoneyPayment(database.db, momo, reference, settling),
    ]);
    expect(results.filter((outcome) => outcome === 'settled')).toHaveLength(1);
    expect(results.filter((outcome) => outcome === 'unchanged')).toHaveLength(10);
    expect(await paymentOf(reference)).toMatchObject({
      status: 'succeeded',
      provider_event_id: `mtn_momo:${reference}:succeeded`,
    });
  });
});
