import type { Db } from '../../db/client.ts';
import type { Env } from '../../lib/env.ts';
import { createFlutterwaveProvider, type FlutterwaveProvider } from './providers/flutterwave.ts';
import { sandboxChargesIn } from './providers/sandbox-charges.ts';
import {
  createSandboxProvider,
  type CallbackDelivery,
  type SandboxProvider,
  type UndeliveredCallback,
} from './providers/sandbox-provider.ts';

/**
 * Who takes card payments (ADR 038): Flutterwave's hosted checkout when PAYMENTS_PROVIDER says so (the
 * default once FLUTTERWAVE_* are set), else the sandbox. lib/env.ts checks the variables go together and
 * that production names the sandbox explicitly if it runs it.
 */
export type CardEnv = Pick<
  Env,
  | 'PAYMENTS_PROVIDER'
  | 'PAYMENTS_WEBHOOK_SECRET'
  | 'PUBLIC_URL'
  | 'FLUTTERWAVE_BASE_URL'
  | 'FLUTTERWAVE_SECRET_KEY'
  | 'FLUTTERWAVE_SECRET_HASH'
>;

export type CardProvider =
  { name: 'sandbox'; provider: SandboxProvider } | { name: 'flutterwave'; provider: FlutterwaveProvider };

export interface CardProviderDeps {
  db: Db;
  log: { warn(object: object, message: string): void };
  /** The sandbox's callback delivery (tests deliver through app.inject). */
  deliver?: CallbackDelivery;
  /** Keeps a sandbox callback whose first delivery failed, as a job. */
  retryLater?: (callback: UndeliveredCallback) => Promise<void>;
}

/** Per call: a webhook and a returning payer's page wait for a verify answer, so it stays short. */
const FLUTTERWAVE_TIMEOUT_MS = 8_000;

/** The card provider this deployment is configured for. */
export function cardProviderFrom(env: CardEnv, { db, log, deliver, retryLater }: CardProviderDeps): CardProvider {
  const { FLUTTERWAVE_BASE_URL: baseUrl, FLUTTERWAVE_SECRET_KEY: secretKey, FLUTTERWAVE_SECRET_HASH: secretHash } = env;
  if (env.PAYMENTS_PROVIDER === 'flutterwave') {
    if (!baseUrl || !secretKey || !secretHash) throw new Error('PAYMENTS_PROVIDER=flutterwave needs FLUTTERWAVE_*');
    return {
      name: 'flutterwave',
      provider: createFlutterwaveProvider({
        baseUrl,
        secretKey,
        secretHash,
        publicUrl: env.PUBLIC_URL,
        timeoutMs: FLUTTERWAVE_TIMEOUT_MS,
      }),
    };
  }
  return {
    name: 'sandbox',
    provider: createSandboxProvider({
      secret: env.PAYMENTS_WEBHOOK_SECRET,
      publicUrl: env.PUBLIC_URL,
      log,
      charges: sandboxChargesIn(db),
      ...(deliver ? { deliver } : {}),
      ...(retryLater ? { retryLater } : {}),
    }),
  };
}
