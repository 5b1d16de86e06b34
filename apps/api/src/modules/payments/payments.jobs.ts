import type { Db } from '../../db/client.ts';
import type { Env } from '../../lib/env.ts';
import {
  defineJob,
  jobIdFor,
  scheduledPass,
  type JobDefinition,
  type JobSender,
  type RetryPolicy,
} from '../../lib/jobs/queue.ts';
import { expireMobileMoneyPayment, pollMobileMoneyPayment } from './mobile-money.service.ts';
import { reconcilePendingPayments } from './payments.service.ts';
import type { MobileMoneyProvider } from './providers/mobile-money.ts';
import { createMtnMomoProvider } from './providers/mtn-momo.ts';
import { sandboxChargesIn } from './providers/sandbox-charges.ts';
import {
  createSandboxProvider,
  type CallbackDelivery,
  type UndeliveredCallback,
} from './providers/sandbox-provider.ts';

export const SANDBOX_CALLBACK_JOB = 'payments.sandbox-callback';
/** A MoMo callback whose status call failed: the status is asked again later. */
export const MOMO_STATUS_JOB = 'payments.momo-status';

/** 5 s, 10 s, 20 s … at most 10 min between tries, for about an hour: a provider outage outlasts a few. */
export const MOMO_STATUS_RETRY: RetryPolicy = {
  retryLimit: 10,
  retryDelaySeconds: 5,
  retryDelayMaxSeconds: 600,
  expireInSeconds: 60,
};

export type MtnMomoEnv = Pick<
  Env,
  | 'MTN_MOMO_BASE_URL'
  | 'MTN_MOMO_API_USER'
  | 'MTN_MOMO_API_KEY'
  | 'MTN_MOMO_SUBSCRIPTION_KEY'
  | 'MTN_MOMO_TARGET_ENVIRONMENT'
>;

/** Per status or payment call: a callback is answered after one, so it stays short. */
const MOMO_CALL_TIMEOUT_MS = 5_000;

/** The MTN MoMo adapter when its variables are set (they are set together or not at all), else null. */
export function mtnMomoProviderFrom(env: MtnMomoEnv): MobileMoneyProvider | null {
  const {
    MTN_MOMO_BASE_URL: baseUrl,
    MTN_MOMO_API_USER: apiUser,
    MTN_MOMO_API_KEY: apiKey,
    MTN_MOMO_SUBSCRIPTION_KEY: subscriptionKey,
    MTN_MOMO_TARGET_ENVIRONMENT: targetEnvironment,
  } = env;
  if (!baseUrl || !apiUser || !apiKey || !subscriptionKey || !targetEnvironment) return null;
  return createMtnMomoProvider({
    baseUrl,
    apiUser,
    apiKey,
    subscriptionKey,
    targetEnvironment,
    timeoutMs: MOMO_CALL_TIMEOUT_MS,
  });
}

export const MOMO_POLL_JOB = 'payments.momo-poll';

/** How often a pending prompt is asked about: after `firstSeconds`, then doubling up to `maxSeconds`. */
export interface PollSchedule {
  firstSeconds: number;
  maxSeconds: number;
}

/** 5 s, 10 s, 20 s, 40 s, then every minute: a payer approves within a minute or two, or not at all. */
export const MOMO_POLL_SCHEDULE: PollSchedule = { firstSeconds: 5, maxSeconds: 60 };

/** A poll's own failures (MoMo unreachable) are retried a few times before the next poll is due. */
const MOMO_POLL_RETRY: RetryPolicy = {
  retryLimit: 5,
  retryDelaySeconds: 5,
  retryDelayMaxSeconds: 60,
  expireInSeconds: 60,
};

/** What a poll job carries: the payment, until when its prompt may be answered, and which poll it is. */
export interface MomoPollJob {
  reference: string;
  until: string;
  attempt: number;
}

const pollDelaySeconds = (schedule: PollSchedule, attempt: number) =>
  Math.min(schedule.firstSeconds * 2 ** attempt, schedule.maxSeconds);

/** Sends a payment's poll number `attempt` (0 when its prompt was sent); its id comes from the reference. */
export async function sendMomoPoll(
  jobs: JobSender,
  poll: MomoPollJob,
  schedule: PollSchedule = MOMO_POLL_SCHEDULE,
  now = Date.now(),
): Promise<void> {
  await jobs.send(MOMO_POLL_JOB, poll, {
    id: jobIdFor(MOMO_POLL_JOB, poll.reference, String(poll.attempt)),
    startAfter: new Date(now + pollDelaySeconds(schedule, poll.attempt) * 1000),
  });
}

