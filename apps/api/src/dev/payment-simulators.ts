import { randomBytes, randomUUID } from 'node:crypto';
import type { Env } from '../lib/env.ts';
import type { SimulatorEndpoint } from '../modules/payments/dev-phone.client.ts';
import { startAirtelSimulator } from '../simulators/airtel-money.ts';
import { startFlutterwaveSimulator } from '../simulators/flutterwave.ts';
import { startMomoSimulator } from '../simulators/mtn-momo.ts';
import { startMpesaSimulator } from '../simulators/mpesa-daraja.ts';
import { startVodacomMpesaSimulator } from '../simulators/vodacom-mpesa.ts';

/**
 * Development: the server starts a local simulator of each payment provider whose variables are unset
 * (PAYMENT_SIMULATORS, on by default outside production) and points that provider's variables at it
 * with credentials made up for this run, before the app reads them. The adapters then talk to it over
 * HTTP exactly as to the provider; the dev phone (/dev/phone) answers its prompts. Setting a provider's
 * real variables switches that provider to the real service, and production never starts one (lib/env.ts).
 */

/** A provider's variable: MTN_MOMO_*, MPESA_*, AIRTEL_MONEY_* … */
type PaymentVariable = keyof Env;

interface Started {
  url: string;
  stop(): Promise<void>;
  /** The provider's variables, pointing at the simulator. */
  env: Partial<Pick<Env, PaymentVariable>>;
}

interface SimulatorEntry {
  provider: string;
  /** What the start-up banner calls it. */
  label: string;
  /** The provider's own variables: when any is set, the provider is the real one and no simulator starts. */
  variables: readonly PaymentVariable[];
  /** Whether its prompts are answered on the dev phone (a mobile money network; a card checkout is not). */
  prompts: boolean;
  /** Whether it is wanted beyond its variables being unset (cards: not when PAYMENTS_PROVIDER names the sandbox). */
  wanted?: (env: Env, named: { cardProvider: boolean }) => boolean;
  start(context: { publicUrl: string }): Promise<Started>;
}

const secret = () => randomBytes(24).toString('base64url');

/** One entry per provider simulated: a new provider's simulator is one more entry. */
export const SIMULATED_PROVIDERS: readonly SimulatorEntry[] = [
  {
    provider: 'mtn_momo',
    label: 'MTN MoMo',
    prompts: true,
    variables: [
      'MTN_MOMO_BASE_URL',
      'MTN_MOMO_API_USER',
      'MTN_MOMO_API_KEY',
      'MTN_MOMO_SUBSCRIPTION_KEY',
      'MTN_MOMO_TARGET_ENVIRONMENT',
      'MTN_MOMO_DISBURSEMENT_API_USER',
      'MTN_MOMO_DISBURSEMENT_API_KEY',
      'MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY',
    ],
    async start() {
      const credentials = { apiUser: randomUUID(), apiKey: secret(), subscriptionKey: secret() };
      // Refunds go through MoMo's Disbursement product, which has its own API user and keys.
      const disbursement = { apiUser: randomUUID(), apiKey: secret(), subscriptionKey: secret() };
      const simulator = await startMomoSimulator({ ...credentials, disbursement });
      return {
        url: simulator.url,
        stop: () => simulator.stop(),
        env: {
          MTN_MOMO_BASE_URL: simulator.url,
          MTN_MOMO_API_USER: credentials.apiUser,
          MTN_MOMO_API_KEY: credentials.apiKey,
          MTN_MOMO_SUBSCRIPTION_KEY: credentials.subscriptionKey,
          MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
          MTN_MOMO_DISBURSEMENT_API_USER: disbursement.apiUser,
          MTN_MOMO_DISBURSEMENT_API_KEY: disbursement.apiKey,
          MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: disbursement.subscriptionKey,
        },
      };
    },
  },
  {
    provider: 'mpesa',
    label: 'M-Pesa (Daraja)',
    prompts: true,
    variables: [
      'MPESA_BASE_URL',
      'MPESA_CONSUMER_KEY',
      'MPESA_CONSUMER_SECRET',
      'MPESA_SHORTCODE',
      'MPESA_PASSKEY',
      'MPESA_INITIATOR_NAME',
      'MPESA_SECURITY_CREDENTIAL',
    ],
    async start() {
      // 174379: the shortcode Daraja's sandbox documents for M-Pesa Express.
      const credentials = {
        consumerKey: secret(),
        consumerSecret: secret(),
        shortcode: '174379',
        passkey: secret(),
        // The reversal initiator, so staff can try refunds through the API against the simulator too.
        initiatorName: 'kaminuza-reversals',
        securityCredential: randomBytes(48).toString('base64'),
      };
      const simulator = await startMpesaSimulator(credentials);
      return {
        url: simulator.url,
        stop: () => simulator.stop(),
        env: {
          MPESA_BASE_URL: simulator.url,
          MPESA_CONSUMER_KEY: credentials.consumerKey,
          MPESA_CONSUMER_SECRET: credentials.consumerSecret,
          MPESA_SHORTCODE: credentials.shortcode,
          MPESA_PASSKEY: credentials.passkey,
          MPESA_INITIATOR_NAME: credentials.initiatorName,
          MPESA_SECURITY_CREDENTIAL: credentials.securityCredential,
        },
      };
    },
  },
  {
    provider: 'mpesa_tz',
    label: 'M-Pesa Tanzania (Vodacom)',
    prompts: true,
    variables: ['MPESA_TZ_BASE_URL', 'MPESA_TZ_API_KEY', 'MPESA_TZ_PUBLIC_KEY', 'MPESA_TZ_SERVICE_PROVIDER_CODE'],
    async start() {
      // The simulator makes its own key pair: the adapter encrypts with the public key it gives.
      const credentials = { apiKey: secret(), serviceProviderCode: '000000' };
      const simulator = await startVodacomMpesaSimulator(credentials);
      return {
        url: simulator.url,
        stop: () => simulator.stop(),
        env: {
          MPESA_TZ_BASE_URL: simulator.url,
          MPESA_TZ_API_KEY: credentials.apiKey,
          MPESA_TZ_PUBLIC_KEY: simulator.publicKey,
          MPESA_TZ_SERVICE_PROVIDER_CODE: credentials.serviceProviderCode,
        },
      };
    },
  },
  {
    provider: 'airtel_money',
    label: 'Airtel Money',
    prompts: true,
    variables: ['AIRTEL_MONEY_BASE_URL', 'AIRTEL_MONEY_CLIENT_ID', 'AIRTEL_MONEY_CLIENT_SECRET'],
    async start({ publicUrl }) {
      const credentials = { clientId: randomUUID(), clientSecret: secret() };
      // Airtel calls back the URL registered in its portal, not one sent with the request.
      const simulator = await startAirtelSimulator({
        ...credentials,
        callbackUrl: `${publicUrl}/api/v1/payments/callbacks/airtel-money`,
      });
      return {
        url: simulator.url,
        stop: () => simulator.stop(),
        env: {
          AIRTEL_MONEY_BASE_URL: simulator.url,
          AIRTEL_MONEY_CLIENT_ID: credentials.clientId,
          AIRTEL_MONEY_CLIENT_SECRET: credentials.clientSecret,
        },
      };
    },
  },
  {
    provider: 'flutterwave',
    label: 'Flutterwave (cards)',
    variables: ['FLUTTERWAVE_BASE_URL', 'FLUTTERWAVE_SECRET_KEY', 'FLUTTERWAVE_SECRET_HASH'],
    prompts: false,
    // PAYMENTS_PROVIDER=sandbox keeps cards on the sandbox's own test page.
    wanted: (_env, named) => !named.cardProvider,
    async start({ publicUrl }) {
      const credentials = { secretKey: `FLWSECK_TEST-${secret()}`, secretHash: secret() };
      // Flutterwave calls the webhook URL set on its dashboard, with the dashboard's secret hash.
      const simulator = await startFlutterwaveSimulator({
        ...credentials,
        webhookUrl: `${publicUrl}/api/v1/payments/callbacks/flutterwave`,
      });
      return {
        url: simulator.url,
        stop: () => simulator.stop(),
        env: {
          FLUTTERWAVE_BASE_URL: simulator.url,
          FLUTTERWAVE_SECRET_KEY: credentials.secretKey,
          FLUTTERWAVE_SECRET_HASH: credentials.secretHash,
          PAYMENTS_PROVIDER: 'flutterwave',
        },
      };
    },
  },
];

