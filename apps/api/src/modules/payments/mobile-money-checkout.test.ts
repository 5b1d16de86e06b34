import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES, PaymentOptionsSchema, type FeeOption } from '@kaminuza/shared';
import { buildApp, type App } from '../../app.ts';
import { payments, students } from '../../db/schema/index.ts';
import { MOMO_SCRIPTS, startMomoSimulator, type MomoSimulator } from '../../simulators/mtn-momo.ts';
import { testEnv } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import { freePort } from '../../test/server-process.ts';
import {
  createApplicationOf,
  createPayingInstitution,
  paymentByReference,
  settledPayment,
} from '../../test/payments.ts';
import { getSettings, updateAdmissions } from '../partner-settings/partner-settings.service.ts';
import { paymentOptions } from './payments.service.ts';

/*
 * An applicant paying by MTN MoMo through the api, against the MoMo simulator over HTTP: the fee in the
 * currency chosen, the number checked against the network's markets, the prompt pushed once the record is
 * committed, the callback and the poll settling it, and every refusal a clear 400 that records nothing.
 */

const CREDENTIALS = { apiUser: randomUUID(), apiKey: 'momo-api-key', subscriptionKey: 'momo-subscription-key' };
const FEES: FeeOption[] = [
  { currency: 'USD', amount: 10_000, channels: ['card'] },
  { currency: 'RWF', amount: 130_000, channels: ['card', 'mtn_momo'] },
];

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: MomoSimulator;
let app: App;
let partnerId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  simulator = await startMomoSimulator({ ...CREDENTIALS, expireAfterMs: 60_000, payerDelayMs: 10 });
  const port = await freePort();
  app = await buildApp({
    database,
    env: testEnv({
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      MTN_MOMO_BASE_URL: simulator.url,
      MTN_MOMO_API_USER: CREDENTIALS.apiUser,
      MTN_MOMO_API_KEY: CREDENTIALS.apiKey,
      MTN_MOMO_SUBSCRIPTION_KEY: CREDENTIALS.subscriptionKey,
      MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
    }),
    logger: false,
    work: true,
  });
  await app.listen({ port, host: '127.0.0.1' });
  partnerId = await createPayingInstitution(database.db, 'momo-pay');
  const { admissions } = await getSettings(database.db, partnerId);
  await updateAdmissions(database.db, partnerId, { ...admissions, application_fees: FEES });
});

afterAll(async () => {
  await app?.close();
  await simulator?.stop();
  await database?.close();
});

async function applicant(): Promise<{ student: TestAccount; applicationId: string }> {
  const student = await signInAs(app, 'student');
  const { applicationId } = await createApplicationOf(database.db, partnerId, student.id);
  return { student, applicationId };
}

