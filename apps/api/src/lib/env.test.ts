import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_PAYMENTS_WEBHOOK_SECRET, databaseOptions, mailboxEnabled, parseEnv } from './env.ts';

const PRODUCTION_SECRET = 'p'.repeat(32);
const PRODUCTION_WEBHOOK_SECRET = 'w'.repeat(32);
/** The secrets production requires, for tests about something else. */
const PRODUCTION = {
  NODE_ENV: 'production',
  AUTH_SECRET: PRODUCTION_SECRET,
  PAYMENTS_WEBHOOK_SECRET: PRODUCTION_WEBHOOK_SECRET,
  PAYMENTS_PROVIDER: 'sandbox',
};
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

describe('parseEnv', () => {
  it('works with no variables at all (embedded mode)', () => {
    const env = parseEnv({});
    expect(env).toEqual({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATABASE_POOL_SIZE: 20,
      DATA_DIR: `${repoRoot}data`,
      STORAGE_DRIVER: 'disk',
      S3_FORCE_PATH_STYLE: false,
      RATE_LIMIT_MULTIPLIER: 1,
      WEB_DIST: `${repoRoot}apps/web/dist`,
      LOG_LEVEL: 'info',
      MIGRATE_ON_START: true,
      SHUTDOWN_DRAIN_SECONDS: 0,
      IDLE_MEMORY_RELEASE_SECONDS: 10,
      BACKGROUND_JOBS: true,
      NODE_ENV: 'development',
      PUBLIC_URL: 'http://localhost:3000',
      MAIL_FROM_INFO: 'Kaminuza <info@kaminuza.example>',
      MAIL_FROM_NO_REPLY: 'Kaminuza <no-reply@kaminuza.example>',
      MAILBOX: true,
      DEV_CLOCK: true,
      PAYMENT_SIMULATORS: true,
      AUTH_SECRET: 'kaminuza-development-secret-not-for-production',
      PAYMENTS_PROVIDER: 'sandbox',
      PAYMENTS_WEBHOOK_SECRET: DEVELOPMENT_PAYMENTS_WEBHOOK_SECRET,
    });
    expect(mailboxEnabled(env)).toBe(true);
    expect(databaseOptions(env)).toEqual({ kind: 'pglite', dataDir: `${repoRoot}data/pglite` });
  });

  it('derives PUBLIC_URL from PORT, treats empty strings as unset and picks PostgreSQL from DATABASE_URL', () => {
    const env = parseEnv({ PORT: '8080', HOST: '', DATABASE_URL: 'postgres://u:p@db:5432/kz' });
    expect(env.PUBLIC_URL).toBe('http://localhost:8080');
    expect(env.HOST).toBe('0.0.0.0');
    expect(databaseOptions(env)).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/kz', poolSize: 20 });
    expect(databaseOptions(parseEnv({ DATABASE_URL: 'postgres://db/kz', DATABASE_POOL_SIZE: '50' }))).toMatchObject({
      poolSize: 50,
    });
  });

  it('keeps the database in memory with DATA_DIR=:memory:', () => {
    expect(databaseOptions(parseEnv({ DATA_DIR: ':memory:' }))).toEqual({ kind: 'pglite', dataDir: null });
  });

  it('requires an AUTH_SECRET of at least 32 characters in production', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET/);
    expect(() => parseEnv({ NODE_ENV: 'production', AUTH_SECRET: 'short' })).toThrow(/at least 32/);
    expect(() => parseEnv({ ...PRODUCTION, AUTH_SECRET: 'kaminuza-development-secret-not-for-production' })).toThrow(
      /AUTH_SECRET/,
    );
    expect(parseEnv(PRODUCTION).AUTH_SECRET).toBe(PRODUCTION_SECRET);
  });

  it('refuses to start in production without its own payments webhook secret', () => {
    const base = { NODE_ENV: 'production', AUTH_SECRET: PRODUCTION_SECRET };
    expect(() => parseEnv(base)).toThrow(/PAYMENTS_WEBHOOK_SECRET/);
    expect(() => parseEnv({ ...base, PAYMENTS_WEBHOOK_SECRET: DEVELOPMENT_PAYMENTS_WEBHOOK_SECRET })).toThrow(
      /PAYMENTS_WEBHOOK_SECRET/,
    );
    expect(() => parseEnv({ ...base, PAYMENTS_WEBHOOK_SECRET: 'short' })).toThrow(/at least 32/);
    expect(parseEnv(PRODUCTION).PAYMENTS_WEBHOOK_SECRET).toBe(PRODUCTION_WEBHOOK_SECRET);
  });

  it('takes MTN MoMo’s variables together, and refuses a simulator or plain http in production', () => {
    const momo = {
      MTN_MOMO_BASE_URL: 'http://127.0.0.1:4010',
      MTN_MOMO_API_USER: '3f1c5a0e-2b7d-4c1e-9a55-0e6f4b2d8c11',
      MTN_MOMO_API_KEY: 'key',
      MTN_MOMO_SUBSCRIPTION_KEY: 'subscription',
      MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
    };
    expect(parseEnv(momo)).toMatchObject(momo);
    expect(parseEnv({}).MTN_MOMO_BASE_URL).toBeUndefined();
    expect(() => parseEnv({ ...momo, MTN_MOMO_API_KEY: undefined })).toThrow(/set together/);
    expect(() => parseEnv({ MTN_MOMO_API_KEY: 'key' })).toThrow(/set together/);
    expect(() => parseEnv({ ...momo, MTN_MOMO_TARGET_ENVIRONMENT: 'MTN Rwanda' })).toThrow(/mtnrwanda/);
    for (const local of [
      'http://127.0.0.1:4010',
      'http://proxy.momoapi.mtn.com',
      'https://localhost:4010',
      'https://momo.localhost',
      'https://10.0.0.5',
      'https://192.168.1.20',
      'https://[::1]:4010',
      'https://momo-simulator:4010',
    ]) {
      expect(() => parseEnv({ ...PRODUCTION, ...momo, MTN_MOMO_BASE_URL: local }), local).toThrow(
        /not a local simulator/,
      );
    }
    const live = {
      ...PRODUCTION,
      ...momo,
      MTN_MOMO_BASE_URL: 'https://proxy.momoapi.mtn.com',
      MTN_MOMO_TARGET_ENVIRONMENT: 'mtnrwanda',
    };
    expect(parseEnv(live).MTN_MOMO_BASE_URL).toBe('https://proxy.momoapi.mtn.com');
  });

  it('takes MTN MoMo’s Disbursement variables for refunds together, and only beside the MTN_MOMO_* ones', () => {
    const momo = {
      MTN_MOMO_BASE_URL: 'http://127.0.0.1:4010',
      MTN_MOMO_API_USER: '3f1c5a0e-2b7d-4c1e-9a55-0e6f4b2d8c11',
      MTN_MOMO_API_KEY: 'key',
      MTN_MOMO_SUBSCRIPTION_KEY: 'subscription',
      MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
    };
    const disbursement = {
      MTN_MOMO_DISBURSEMENT_API_USER: '6b0f4a8e-91c2-4d7a-b3e5-2f8c1d9a7e40',
      MTN_MOMO_DISBURSEMENT_API_KEY: 'disbursement-key',
      MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: 'disbursement-subscription',
    };
    expect(parseEnv({ ...momo, ...disbursement })).toMatchObject({ ...momo, ...disbursement });
    expect(parseEnv(momo).MTN_MOMO_DISBURSEMENT_API_USER).toBeUndefined();
    for (const name of Object.keys(disbursement)) {
      expect(() => parseEnv({ ...momo, ...disbursement, [name]: undefined }), name).toThrow(/set together/);
    }
    expect(() => parseEnv(disbursement)).toThrow(/MTN_MOMO_BASE_URL/);
  });

  it('takes M-Pesa’s variables together, and refuses a simulator or plain http in production', () => {
    const mpesa = {
      MPESA_BASE_URL: 'http://127.0.0.1:4011',
      MPESA_CONSUMER_KEY: 'consumer-key',
      MPESA_CONSUMER_SECRET: 'consumer-secret',
      MPESA_SHORTCODE: '174379',
      MPESA_PASSKEY: 'passkey',
    };
    expect(parseEnv(mpesa)).toMatchObject(mpesa);
    expect(parseEnv({}).MPESA_BASE_URL).toBeUndefined();
    expect(() => parseEnv({ ...mpesa, MPESA_PASSKEY: undefined })).toThrow(/set together/);
    expect(() => parseEnv({ MPESA_SHORTCODE: '174379' })).toThrow(/set together/);
    expect(() => parseEnv({ ...mpesa, MPESA_SHORTCODE: 'paybill' })).toThrow(/174379/);
    for (const local of ['http://127.0.0.1:4011', 'http://api.safaricom.co.ke', 'https://mpesa-simulator:4011']) {
      expect(() => parseEnv({ ...PRODUCTION, ...mpesa, MPESA_BASE_URL: local }), local).toThrow(
        /not a local simulator/,
      );
    }
    const live = { ...PRODUCTION, ...mpesa, MPESA_BASE_URL: 'https://api.safaricom.co.ke' };
    expect(parseEnv(live).MPESA_BASE_URL).toBe('https://api.safaricom.co.ke');
  });

  it('takes M-Pesa Tanzania’s variables together, and refuses a simulator or plain http in production', () => {
    const publicKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ format: 'der', type: 'spki' })
      .toString('base64');
    const vodacom = {
      MPESA_TZ_BASE_URL: 'http://127.0.0.1:4014',
      MPESA_TZ_API_KEY: 'api-key',
      MPESA_TZ_PUBLIC_KEY: publicKey,
      MPESA_TZ_SERVICE_PROVIDER_CODE: '000000',
    };
    expect(parseEnv(vodacom)).toMatchObject(vodacom);
    expect(parseEnv({}).MPESA_TZ_BASE_URL).toBeUndefined();
    for (const name of Object.keys(vodacom)) {
      expect(() => parseEnv({ ...vodacom, [name]: undefined }), name).toThrow(/set together/);
    }
    expect(() => parseEnv({ ...vodacom, MPESA_TZ_SERVICE_PROVIDER_CODE: 'shortcode' })).toThrow(/000000/);
    expect(() => parseEnv({ ...vodacom, MPESA_TZ_PUBLIC_KEY: 'not a key' })).toThrow(/public key/);
    for (const local of ['http://127.0.0.1:4014', 'http://openapi.m-pesa.com/openapi', 'https://vodacom-sim:4014']) {
      expect(() => parseEnv({ ...PRODUCTION, ...vodacom, MPESA_TZ_BASE_URL: local }), local).toThrow(
        /not a local simulator/,
      );
    }
    const live = { ...PRODUCTION, ...vodacom, MPESA_TZ_BASE_URL: 'https://openapi.m-pesa.com/openapi' };
    expect(parseEnv(live).MPESA_TZ_BASE_URL).toBe('https://openapi.m-pesa.com/openapi');
  });

  it('takes M-Pesa’s reversal initiator and credential together, and only with the other M-Pesa variables', () => {
    const mpesa = {
      MPESA_BASE_URL: 'https://api.safaricom.co.ke',
      MPESA_CONSUMER_KEY: 'consumer-key',
      MPESA_CONSUMER_SECRET: 'consumer-secret',
      MPESA_SHORTCODE: '174379',
      MPESA_PASSKEY: 'passkey',
    };
    const reversals = { MPESA_INITIATOR_NAME: 'reversals-operator', MPESA_SECURITY_CREDENTIAL: 'encrypted==' };
    expect(parseEnv({ ...PRODUCTION, ...mpesa, ...reversals })).toMatchObject(reversals);
    // Without them M-Pesa still collects; refunds are recorded by hand.
    expect(parseEnv(mpesa).MPESA_INITIATOR_NAME).toBeUndefined();
    expect(() => parseEnv({ ...mpesa, MPESA_INITIATOR_NAME: 'reversals-operator' })).toThrow(/set together/);
    expect(() => parseEnv({ ...mpesa, MPESA_SECURITY_CREDENTIAL: 'encrypted==' })).toThrow(/set together/);
    expect(() => parseEnv(reversals)).toThrow(/MPESA_INITIATOR_NAME.*set together/);
    expect(() => parseEnv({ ...mpesa, ...reversals, MPESA_INITIATOR_NAME: '' })).toThrow();
  });

  it('takes cards through Flutterwave when its variables are set, and never the sandbox in production unless named', () => {
    const flutterwave = {
      FLUTTERWAVE_BASE_URL: 'http://127.0.0.1:4020',
      FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-key',
      FLUTTERWAVE_SECRET_HASH: 'h'.repeat(32),
    };
    expect(parseEnv({}).PAYMENTS_PROVIDER).toBe('sandbox');
    expect(parseEnv(flutterwave).PAYMENTS_PROVIDER).toBe('flutterwave');
    expect(parseEnv({ ...flutterwave, PAYMENTS_PROVIDER: 'sandbox' }).PAYMENTS_PROVIDER).toBe('sandbox');
    expect(() => parseEnv({ PAYMENTS_PROVIDER: 'flutterwave' })).toThrow(/FLUTTERWAVE_SECRET_HASH/);
    expect(() => parseEnv({ ...flutterwave, FLUTTERWAVE_SECRET_HASH: undefined })).toThrow(/set together/);
    expect(() => parseEnv({ ...flutterwave, FLUTTERWAVE_SECRET_HASH: 'short' })).toThrow(/at least 16/);
    const { PAYMENTS_PROVIDER: _named, ...unnamed } = PRODUCTION;
    expect(() => parseEnv(unnamed)).toThrow(/PAYMENTS_PROVIDER/);
    expect(() => parseEnv({ ...unnamed, ...flutterwave })).toThrow(/not a local simulator/);
    const live = { ...unnamed, ...flutterwave, FLUTTERWAVE_BASE_URL: 'https://api.flutterwave.com' };
    expect(parseEnv(live).PAYMENTS_PROVIDER).toBe('flutterwave');
  });

  it('keeps PAYMENTS_PROVIDER to the hosted checkout: mobile money has its own variables', () => {
    expect(() => parseEnv({ PAYMENTS_PROVIDER: 'mtn_momo' })).toThrow(/PAYMENTS_PROVIDER/);
  });

  it('drops a trailing slash from PUBLIC_URL', () => {
    expect(parseEnv({ PUBLIC_URL: 'https://kaminuza.example/' }).PUBLIC_URL).toBe('https://kaminuza.example');
  });

  it('turns the dev mailbox off in production, with MAILBOX=off, or when SMTP_URL is set', () => {
    expect(mailboxEnabled(parseEnv(PRODUCTION))).toBe(false);
    expect(mailboxEnabled(parseEnv({ MAILBOX: 'off' }))).toBe(false);
    expect(mailboxEnabled(parseEnv({ SMTP_URL: 'smtp://mail.example:587' }))).toBe(false);
  });

  it('runs the payment simulators outside production unless PAYMENT_SIMULATORS=off, and never in production', () => {
    expect(parseEnv({ NODE_ENV: 'test' }).PAYMENT_SIMULATORS).toBe(true);
    expect(parseEnv({ PAYMENT_SIMULATORS: 'off' }).PAYMENT_SIMULATORS).toBe(false);
    expect(parseEnv(PRODUCTION).PAYMENT_SIMULATORS).toBe(false);
    expect(parseEnv({ ...PRODUCTION, PAYMENT_SIMULATORS: 'off' }).PAYMENT_SIMULATORS).toBe(false);
    expect(() => parseEnv({ ...PRODUCTION, PAYMENT_SIMULATORS: 'on' })).toThrow(/PAYMENT_SIMULATORS/);
    expect(() => parseEnv({ PAYMENT_SIMULATORS: 'sometimes' })).toThrow(/PAYMENT_SIMULATORS/);
  });

  it('has the development clock outside production unless DEV_CLOCK=off, and never in production', () => {
    expect(parseEnv({ NODE_ENV: 'test' }).DEV_CLOCK).toBe(true);
    expect(parseEnv({ DEV_CLOCK: 'off' }).DEV_CLOCK).toBe(false);
    expect(parseEnv(PRODUCTION).DEV_CLOCK).toBe(false);
    expect(() => parseEnv({ ...PRODUCTION, DEV_CLOCK: 'on' })).toThrow(/DEV_CLOCK/);
  });

  it('skips migrating at start with MIGRATE_ON_START=false, and takes a drain delay and a metrics token', () => {
    expect(parseEnv({ MIGRATE_ON_START: 'false' }).MIGRATE_ON_START).toBe(false);
    expect(parseEnv({ MIGRATE_ON_START: 'on' }).MIGRATE_ON_START).toBe(true);
    const env = parseEnv({ SHUTDOWN_DRAIN_SECONDS: '5', METRICS_TOKEN: 'm'.repeat(16) });
    expect(env).toMatchObject({ SHUTDOWN_DRAIN_SECONDS: 5, METRICS_TOKEN: 'm'.repeat(16) });
    expect(parseEnv({ IDLE_MEMORY_RELEASE_SECONDS: '0' }).IDLE_MEMORY_RELEASE_SECONDS).toBe(0);
    expect(parseEnv({ BACKGROUND_JOBS: 'off' }).BACKGROUND_JOBS).toBe(false);
  });

  it.each([
    { MIGRATE_ON_START: 'later' },
    { METRICS_TOKEN: 'short' },
    { SHUTDOWN_DRAIN_SECONDS: '-1' },
    { IDLE_MEMORY_RELEASE_SECONDS: 'soon' },
    { BACKGROUND_JOBS: 'sometimes' },
    { PORT: 'eighty' },
    { SMTP_URL: 'http://mail.example' },
    { MAILBOX: 'maybe' },
    { ...PRODUCTION, MAILBOX: 'on' },
    { ...PRODUCTION, PAYMENT_SIMULATORS: 'true' },
    { PAYMENTS_PROVIDER: 'cash' },
    { PORT: '70000' },
    { LOG_LEVEL: 'loud' },
    { DATABASE_URL: 'mysql://x' },
    { PUBLIC_URL: 'ftp://x' },
  ])('rejects %o', (source) => {
    expect(() => parseEnv(source)).toThrow();
  });
});
