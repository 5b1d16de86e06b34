import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { PAYMENT_PROVIDERS } from '@kaminuza/shared';
import type { DatabaseOptions } from '../db/client.ts';

const IN_MEMORY = ':memory:';
/** Only ever used outside production, where sessions need not survive a leaked repository. */
const DEVELOPMENT_AUTH_SECRET = 'kaminuza-development-secret-not-for-production';
/** Signs the sandbox provider's callbacks outside production; a leaked value must never settle a real fee. */
export const DEVELOPMENT_PAYMENTS_WEBHOOK_SECRET = 'kaminuza-development-payments-webhook-secret';
const FLAG = { true: true, on: true, '1': true, false: false, off: false, '0': false } as const;

/** The repository root, found from this file so the defaults do not depend on the working directory. */
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const MTN_MOMO_VARIABLES = [
  'MTN_MOMO_API_USER',
  'MTN_MOMO_API_KEY',
  'MTN_MOMO_SUBSCRIPTION_KEY',
  'MTN_MOMO_TARGET_ENVIRONMENT',
] as const;
const MTN_MOMO_DISBURSEMENT_VARIABLES = [
  'MTN_MOMO_DISBURSEMENT_API_USER',
  'MTN_MOMO_DISBURSEMENT_API_KEY',
  'MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY',
] as const;

const MPESA_VARIABLES = ['MPESA_CONSUMER_KEY', 'MPESA_CONSUMER_SECRET', 'MPESA_SHORTCODE', 'MPESA_PASSKEY'] as const;
const MPESA_REVERSAL_VARIABLES = ['MPESA_INITIATOR_NAME', 'MPESA_SECURITY_CREDENTIAL'] as const;
const AIRTEL_MONEY_VARIABLES = ['AIRTEL_MONEY_CLIENT_ID', 'AIRTEL_MONEY_CLIENT_SECRET'] as const;
const MPESA_TZ_VARIABLES = ['MPESA_TZ_API_KEY', 'MPESA_TZ_PUBLIC_KEY', 'MPESA_TZ_SERVICE_PROVIDER_CODE'] as const;
const FLUTTERWAVE_VARIABLES = ['FLUTTERWAVE_SECRET_KEY', 'FLUTTERWAVE_SECRET_HASH'] as const;

/**
 * Whether a provider's address is this machine or a private network (a simulator) or not encrypted:
 * production talks to a payment provider only over https to a public name.
 */
export function localAddress(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    protocol !== 'https:' ||
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host === '::1' ||
    host === '::' ||
    /^(127|10|0)\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    /^169\.254\./.test(host) ||
    /^f[cd][0-9a-f]{2}:/.test(host) ||
    !host.includes('.')
  );
}

