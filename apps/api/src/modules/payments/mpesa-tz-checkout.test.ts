import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES, PaymentOptionsSchema, type FeeOption } from '@kaminuza/shared';
import { buildApp, type App } from '../../app.ts';
import { payments } from '../../db/schema/index.ts';
import { VODACOM_SCRIPTS, startVodacomMpesaSimulator, type VodacomSimulator } from '../../simulators/vodacom-mpesa.ts';
import { testEnv } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createApplicationOf, createPayingInstitution, settledPayment } from '../../test/payments.ts';
import { getSettings, updateAdmissions } from '../partner-settings/partner-settings.service.ts';

/*
 * An applicant in Tanzania paying by M-Pesa (Vodacom) through the api, against the Vodacom simulator over
 * HTTP: the single-stage payment sent once the record is committed and settled by the poll (Vodacom sends no
 * callback), a failure the payer is told, and a number of another country refused before anything is sent.
 */

const CREDENTIALS = { apiKey: randomUUID().replaceAll('-', ''), serviceProviderCode: '000000' };
const FEES: FeeOption[] = [
  { currency: 'USD', amount: 10_000, channels: ['card'] },
  { currency: 'TZS', amount: 5_000_000, channels: ['card', 'mpesa_tz'] },
];
/** The first poll comes 5 s after the prompt (MOBILE_MONEY_POLL_SCHEDULE). */
const SETTLED_WITHIN_MS = 15_000;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: VodacomSimulator;
let app: App;
let partnerId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  simulator = await startVodacomMpesaSimulator({ ...CREDENTIALS, expireAfterMs: 60_000, payerDelayMs: 10 });
  app = await buildApp({
    database,
    env: testEnv({
      MPESA_TZ_BASE_URL: simulator.url,
      MPESA_TZ_API_KEY: CREDENTIALS.apiKey,
      MPESA_TZ_PUBLIC_KEY: simulator.publicKey,
      MPESA_TZ_SERVICE_PROVIDER_CODE: CREDENTIALS.serviceProviderCode,
    }),
    logger: false,
    work: true,
  });
  partnerId = await createPayingInstitution(database.db, 'mpesa-tz-pay', 'TZ');
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

const pay = (student: TestAccount, applicationId: string, body: object) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/applications/${applicationId}/payment`,
    headers: student.headers,
    payload: body,
  });

describe('paying the fee by M-Pesa Tanzania', () => {
  it('offers M-Pesa Tanzania for the fee in TZS', async () => {
    const { student, applicationId } = await applicant();
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/applications/${applicationId}/payment/options`,
      headers: student.headers,
    });
    const { options } = PaymentOptionsSchema.parse(response.json().data);
    expect(options.find((option) => option.currency === 'TZS')?.channels).toEqual(['card', 'mpesa_tz']);
  });

  it('sends the payment to the number and the poll settles it once the payer approved', async () => {
    const { student, applicationId } = await applicant();
    const response = await pay(student, applicationId, {
      channel: 'mpesa_tz',
      currency: 'TZS',
      phone: `0754 000 ${VODACOM_SCRIPTS.approve}`,
    });
    expect(response.statusCode).toBe(201);
    const { payment } = response.json().data;
    expect(payment).toMatchObject({ provider: 'mpesa_tz', amount: 50_000, currency: 'TZS', status: 'pending' });
    expect(simulator.prompts().find((p) => p.id === payment.reference)).toMatchObject({
      amount: '50000.00',
      currency: 'TZS',
      msisdn: `255754000${VODACOM_SCRIPTS.approve}`,
    });
    const settled = await settledPayment(database.db, payment.reference, SETTLED_WITHIN_MS);
    expect(settled).toMatchObject({
      status: 'succeeded',
      method: 'mobile_money',
      payer_phone: `255754000${VODACOM_SCRIPTS.approve}`,
      provider_transaction_id: simulator.prompts().find((p) => p.id === payment.reference)?.transactionId,
    });
  });

  it('a payer without the balance: the payment fails at once with what they are told', async () => {
    const { student, applicationId } = await applicant();
    const response = await pay(student, applicationId, {
      channel: 'mpesa_tz',
      currency: 'TZS',
      phone: `+255754000${VODACOM_SCRIPTS.insufficientFunds}`,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.payment).toMatchObject({
      status: 'failed',
      failure_reason: PAYMENT_MESSAGES.mobile_money_insufficient_funds,
    });
  });

  it('a payer declining on the phone after the request returned: the poll fails the payment', async () => {
    const { student, applicationId } = await applicant();
    const response = await pay(student, applicationId, {
      channel: 'mpesa_tz',
      currency: 'TZS',
      phone: `+255754000${VODACOM_SCRIPTS.timeout}`,
    });
    const { payment } = response.json().data;
    expect(payment.status).toBe('pending');
    simulator.decline(payment.reference);
    expect(await settledPayment(database.db, payment.reference, SETTLED_WITHIN_MS)).toMatchObject({
      status: 'failed',
      failure_reason: PAYMENT_MESSAGES.mobile_money_declined,
    });
  });

  it('a Kenyan number is a 400 on the phone that sends and records nothing', async () => {
    const { student, applicationId } = await applicant();
    const before = simulator.prompts().length;
    const response = await pay(student, applicationId, {
      channel: 'mpesa_tz',
      currency: 'TZS',
      phone: '+254712345111',
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json().error)).toContain('phone');
    expect(await database.db.select().from(payments).where(eq(payments.application_id, applicationId))).toEqual([]);
    expect(simulator.prompts()).toHaveLength(before);
  });
});