function pay(student: TestAccount, applicationId: string, body?: object, key?: string) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/applications/${applicationId}/payment`,
    headers: { ...student.headers, ...(key ? { 'idempotency-key': key } : {}) },
    ...(body ? { payload: body } : {}),
  });
}

const paymentsOf = (applicationId: string) =>
  database.db.select().from(payments).where(eq(payments.application_id, applicationId));

describe('paying the fee by MTN MoMo', () => {
  it('offers each currency with the ways this platform collects in it, and the profile phone', async () => {
    const { student, applicationId } = await applicant();
    const [row] = await database.db.select().from(students).where(eq(students.user_id, student.id));
    await database.db.update(students).set({ phone: '+250788123456' }).where(eq(students.id, row!.id));
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/applications/${applicationId}/payment/options`,
      headers: student.headers,
    });
    expect(response.statusCode).toBe(200);
    const { options, suggested_phone } = PaymentOptionsSchema.parse(response.json().data);
    expect(options).toEqual([
      { currency: 'USD', amount: 10_000, amount_major: 100, channels: ['card'] },
      { currency: 'RWF', amount: 130_000, amount_major: 130_000, channels: ['card', 'mtn_momo'] },
    ]);
    expect(suggested_phone).toBe('+250788123456');
    // A network the deployment does not collect through is not offered.
    const cardOnly = await paymentOptions(database.db, new Set(['card']), student.id, applicationId);
    expect(cardOnly.options.map((option) => option.channels)).toEqual([['card'], ['card']]);
  });

  it('another student’s application has no options and cannot be paid: 404', async () => {
    const { applicationId } = await applicant();
    const other = await signInAs(app, 'student');
    const options = await app.inject({
      method: 'GET',
      url: `/api/v1/applications/${applicationId}/payment/options`,
      headers: other.headers,
    });
    expect(options.statusCode).toBe(404);
    const response = await pay(other, applicationId, { channel: 'mtn_momo', currency: 'RWF', phone: '+250788000111' });
    expect(response.statusCode).toBe(404);
    expect(await paymentsOf(applicationId)).toEqual([]);
  });

  it('pushes the prompt to the number and settles the payment once the payer approves', async () => {
    const { student, applicationId } = await applicant();
    const response = await pay(student, applicationId, {
      channel: 'mtn_momo',
      currency: 'RWF',
      phone: '0788 000 111',
    });
    expect(response.statusCode).toBe(201);
    const { payment, checkout_url } = response.json().data;
    expect(payment).toMatchObject({ provider: 'mtn_momo', amount: 130_000, currency: 'RWF', status: 'pending' });
    expect(checkout_url).toBe(`/pay?reference=${payment.reference}`);
    const prompt = simulator.prompts().find((p) => p.referenceId === payment.reference);
    expect(prompt).toMatchObject({ amount: '130000', currency: 'RWF', payer: { partyId: '250788000111' } });
    expect(await settledPayment(database.db, payment.reference)).toMatchObject({
      status: 'succeeded',
      method: 'mobile_money',
      payer_phone: '250788000111',
    });
  });

  it('a declined prompt fails the payment with the reason the payer is told', async () => {
    const { student, applicationId } = await applicant();
    const response = await pay(student, applicationId, {
      channel: 'mtn_momo',
      currency: 'RWF',
      phone: `+250788000${MOMO_SCRIPTS.decline}`,
    });
    const { payment } = response.json().data;
    expect(await settledPayment(database.db, payment.reference)).toMatchObject({
      status: 'failed',
      failure_reason: PAYMENT_MESSAGES.mobile_money_declined,
    });
    // A new attempt may follow a failed one.
    const again = await pay(student, applicationId, {
      channel: 'mtn_momo',
      currency: 'RWF',
      phone: `+250788000${MOMO_SCRIPTS.approve}`,
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().data.payment.reference).not.toBe(payment.reference);
  });

  it('the same request key answers the same payment and pushes one prompt', async () => {
    const { student, applicationId } = await applicant();
    const key = `key-${randomUUID()}`;
    const body = { channel: 'mtn_momo', currency: 'RWF', phone: '+250788000000' };
    const first = await pay(student, applicationId, body, key);
    const second = await pay(student, applicationId, body, key);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json().data.payment.reference).toBe(first.json().data.payment.reference);
    const reference = first.json().data.payment.reference as string;
    expect(simulator.prompts().filter((p) => p.referenceId === reference)).toHaveLength(1);
    // The same key with another body is another request: refused.
    const reused = await pay(student, applicationId, { ...body, phone: '+250788000111' }, key);
    expect(reused.statusCode).toBe(422);
  });

  it('a network that does not answer fails the payment at once with what to do, and records no prompt', async () => {
    const { student, applicationId } = await applicant();
    simulator.setMode('close');
    try {
      const response = await pay(student, applicationId, {
        channel: 'mtn_momo',
        currency: 'RWF',
        phone: '+250788000111',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().data.payment).toMatchObject({
        status: 'failed',
        failure_reason: PAYMENT_MESSAGES.mobile_money_unavailable,
      });
    } finally {
      simulator.setMode('normal');
    }
  });

  it.each([
    [
      'a network the institution does not take in that currency',
      { channel: 'mtn_momo', currency: 'USD', phone: '+250788000111' },
      'channel',
    ],
    ['a currency the institution does not charge in', { channel: 'card', currency: 'EUR' }, 'currency'],
    ['a number of another country', { channel: 'mtn_momo', currency: 'RWF', phone: '+254712345678' }, 'phone'],
    ['a landline', { channel: 'mtn_momo', currency: 'RWF', phone: '+250252123456' }, 'phone'],
    ['no number', { channel: 'mtn_momo', currency: 'RWF' }, 'phone'],
    ['a way to pay that does not exist', { channel: 'cash', currency: 'RWF' }, 'channel'],
  ])('%s is a 400 on that field that records nothing', async (_case, body, field) => {
    const { student, applicationId } = await applicant();
    const response = await pay(student, applicationId, body);
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json().error)).toContain(field);
    expect(await paymentsOf(applicationId)).toEqual([]);
  });

  it('without a body, the first currency’s card checkout opens as before', async () => {
    const { student, applicationId } = await applicant();
    const response = await pay(student, applicationId);
    expect(response.statusCode).toBe(201);
    expect(response.json().data.payment).toMatchObject({ provider: 'sandbox', amount: 100, currency: 'USD' });
    const row = await paymentByReference(database.db, response.json().data.payment.reference);
    expect(row.payer_phone).toBeNull();
  });
});