const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    /** When set, a real PostgreSQL server; otherwise embedded PGlite under DATA_DIR. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    /**
     * Connections each api instance keeps to PostgreSQL. Requests wait for one (a submit holds its own for
     * the whole transaction), so a burst queues here, for 10 s at most (then 503, ADR 021); the server's
     * max_connections bounds instances × this.
     */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
    DATA_DIR: z.string().min(1).default(`${REPO_ROOT}data`),
    /**
     * Where uploaded files are kept: `disk` (under DATA_DIR/files) or `s3` (a bucket of AWS S3 or any
     * S3-compatible store: R2, Ceph RGW, MinIO, Garage), which also holds the uploads in progress.
     */
    STORAGE_DRIVER: z.enum(['disk', 's3']).default('disk'),
    /** The S3 API's address when it is not AWS's own (R2, Ceph RGW, MinIO, Garage). */
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    /** The bucket of stored files and uploads in progress; created by the deployment, not by the api. */
    S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be a bucket name (3-63 lowercase letters, digits, dots, dashes)',
      )
      .optional(),
    /** The bucket's region (`auto` for R2; any value a self-hosted store accepts, often `us-east-1`). */
    S3_REGION: z.string().min(1).optional(),
    /** Addresses the bucket as `endpoint/bucket/key` rather than `bucket.endpoint/key` (most self-hosted stores). */
    S3_FORCE_PATH_STYLE: z.enum(Object.keys(FLAG) as [keyof typeof FLAG]).default('false'),
    /**
     * The standard AWS credentials. When both are unset, the AWS SDK's default chain finds them instead
     * (shared config and credentials files, web identity, container or instance roles).
     */
    AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
    AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    AWS_SESSION_TOKEN: z.string().min(1).optional(),
    WEB_DIST: z.string().min(1).default(`${REPO_ROOT}apps/web/dist`),
    /**
     * Multiplies the per-address rate limits of the account routes: for many people behind one address
     * (a campus network), or a test suite whose every browser shares 127.0.0.1.
     */
    RATE_LIMIT_MULTIPLIER: z.coerce.number().int().min(1).max(1000).default(1),
    /**
     * Behind a load balancer or reverse proxy: which proxies' X-Forwarded-For to believe, so the client's
     * own address (not the proxy's) is what the per-address limits and logs see: `true` (every hop) or a
     * comma-separated list of proxy addresses/CIDRs. Unset: the socket's address.
     */
    TRUST_PROXY: z
      .string()
      .regex(/^(true|[0-9a-fA-F:./]+(\s*,\s*[0-9a-fA-F:./]+)*)$/, 'must be true or proxy addresses')
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /**
     * Whether the server applies pending migrations as it starts (under a lock, so instances booting
     * together take turns). Off where a deploy runs `npm run db:migrate` first.
     */
    MIGRATE_ON_START: z
      .enum(Object.keys(FLAG) as [keyof typeof FLAG])
      .default('true')
      .transform((value) => FLAG[value]),
    /**
     * Whether this instance works the background job queue (email, push, reminders …) besides serving
     * requests. Off on instances behind the proxy when one of their own (same image, not in the proxy's
     * rotation) does the jobs, so a deadline burst is not shared with the emails it causes.
     */
    BACKGROUND_JOBS: z
      .enum(Object.keys(FLAG) as [keyof typeof FLAG])
      .default('true')
      .transform((value) => FLAG[value]),
    /**
     * The bearer token `GET /metrics` asks for. Unset: open outside production, off (404) in production,
     * so the metrics of a deployment are never public by mistake.
     */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * Seconds between SIGTERM and closing: /ready already answers 503 (draining) while requests are still
     * served, so a load balancer that polls it stops sending new ones before the port closes.
     */
    SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(60).default(0),
    /**
     * Seconds without a request after which the api gives the memory a busy spell left behind back to the
     * machine (one full garbage collection, ADR 046); 0 leaves it to V8.
     */
    IDLE_MEMORY_RELEASE_SECONDS: z.coerce.number().min(0).max(3600).default(10),
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** When set, mail leaves through this SMTP server; otherwise it goes to the dev mailbox (if on). */
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    /** The spec's two sender addresses (section 9). */
    MAIL_FROM_INFO: z.string().min(3).default('Kaminuza <info@kaminuza.example>'),
    MAIL_FROM_NO_REPLY: z.string().min(3).default('Kaminuza <no-reply@kaminuza.example>'),
    /** The dev mailbox at /dev/mailbox: on by default outside production, never in production. */
    MAILBOX: z.enum(Object.keys(FLAG) as [keyof typeof FLAG]).optional(),
    /**
     * The development clock (/api/v1/dev/offers/…/pass-deadline): lets a test or a demonstration move one
     * offer past its reply deadline. On by default outside production, never in production.
     */
    DEV_CLOCK: z.enum(Object.keys(FLAG) as [keyof typeof FLAG]).optional(),
    /**
     * Signs session cookies and (through a derived key) device cookies. Required in production, where the
     * development value is refused; elsewhere that fixed development value is used.
     */
    AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /**
     * Who takes card payments (ADR 038): `flutterwave` (Flutterwave's hosted checkout; the default when
     * FLUTTERWAVE_* are set) or `sandbox` (a hosted test checkout at /pay, no real money; the default
     * otherwise, outside production — production runs the sandbox only when it is named here).
     * Mobile money providers are configured by their own variables below, not chosen here (ADR 037).
     */
    PAYMENTS_PROVIDER: z
      .enum(['sandbox', 'flutterwave'] as const satisfies readonly (typeof PAYMENT_PROVIDERS)[number][])
      .optional(),
    /**
     * Flutterwave Standard (ADR 038): the API's address (https://api.flutterwave.com, or a local simulator
     * outside production), the account's secret key, and the secret hash set on the dashboard's webhook
     * settings (Flutterwave sends it back as `verif-hash`). Set together or not at all.
     */
    FLUTTERWAVE_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    FLUTTERWAVE_SECRET_KEY: z.string().min(1).optional(),
    FLUTTERWAVE_SECRET_HASH: z.string().min(16, 'must be at least 16 characters').optional(),
    /** The secret a provider signs its callbacks with. Required in production; elsewhere a fixed development value. */
    PAYMENTS_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /**
     * MTN MoMo Collections (ADR 037): the API's address — https://sandbox.momodeveloper.mtn.com for MTN's
     * sandbox, https://proxy.momoapi.mtn.com live, or a local simulator outside production — with the API
     * user (a UUID), its API key, the Collection product's subscription key and the target environment
     * (`sandbox`, `mtnrwanda`, `mtnuganda`, `mtnghana` …). Set together or not at all.
     */
    MTN_MOMO_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    MTN_MOMO_API_USER: z.string().min(1).optional(),
    MTN_MOMO_API_KEY: z.string().min(1).optional(),
    MTN_MOMO_SUBSCRIPTION_KEY: z.string().min(1).optional(),
    MTN_MOMO_TARGET_ENVIRONMENT: z
      .string()
      .regex(/^[a-z][a-z0-9]{2,39}$/, 'must be sandbox or the market MTN names, e.g. mtnrwanda')
      .optional(),
    /**
     * MTN MoMo refunds (ADR 037), which MoMo makes through its Disbursement product: that product's API user,
     * API key and subscription key, at the same base URL and target environment. Set together or not at
     * all, and only beside the MTN_MOMO_* above; without them MoMo payments are refunded by hand.
     */
    MTN_MOMO_DISBURSEMENT_API_USER: z.string().min(1).optional(),
    MTN_MOMO_DISBURSEMENT_API_KEY: z.string().min(1).optional(),
    MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: z.string().min(1).optional(),
    /**
     * M-Pesa Express (STK Push) of Safaricom's Daraja API (ADR 037): the API's address —
     * https://sandbox.safaricom.co.ke for Daraja's sandbox, https://api.safaricom.co.ke live, or a local
     * simulator outside production — with the app's consumer key and secret, the paybill shortcode the
     * payments go to and its Lipa Na M-Pesa Online passkey. Set together or not at all.
     */
    MPESA_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    MPESA_CONSUMER_KEY: z.string().min(1).optional(),
    MPESA_CONSUMER_SECRET: z.string().min(1).optional(),
    MPESA_SHORTCODE: z
      .string()
      .regex(/^\d{5,7}$/, 'must be the paybill or till number Safaricom issued, e.g. 174379')
      .optional(),
    MPESA_PASSKEY: z.string().min(1).optional(),
    /**
     * M-Pesa refunds through Daraja's Reversals API (ADR 037): the shortcode's API operator holding the "Org
     * Reversals Initiator" role, and its password encrypted with Safaricom's certificate (the security
     * credential Daraja's portal generates). Both or neither, and only with the variables above; without
     * them M-Pesa refunds are made on the M-Pesa portal and recorded by hand.
     */
    MPESA_INITIATOR_NAME: z.string().min(1).optional(),
    MPESA_SECURITY_CREDENTIAL: z.string().min(1).optional(),
    /**
     * Airtel Money collections (ADR 037): the Open API's address — https://openapiuat.airtel.africa for
     * Airtel's staging, https://openapi.airtel.africa live, or a local simulator outside production — with
     * the application's client id and secret from Airtel's developer portal. Set together or not at all.
     */
    AIRTEL_MONEY_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    AIRTEL_MONEY_CLIENT_ID: z.string().min(1).optional(),
    AIRTEL_MONEY_CLIENT_SECRET: z.string().min(1).optional(),
    /**
     * M-Pesa Tanzania, Vodacom's M-Pesa OpenAPI (ADR 037): its address with the environment —
     * https://openapi.m-pesa.com/sandbox or https://openapi.m-pesa.com/openapi live, or a local simulator
     * outside production — the application's API key and Vodacom's public key (base64, as the portal shows
     * it) that encrypts it, and the organisation's shortcode. Set together or not at all.
     */
    MPESA_TZ_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    MPESA_TZ_API_KEY: z.string().min(1).optional(),
    MPESA_TZ_PUBLIC_KEY: z
      .string()
      .regex(
        /^(-----BEGIN PUBLIC KEY-----[\s\S]+|[A-Za-z0-9+/=\s]{100,})$/,
        "must be Vodacom's public key (base64 or PEM)",
      )
      .optional(),
    MPESA_TZ_SERVICE_PROVIDER_CODE: z
      .string()
      .regex(/^\d{5,7}$/, 'must be the shortcode Vodacom issued, e.g. 000000')
      .optional(),
    /**
     * Local simulators of the mobile money APIs, started by the server for each provider whose variables
     * are unset (the dev phone at /dev/phone approves their prompts): on by default outside production,
     * never in production. A provider's real variables switch that provider to the real service.
     */
    PAYMENT_SIMULATORS: z.enum(Object.keys(FLAG) as [keyof typeof FLAG]).optional(),
  })
  // It also keys the device cookies of the sign-in lockout (ADR 022): the published development value
  // would let anyone forge a known device, so production refuses it like the payments secret's.
  .refine(
    (env) =>
      env.NODE_ENV !== 'production' || (env.AUTH_SECRET !== undefined && env.AUTH_SECRET !== DEVELOPMENT_AUTH_SECRET),
    {
      path: ['AUTH_SECRET'],
      message: 'is required in production (at least 32 random characters, e.g. `openssl rand -base64 32`)',
    },
  )
  .refine(
    (env) =>
      env.NODE_ENV !== 'production' ||
      (env.PAYMENTS_WEBHOOK_SECRET !== undefined &&
        env.PAYMENTS_WEBHOOK_SECRET !== DEVELOPMENT_PAYMENTS_WEBHOOK_SECRET),
    {
      path: ['PAYMENTS_WEBHOOK_SECRET'],
      message: "is required in production (the secret your payment provider's callbacks are signed with)",
    },
  )
  .refine((env) => env.STORAGE_DRIVER !== 's3' || env.S3_BUCKET !== undefined, {
    path: ['S3_BUCKET'],
    message: 'is required when STORAGE_DRIVER=s3 (the bucket of stored files, created beforehand)',
  })
  .refine((env) => env.STORAGE_DRIVER !== 's3' || env.S3_REGION !== undefined, {
    path: ['S3_REGION'],
    message:
      "is required when STORAGE_DRIVER=s3 (the bucket's region; `auto` for R2, `us-east-1` for most self-hosted stores)",
  })
  .refine((env) => (env.AWS_ACCESS_KEY_ID === undefined) === (env.AWS_SECRET_ACCESS_KEY === undefined), {
    path: ['AWS_SECRET_ACCESS_KEY'],
    message:
      'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are set together, or neither (then the AWS default chain applies)',
  })
  .refine(
    (env) => MTN_MOMO_VARIABLES.every((name) => (env[name] === undefined) === (env.MTN_MOMO_BASE_URL === undefined)),
    {
      path: ['MTN_MOMO_BASE_URL'],
      message: `${MTN_MOMO_VARIABLES.join(', ')} and MTN_MOMO_BASE_URL are set together, or none of them`,
    },
  )
  .refine(
    (env) =>
      MTN_MOMO_DISBURSEMENT_VARIABLES.every(
        (name) => (env[name] === undefined) === (env.MTN_MOMO_DISBURSEMENT_API_USER === undefined),
      ),
    {
      path: ['MTN_MOMO_DISBURSEMENT_API_USER'],
      message: `${MTN_MOMO_DISBURSEMENT_VARIABLES.join(', ')} are set together, or none of them`,
    },
  )
  .refine((env) => env.MTN_MOMO_DISBURSEMENT_API_USER === undefined || env.MTN_MOMO_BASE_URL !== undefined, {
    path: ['MTN_MOMO_DISBURSEMENT_API_USER'],
    message: 'refunds go through the MTN MoMo configured by MTN_MOMO_BASE_URL and the other MTN_MOMO_* variables',
  })
  .refine(
    (env) =>
      env.NODE_ENV !== 'production' || env.MTN_MOMO_BASE_URL === undefined || !localAddress(env.MTN_MOMO_BASE_URL),
    {
      path: ['MTN_MOMO_BASE_URL'],
      message: "must be MTN's own https address in production, not a local simulator",
    },
  )
  .refine((env) => MPESA_VARIABLES.every((name) => (env[name] === undefined) === (env.MPESA_BASE_URL === undefined)), {
    path: ['MPESA_BASE_URL'],
    message: `${MPESA_VARIABLES.join(', ')} and MPESA_BASE_URL are set together, or none of them`,
  })
  .refine(
    (env) => {
      const set = MPESA_REVERSAL_VARIABLES.filter((name) => env[name] !== undefined).length;
      return set === 0 || (set === MPESA_REVERSAL_VARIABLES.length && env.MPESA_BASE_URL !== undefined);
    },
    {
      path: ['MPESA_INITIATOR_NAME'],
      message: `${MPESA_REVERSAL_VARIABLES.join(' and ')} are set together with the other MPESA_ variables, or not at all`,
    },
  )
  .refine(
    (env) => env.NODE_ENV !== 'production' || env.MPESA_BASE_URL === undefined || !localAddress(env.MPESA_BASE_URL),
    {
      path: ['MPESA_BASE_URL'],
      message: "must be Safaricom's own https address in production, not a local simulator",
    },
  )
  .refine(
    (env) =>
      AIRTEL_MONEY_VARIABLES.every((name) => (env[name] === undefined) === (env.AIRTEL_MONEY_BASE_URL === undefined)),
    {
      path: ['AIRTEL_MONEY_BASE_URL'],
      message: `${AIRTEL_MONEY_VARIABLES.join(', ')} and AIRTEL_MONEY_BASE_URL are set together, or none of them`,
    },
  )
  .refine(
    (env) =>
      env.NODE_ENV !== 'production' ||
      env.AIRTEL_MONEY_BASE_URL === undefined ||
      !localAddress(env.AIRTEL_MONEY_BASE_URL),
    {
      path: ['AIRTEL_MONEY_BASE_URL'],
      message: "must be Airtel's own https address in production, not a local simulator",
    },
  )
  .refine(
    (env) => MPESA_TZ_VARIABLES.every((name) => (env[name] === undefined) === (env.MPESA_TZ_BASE_URL === undefined)),
    {
      path: ['MPESA_TZ_BASE_URL'],
      message: `${MPESA_TZ_VARIABLES.join(', ')} and MPESA_TZ_BASE_URL are set together, or none of them`,
    },
  )
  .refine(
    (env) =>
      env.NODE_ENV !== 'production' || env.MPESA_TZ_BASE_URL === undefined || !localAddress(env.MPESA_TZ_BASE_URL),
    {
      path: ['MPESA_TZ_BASE_URL'],
      message: "must be Vodacom's own https address in production, not a local simulator",
    },
  )
  .refine(
    (env) =>
      FLUTTERWAVE_VARIABLES.every((name) => (env[name] === undefined) === (env.FLUTTERWAVE_BASE_URL === undefined)),
    {
      path: ['FLUTTERWAVE_BASE_URL'],
      message: `${FLUTTERWAVE_VARIABLES.join(', ')} and FLUTTERWAVE_BASE_URL are set together, or none of them`,
    },
  )
  .refine(
    (env) =>
      env.NODE_ENV !== 'production' ||
      env.FLUTTERWAVE_BASE_URL === undefined ||
      !localAddress(env.FLUTTERWAVE_BASE_URL),
    {
      path: ['FLUTTERWAVE_BASE_URL'],
      message: "must be Flutterwave's own https address in production, not a local simulator",
    },
  )
  .refine((env) => env.PAYMENTS_PROVIDER !== 'flutterwave' || env.FLUTTERWAVE_BASE_URL !== undefined, {
    path: ['PAYMENTS_PROVIDER'],
    message: 'flutterwave needs FLUTTERWAVE_BASE_URL, FLUTTERWAVE_SECRET_KEY and FLUTTERWAVE_SECRET_HASH',
  })
  // Production takes real money: without Flutterwave it would run the sandbox, which marks fees paid for
  // test cards. It does so only when named (a demonstration deployment).
  .refine(
    (env) =>
      env.NODE_ENV !== 'production' || env.PAYMENTS_PROVIDER !== undefined || env.FLUTTERWAVE_BASE_URL !== undefined,
    {
      path: ['PAYMENTS_PROVIDER'],
      message:
        'is required in production without FLUTTERWAVE_* (set the FLUTTERWAVE_* variables to take card payments, or PAYMENTS_PROVIDER=sandbox for a demonstration without real money)',
    },
  )
  .refine((env) => !(env.NODE_ENV === 'production' && env.MAILBOX !== undefined && FLAG[env.MAILBOX]), {
    path: ['MAILBOX'],
    message: 'the dev mailbox cannot be on in production',
  })
  .refine(
    (env) => !(env.NODE_ENV === 'production' && env.PAYMENT_SIMULATORS !== undefined && FLAG[env.PAYMENT_SIMULATORS]),
    { path: ['PAYMENT_SIMULATORS'], message: 'the payment simulators cannot run in production' },
  )
  .refine((env) => !(env.NODE_ENV === 'production' && env.DEV_CLOCK !== undefined && FLAG[env.DEV_CLOCK]), {
    path: ['DEV_CLOCK'],
    message: 'the development clock cannot be on in production',
  })
  .transform(({ PUBLIC_URL, MAILBOX, DEV_CLOCK, PAYMENT_SIMULATORS, S3_FORCE_PATH_STYLE, ...env }) => ({
    ...env,
    S3_FORCE_PATH_STYLE: FLAG[S3_FORCE_PATH_STYLE],
    // Without an explicit URL the server is reached on localhost at its own port.
    PUBLIC_URL: (PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    MAILBOX: MAILBOX === undefined ? env.NODE_ENV !== 'production' : FLAG[MAILBOX],
    DEV_CLOCK: DEV_CLOCK === undefined ? env.NODE_ENV !== 'production' : FLAG[DEV_CLOCK],
    PAYMENT_SIMULATORS: PAYMENT_SIMULATORS === undefined ? env.NODE_ENV !== 'production' : FLAG[PAYMENT_SIMULATORS],
    AUTH_SECRET: env.AUTH_SECRET ?? DEVELOPMENT_AUTH_SECRET,
    PAYMENTS_WEBHOOK_SECRET: env.PAYMENTS_WEBHOOK_SECRET ?? DEVELOPMENT_PAYMENTS_WEBHOOK_SECRET,
    PAYMENTS_PROVIDER: env.PAYMENTS_PROVIDER ?? (env.FLUTTERWAVE_BASE_URL === undefined ? 'sandbox' : 'flutterwave'),
  }));

export type Env = z.infer<typeof EnvSchema>;

/** Empty strings count as unset, so `PORT=` in a shell or .env file falls back to the default. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  return EnvSchema.parse(Object.fromEntries(Object.entries(source).filter(([, value]) => value !== '')));
}

/** Parses process.env or exits with one line per invalid variable. */
export function loadEnv(): Env {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    const lines = error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    console.error(`Invalid environment variables:\n${lines.join('\n')}`);
    process.exit(1);
  }
}

/**
 * PGlite keeps its files in a folder of its own so DATA_DIR can also hold uploads and the dev mailbox.
 * DATA_DIR=:memory: gives a throwaway in-memory database (e2e tests, benchmarks).
 */
export function databaseOptions(env: Env): DatabaseOptions {
  if (env.DATABASE_URL) return { kind: 'postgres', url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE };
  return { kind: 'pglite', dataDir: env.DATA_DIR === IN_MEMORY ? null : join(env.DATA_DIR, 'pglite') };
}

/** The folder of stored files and tus upload state; DATA_DIR=:memory: gives a throwaway folder. */
export function fileDataDir(env: Env): string | null {
  return env.DATA_DIR === IN_MEMORY ? null : env.DATA_DIR;
}

/** The dev mailbox receives mail only when no real SMTP server is configured. */
export function mailboxEnabled(env: Env): boolean {
  return env.MAILBOX && !env.SMTP_URL;
}

/** Fastify's `trustProxy` from TRUST_PROXY: believe nobody by default. */
export function trustProxy(value: string | undefined): boolean | string[] {
  if (!value) return false;
  if (value === 'true') return true;
  return value.split(',').map((address) => address.trim());
}
