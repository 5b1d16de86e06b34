import type { MobileMoneyProviderName } from '@kaminuza/shared';
import type { Env } from '../../lib/env.ts';
import type { MobileMoneyProvider } from './providers/mobile-money.ts';
import { createMpesaDarajaProvider } from './providers/mpesa-daraja.ts';
import { createAirtelMoneyProvider } from './providers/airtel-money.ts';
import { createMtnMomoProvider } from './providers/mtn-momo.ts';
import { createVodacomMpesaProvider } from './providers/vodacom-mpesa.ts';

/**
 * The mobile money networks this deployment collects through: each one whose variables are set (all of
 * a provider's variables together, or none: lib/env.ts checks it). Its base URL is the provider's, or in
 * development and tests a local simulator of the same API (ADR 037).
 */
export type MobileMoneyEnv = Pick<
  Env,
  | 'MTN_MOMO_BASE_URL'
  | 'MTN_MOMO_API_USER'
  | 'MTN_MOMO_API_KEY'
  | 'MTN_MOMO_SUBSCRIPTION_KEY'
  | 'MTN_MOMO_TARGET_ENVIRONMENT'
  | 'MTN_MOMO_DISBURSEMENT_API_USER'
  | 'MTN_MOMO_DISBURSEMENT_API_KEY'
  | 'MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY'
  | 'MPESA_BASE_URL'
  | 'MPESA_CONSUMER_KEY'
  | 'MPESA_CONSUMER_SECRET'
  | 'MPESA_SHORTCODE'
  | 'MPESA_PASSKEY'
  | 'MPESA_INITIATOR_NAME'
  | 'MPESA_SECURITY_CREDENTIAL'
  | 'AIRTEL_MONEY_BASE_URL'
  | 'AIRTEL_MONEY_CLIENT_ID'
  | 'AIRTEL_MONEY_CLIENT_SECRET'
  | 'MPESA_TZ_BASE_URL'
  | 'MPESA_TZ_API_KEY'
  | 'MPESA_TZ_PUBLIC_KEY'
  | 'MPESA_TZ_SERVICE_PROVIDER_CODE'
>;

export type MobileMoneyProviders = ReadonlyMap<MobileMoneyProviderName, MobileMoneyProvider>;

/** Per status or payment call: a callback is answered after one, so it stays short. */
const CALL_TIMEOUT_MS = 5_000;

/**
 * The MTN MoMo adapter when its variables are set, else null. It refunds through MoMo's Disbursement
 * product when that product's variables are set too; otherwise it has no `refunds`.
 */
export function mtnMomoProviderFrom(env: MobileMoneyEnv): MobileMoneyProvider | null {
  const {
    MTN_MOMO_BASE_URL: baseUrl,
    MTN_MOMO_API_USER: apiUser,
    MTN_MOMO_API_KEY: apiKey,
    MTN_MOMO_SUBSCRIPTION_KEY: subscriptionKey,
    MTN_MOMO_TARGET_ENVIRONMENT: targetEnvironment,
    MTN_MOMO_DISBURSEMENT_API_USER: disbursementUser,
    MTN_MOMO_DISBURSEMENT_API_KEY: disbursementKey,
    MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: disbursementSubscriptionKey,
  } = env;
  if (!baseUrl || !apiUser || !apiKey || !subscriptionKey || !targetEnvironment) return null;
  const disbursement =
    disbursementUser && disbursementKey && disbursementSubscriptionKey
      ? { apiUser: disbursementUser, apiKey: disbursementKey, subscriptionKey: disbursementSubscriptionKey }
      : undefined;
  return createMtnMomoProvider({
    baseUrl,
    apiUser,
    apiKey,
    subscriptionKey,
    targetEnvironment,
    disbursement,
    timeoutMs: CALL_TIMEOUT_MS,
  });
}

/**
 * The M-Pesa (Daraja STK Push) adapter when its variables are set, else null. With the reversal initiator
 * and its security credential too, it refunds through Daraja's Reversals API (`refunds`).
 */
export function mpesaProviderFrom(env: MobileMoneyEnv): MobileMoneyProvider | null {
  const {
    MPESA_BASE_URL: baseUrl,
    MPESA_CONSUMER_KEY: consumerKey,
    MPESA_CONSUMER_SECRET: consumerSecret,
    MPESA_SHORTCODE: shortcode,
    MPESA_PASSKEY: passkey,
    MPESA_INITIATOR_NAME: initiatorName,
    MPESA_SECURITY_CREDENTIAL: securityCredential,
  } = env;
  if (!baseUrl || !consumerKey || !consumerSecret || !shortcode || !passkey) return null;
  return createMpesaDarajaProvider({
    baseUrl,
    consumerKey,
    consumerSecret,
    shortcode,
    passkey,
    initiatorName,
    securityCredential,
    timeoutMs: CALL_TIMEOUT_MS,
  });
}

/**
 * The Airtel Money adapter when its variables are set, else null. Airtel sends its callbacks to the URL
 * registered in its portal: `${PUBLIC_URL}/api/v1/payments/callbacks/airtel-money`.
 */
export function airtelMoneyProviderFrom(env: MobileMoneyEnv): MobileMoneyProvider | null {
  const {
    AIRTEL_MONEY_BASE_URL: baseUrl,
    AIRTEL_MONEY_CLIENT_ID: clientId,
    AIRTEL_MONEY_CLIENT_SECRET: clientSecret,
  } = env;
  if (!baseUrl || !clientId || !clientSecret) return null;
  return createAirtelMoneyProvider({ baseUrl, clientId, clientSecret, timeoutMs: CALL_TIMEOUT_MS });
}

/**
 * The M-Pesa Tanzania (Vodacom OpenAPI) adapter when its variables are set, else null. Its single-stage
 * payment answers the call itself and Vodacom sends no callback: the polls decide.
 */
export function mpesaTanzaniaProviderFrom(env: MobileMoneyEnv): MobileMoneyProvider | null {
  const {
    MPESA_TZ_BASE_URL: baseUrl,
    MPESA_TZ_API_KEY: apiKey,
    MPESA_TZ_PUBLIC_KEY: publicKey,
    MPESA_TZ_SERVICE_PROVIDER_CODE: serviceProviderCode,
  } = env;
  if (!baseUrl || !apiKey || !publicKey || !serviceProviderCode) return null;
  return createVodacomMpesaProvider({ baseUrl, apiKey, publicKey, serviceProviderCode, timeoutMs: CALL_TIMEOUT_MS });
}

/** Every configured mobile money provider, by name. */
export function mobileMoneyProvidersFrom(env: MobileMoneyEnv): MobileMoneyProviders {
  const providers = new Map<MobileMoneyProviderName, MobileMoneyProvider>();
  for (const provider of [
    mtnMomoProviderFrom(env),
    mpesaProviderFrom(env),
    mpesaTanzaniaProviderFrom(env),
    airtelMoneyProviderFrom(env),
  ]) {
    if (provider) providers.set(provider.name, provider);
  }
  return providers;
}

/** The path each provider's callbacks come to, under /api/v1: /payments/callbacks/mtn-momo … */
export const callbackPathOf = (name: MobileMoneyProviderName) => `/payments/callbacks/${name.replaceAll('_', '-')}`;