/** What the MoMo status job carries: the payment's reference (the job's subject). */
export interface MomoStatusJob {
  reference: string;
}

/**
 * A MoMo callback the api could not check at once (the status call failed): the status is asked again
 * with backoff and settles the payment from the answer; still pending is left to the poll.
 */
export function mobileMoneyJobs({
  db,
  momo,
  retry,
  poll = MOMO_POLL_SCHEDULE,
  log,
}: {
  db: Db;
  momo: MobileMoneyProvider;
  /** Both jobs' retries, sooner in tests; each has its own by default. */
  retry?: RetryPolicy;
  poll?: PollSchedule;
  log: { warn(object: object, message: string): void };
}): JobDefinition[] {
  return [
    defineJob<MomoStatusJob>({
      name: MOMO_STATUS_JOB,
      retry: retry ?? MOMO_STATUS_RETRY,
      async handle({ reference }) {
        await pollMobileMoneyPayment(db, momo, reference, log);
      },
    }),
    /*
     * A pending payment asked about with backoff until its status is final (settled from it) or its
     * prompt expired (failed with the timeout reason). A callback settling it meanwhile ends the chain:
     * the next poll finds it no longer pending.
     */
    defineJob<MomoPollJob>({
      name: MOMO_POLL_JOB,
      retry: retry ?? MOMO_POLL_RETRY,
      async handle(job, { queue }) {
        const outcome = await pollMobileMoneyPayment(db, momo, job.reference, log);
        if (outcome !== 'pending') return;
        if (Date.now() >= Date.parse(job.until)) {
          await expireMobileMoneyPayment(db, momo, job.reference, log);
          return;
        }
        await sendMomoPoll(queue, { ...job, attempt: job.attempt + 1 }, poll);
      },
    }),
  ];
}

/** 2 s, 4 s, 8 s … at most 10 min between tries, for about half an hour: as providers retry webhooks. */
export const SANDBOX_CALLBACK_RETRY: RetryPolicy = {
  retryLimit: 10,
  retryDelaySeconds: 2,
  retryDelayMaxSeconds: 600,
  expireInSeconds: 60,
};

/**
 * The sandbox's callback retries: a callback whose first delivery failed is delivered again, signed
 * afresh, until the api accepts it or the retries are spent (the job is then kept as failed, for an
 * admin to see and retry). And reconciliation: every five minutes, payments pending for a while are
 * asked about and settled from the provider's answer.
 */
export function paymentJobs({
  db,
  env,
  deliver,
  retry = SANDBOX_CALLBACK_RETRY,
  mobileMoneyRetry,
  log,
}: {
  db: Db;
  env: Pick<Env, 'PAYMENTS_WEBHOOK_SECRET' | 'PUBLIC_URL'> & MtnMomoEnv;
  deliver?: CallbackDelivery;
  retry?: RetryPolicy;
  /** Tests retry the MoMo status sooner. */
  mobileMoneyRetry?: RetryPolicy;
  log: { warn(object: object, message: string): void };
}): JobDefinition[] {
  const sandbox = createSandboxProvider({
    secret: env.PAYMENTS_WEBHOOK_SECRET,
    publicUrl: env.PUBLIC_URL,
    log,
    charges: sandboxChargesIn(db),
    ...(deliver ? { deliver } : {}),
  });
  const momo = mtnMomoProviderFrom(env);
  return [
    ...(momo ? mobileMoneyJobs({ db, momo, log, ...(mobileMoneyRetry ? { retry: mobileMoneyRetry } : {}) }) : []),
    defineJob<UndeliveredCallback>({
      name: SANDBOX_CALLBACK_JOB,
      retry,
      async handle(callback) {
        if (!(await sandbox.redeliver(callback))) {
          throw new Error(`sandbox payment callback for ${callback.reference} not accepted`);
        }
      },
    }),
    scheduledPass({
      name: 'payments.reconcile',
      schedule: '*/5 * * * *',
      pass: () => reconcilePendingPayments(db, sandbox, log),
      done: 'settled pending payments from the provider',
    }),
  ];
}
