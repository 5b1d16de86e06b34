import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevPhonePromptListSchema, type DevPhonePrompt } from '@kaminuza/shared';
import type { App } from '../../app.ts';
import { startPaymentSimulators, type PaymentSimulators } from '../../dev/payment-simulators.ts';
import type { Env } from '../../lib/env.ts';
import { createTestApp, testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import {
  airtelMoneyProviderFrom,
  mpesaTanzaniaProviderFrom,
  mobileMoneyProvidersFrom,
  mpesaProviderFrom,
  mtnMomoProviderFrom,
} from './mobile-money-providers.ts';

/*
 * The dev phone as the server runs it: the three simulators started by the composition root, the env
 * pointed at them, prompts pushed by the real adapters over HTTP, and the dev routes listing them and
 * answering one as the payer's phone would. Without simulators the routes do not exist.
 */

// Nothing listens there: the simulators' callbacks fail quietly, as the routes under test do not need them.
const NOWHERE = 'http://127.0.0.1:9';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let simulators: PaymentSimulators;
let app: App;
let plain: App;

beforeAll(async () => {
  database = await createTestDatabase();
  simulators = await startPaymentSimulators(testEnv({ PUBLIC_URL: NOWHERE }));
  app = await createTestApp(database, simulators.env, { paymentSimulators: simulators.endpoints });
  plain = await createTestApp(database, testEnv({ PAYMENT_SIMULATORS: 'off' }));
});

afterAll(async () => {
  await app?.close();
  await plain?.close();
  await simulators?.stop();
  await database?.close();
});

async function prompts(): Promise<DevPhonePrompt[]> {
  const response = await app.inject({ method: 'GET', url: '/api/v1/dev/phone/prompts' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return DevPhonePromptListSchema.parse(response.json().data);
}

describe('the payment simulators of the server', () => {
  it('start for every provider left unconfigured, with the env pointed at them', () => {
    const networks = ['mtn_momo', 'mpesa', 'mpesa_tz', 'airtel_money'];
    expect(simulators.endpoints.map((endpoint) => endpoint.provider)).toEqual(networks);
    expect([...mobileMoneyProvidersFrom(simulators.env).keys()]).toEqual(networks);
    expect(simulators.env.MTN_MOMO_BASE_URL).toBe(simulators.endpoints[0]!.url);
    expect(simulators.banner).toContain(`${NOWHERE}/dev/phone`);
    // Cards go through the Flutterwave simulator (no prompts for the phone: it is a hosted checkout).
    expect(simulators.env.PAYMENTS_PROVIDER).toBe('flutterwave');
    expect(simulators.env.FLUTTERWAVE_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(simulators.banner).toContain('Flutterwave (cards)');
  });

  it('keep cards on the sandbox when PAYMENTS_PROVIDER names it', async () => {
    const sandbox = await startPaymentSimulators(testEnv({ PAYMENTS_PROVIDER: 'sandbox' }), undefined, {
      cardProvider: true,
    });
    try {
      expect(sandbox.env.PAYMENTS_PROVIDER).toBe('sandbox');
      expect(sandbox.env.FLUTTERWAVE_BASE_URL).toBeUndefined();
      expect(sandbox.endpoints).toHaveLength(4);
    } finally {
      await sandbox.stop();
    }
  });

  it('leave a provider with real variables alone, and start none when off or in production', async () => {
    const real = {
      MTN_MOMO_BASE_URL: 'https://sandbox.momodeveloper.mtn.com',
      MTN_MOMO_API_USER: randomUUID(),
      MTN_MOMO_API_KEY: 'key',
      MTN_MOMO_SUBSCRIPTION_KEY: 'subscription',
      MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
    };
    const some = await startPaymentSimulators(testEnv(real));
    try {
      expect(some.endpoints.map((endpoint) => endpoint.provider)).toEqual(['mpesa', 'mpesa_tz', 'airtel_money']);
      expect(some.env.MTN_MOMO_BASE_URL).toBe(real.MTN_MOMO_BASE_URL);
    } finally {
      await some.stop();
    }
    const production: Env = {
      ...testEnv(),
      NODE_ENV: 'production',
      PAYMENT_SIMULATORS: false,
    };
    for (const env of [
      testEnv({ PAYMENT_SIMULATORS: 'off' }),
      production,
      { ...production, PAYMENT_SIMULATORS: true },
    ]) {
      const none = await startPaymentSimulators(env);
      expect(none.endpoints).toEqual([]);
      expect(none.banner).toBe('');
      expect(none.env).toEqual(env);
    }
  });
});

describe('the dev phone routes', () => {
  it('do not exist without simulators', async () => {
    expect((await plain.inject({ method: 'GET', url: '/api/v1/dev/phone/prompts' })).statusCode).toBe(404);
    const decide = await plain.inject({ method: 'POST', url: '/api/v1/dev/phone/prompts/mtn_momo/x/approve' });
    expect(decide.statusCode).toBe(404);
  });

  it('list the prompts of every simulator and approve or decline one as the payer would', async () => {
    await mtnMomoProviderFrom(simulators.env)!.requestPayment({
      reference: randomUUID(),
      amount: 15_000,
      currency: 'RWF',
      msisdn: '250788123450',
      country: 'RW',
      payerMessage: 'Application fee',
      payeeNote: 'Application',
      callbackUrl: `${NOWHERE}/api/v1/payments/callbacks/mtn-momo`,
    });
    const mpesa = await mpesaProviderFrom(simulators.env)!.requestPayment({
      reference: randomUUID(),
      amount: 2_500,
      currency: 'KES',
      msisdn: '254712345670',
      country: 'KE',
      payerMessage: 'Application fee',
      payeeNote: 'Application',
      callbackUrl: `${NOWHERE}/api/v1/payments/callbacks/mpesa`,
    });
    const airtelReference = randomUUID();
    await airtelMoneyProviderFrom(simulators.env)!.requestPayment({
      reference: airtelReference,
      amount: 20_000,
      currency: 'RWF',
      msisdn: '250731234560',
      country: 'RW',
      payerMessage: 'Application fee',
      payeeNote: 'Application',
      callbackUrl: `${NOWHERE}/api/v1/payments/callbacks/airtel-money`,
    });
    // Vodacom's single-stage payment waits for the payer: the prompt is listed while its call is open.
    const vodacomReference = randomUUID();
    await mpesaTanzaniaProviderFrom(simulators.env)!.requestPayment({
      reference: vodacomReference,
      amount: 5_000_000,
      currency: 'TZS',
      msisdn: '255754123450',
      country: 'TZ',
      payerMessage: 'Application fee',
      payeeNote: 'Application',
      callbackUrl: `${NOWHERE}/unused`,
    });

    const listed = await prompts();
    expect(listed).toHaveLength(4);
    expect(listed.every((prompt) => prompt.status === 'pending')).toBe(true);
    const byProvider = Object.fromEntries(listed.map((prompt) => [prompt.provider, prompt]));
    expect(byProvider.mtn_momo).toMatchObject({ msisdn: '250788123450', amount: 15_000, currency: 'RWF' });
    expect(byProvider.mpesa).toMatchObject({
      id: mpesa.providerReference,
      msisdn: '254712345670',
      amount: 2_500,
      currency: 'KES',
    });
    expect(byProvider.airtel_money).toMatchObject({ id: airtelReference, amount: 20_000, currency: 'RWF' });
    expect(byProvider.mpesa_tz).toMatchObject({ id: vodacomReference, msisdn: '255754123450', amount: 5_000_000 });

    const approve = await app.inject({
      method: 'POST',
      url: `/api/v1/dev/phone/prompts/mtn_momo/${byProvider.mtn_momo!.id}/approve`,
    });
    expect(approve.statusCode).toBe(204);
    const decline = await app.inject({
      method: 'POST',
      url: `/api/v1/dev/phone/prompts/airtel_money/${airtelReference}/decline`,
    });
    expect(decline.statusCode).toBe(204);
    const vodacom = await app.inject({
      method: 'POST',
      url: `/api/v1/dev/phone/prompts/mpesa_tz/${vodacomReference}/approve`,
    });
    expect(vodacom.statusCode).toBe(204);

    const after = Object.fromEntries((await prompts()).map((prompt) => [prompt.provider, prompt.status]));
    expect(after).toEqual({ mtn_momo: 'succeeded', mpesa: 'pending', mpesa_tz: 'succeeded', airtel_money: 'failed' });

    // The phone answers once: a second answer is refused, and the simulator's record stays as it was.
    const again = await app.inject({
      method: 'POST',
      url: `/api/v1/dev/phone/prompts/mtn_momo/${byProvider.mtn_momo!.id}/decline`,
    });
    expect(again.statusCode).toBe(409);
    const status = await mtnMomoProviderFrom(simulators.env)!.status({
      reference: byProvider.mtn_momo!.id,
      providerReference: null,
      currency: 'RWF',
      country: 'RW',
    });
    expect(status.state).toBe('succeeded');
  });

  it.each([
    ['an unknown provider', '/api/v1/dev/phone/prompts/paypal/abc/approve', 404],
    ['an unknown prompt', '/api/v1/dev/phone/prompts/mpesa/ws_CO_unknown/approve', 409],
    ['an id that is no id', '/api/v1/dev/phone/prompts/mpesa/a%20b/approve', 400],
    ['a decision that is none', '/api/v1/dev/phone/prompts/mpesa/abc/ignore', 400],
    ['a provider name that is none', '/api/v1/dev/phone/prompts/M-PESA/abc/approve', 400],
  ])('refuse %s', async (_label, url, status) => {
    expect((await app.inject({ method: 'POST', url })).statusCode).toBe(status);
  });

  it('answer 502 when a simulator does not answer', async () => {
    const gone = await startPaymentSimulators(testEnv({ PUBLIC_URL: NOWHERE }));
    await gone.stop();
    const broken = await createTestApp(database, gone.env, { paymentSimulators: gone.endpoints });
    try {
      expect((await broken.inject({ method: 'GET', url: '/api/v1/dev/phone/prompts' })).statusCode).toBe(502);
    } finally {
      await broken.close();
    }
  });
});