export interface PaymentSimulators {
  /** The env with each simulated provider's variables pointing at its simulator. */
  env: Env;
  /** The running simulators, for the dev phone's routes (empty when none runs). */
  endpoints: SimulatorEndpoint[];
  /** Lines of the start-up banner (none when no simulator runs). */
  banner: string;
  stop(): Promise<void>;
}

/**
 * Starts the simulators of the providers left unconfigured when PAYMENT_SIMULATORS is on (on local
 * ports the system picks), and answers the env the app is built with.
 */
export async function startPaymentSimulators(
  env: Env,
  entries: readonly SimulatorEntry[] = SIMULATED_PROVIDERS,
  /** Whether PAYMENTS_PROVIDER was set on purpose (the parsed env has a default). */
  named: { cardProvider: boolean } = { cardProvider: false },
): Promise<PaymentSimulators> {
  const chosen =
    env.PAYMENT_SIMULATORS && env.NODE_ENV !== 'production'
      ? entries.filter(
          (entry) => entry.variables.every((name) => env[name] === undefined) && (entry.wanted?.(env, named) ?? true),
        )
      : [];
  const running: (Started & { entry: SimulatorEntry })[] = [];
  const stop = async () => {
    await Promise.allSettled(running.map((simulator) => simulator.stop()));
  };
  try {
    for (const entry of chosen) running.push({ entry, ...(await entry.start({ publicUrl: env.PUBLIC_URL })) });
  } catch (error) {
    await stop();
    throw error;
  }
  const width = Math.max(0, ...running.map(({ entry }) => entry.label.length));
  const banner =
    running.length === 0
      ? ''
      : [
          `Payment simulators (development only; approve prompts at ${env.PUBLIC_URL}/dev/phone):`,
          ...running.map(({ entry, url }) => `  ${entry.label.padEnd(width)}  ${url}`),
        ].join('\n');
  return {
    env: Object.assign({}, env, ...running.map((simulator) => simulator.env)) as Env,
    endpoints: running
      .filter(({ entry }) => entry.prompts)
      .map(({ entry, url }) => ({ provider: entry.provider, url })),
    banner,
    stop,
  };
}
