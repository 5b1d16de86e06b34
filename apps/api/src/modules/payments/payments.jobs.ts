import type { Db } from '../../db/client.ts';
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
import { reconcileSettledPayments, recordLookups, type RecordLookup } from './reconciliation.service.ts';
import type { PaymentProvider as ProviderName } from '@kaminuza/shared';
import type { MobileMoneyProviderName } from '@kaminuza/shared';
import { mobileMoneyProvidersFrom, type MobileMoneyEnv, type MobileMoneyProviders } from './mobile-money-providers.ts';
import type { MobileMoneyCallbackSubject } from './providers/mobile-money.ts';
import type { CallbackDelivery, UndeliveredCallback } from './providers/sandbox-provider.ts';
import { cardProviderFrom, type CardEnv } from './card-providers.ts';
import { refundingProviders, type RefundingProviders } from './refund-providers.ts';
import { resumeProviderRefunds, runProviderRefund } from './refunds.service.ts';

export const SANDBOX_CALLBACK_JOB = 'payments.sandbox-callback';
/** A mobile money callback whose status call failed: the status is asked again later. */
export const MOBILE_MONEY_STATUS_JOB = 'payments.mobile-money-status';

/** 5 s, 10 s, 20 s … at most 10 min between tries, for about an hour: a provider outage outlasts a few. */
export const MOBILE_MONEY_STATUS_RETRY: RetryPolicy = {
  retryLimit: 10,
  retryDelaySeconds: 5,
  retryDelayMaxSeconds: 600,
  expireInSeconds: 60,
};

export const MOBILE_MONEY_POLL_JOB = 'payments.mobile-money-poll';

/** How often a pending prompt is asked about: after `firstSeconds`, then doubling up to `maxSeconds`. */
export interface PollSchedule {
  firstSeconds: number;
  maxSeconds: number;
}

/** 5 s, 10 s, 20 s, 40 s, then every minute: a payer approves within a minute or two, or not at all. */
export const MOBILE_MONEY_POLL_SCHEDULE: PollSchedule = { firstSeconds: 5, maxSeconds: 60 };

/** A poll's own failures (the provider unreachable) are retried a few times before the next poll is due. */
const MOBILE_MONEY_POLL_RETRY: RetryPolicy = {
  retryLimit: 5,
  retryDelaySeconds: 5,
  retryDelayMaxSeconds: 60,
  expireInSeconds: 60,
};

/** What a poll job carries: the payment, until when its prompt may be answered, and which poll it is. */
export interface MobileMoneyPollJob {
  provider: MobileMoneyProviderName;
  reference: string;
  until: string;
  attempt: number;
}

const pollDelaySeconds = (schedule: PollSchedule, attempt: number) =>
  Math.min(schedule.firstSeconds * 2 ** attempt, schedule.maxSeconds);

/** Sends a payment's poll number `attempt` (0 when its prompt was sent); its id comes from the reference. */
export async function sendMobileMoneyPoll(
  jobs: JobSender,
  poll: MobileMoneyPollJob,
  schedule: PollSchedule = MOBILE_MONEY_POLL_SCHEDULE,
  now = Date.now(),
): Promise<void> {
  await jobs.send(MOBILE_MONEY_POLL_JOB, poll, {
    id: jobIdFor(MOBILE_MONEY_POLL_JOB, poll.reference, String(poll.attempt)),
    startAfter: new Date(now + pollDelaySeconds(schedule, poll.attempt) * 1000),
  });
}

/** What the status job carries: the provider and the payment its callback named. */
export interface MobileMoneyStatusJob {
  provider: MobileMoneyProviderName;
  subject: MobileMoneyCallbackSubject;
}

/**
 * The mobile money jobs, for the providers configured: a callback the api could not check at once (the
 * status call failed) asked again with backoff; and each pending payment polled until final or expired.
 */
export function mobileMoneyJobs({
  db,
  providers,
  retry,
  poll = MOBILE_MONEY_POLL_SCHEDULE,
  log,
  publicUrl,
}: {
  db: Db;
  providers: MobileMoneyProviders;
  /** Both jobs' retries, sooner in tests; each has its own by default. */
  retry?: RetryPolicy;
  poll?: PollSchedule;
  log: { warn(object: object, message: string): void };
  /** The configured PUBLIC_URL, which the receipt email of a payment settled here links to. */
  publicUrl: string;
}): JobDefinition[] {
  if (providers.size === 0) return [];
  const settling = { log, publicUrl };
  const providerOf = (name: MobileMoneyProviderName) => {
    const provider = providers.get(name);
    // A job for a provider no longer configured fails, kept for an admin to see rather than dropped.
    if (!provider) throw new Error(`mobile money provider ${name} is not configured`);
    return provider;
  };
  return [
    defineJob<MobileMoneyStatusJob>({
      name: MOBILE_MONEY_STATUS_JOB,
      retry: retry ?? MOBILE_MONEY_STATUS_RETRY,
      async handle({ provider, subject }) {
        await pollMobileMoneyPayment(db, providerOf(provider), subject, settling);
      },
    }),
    /*
     * A pending payment asked about with backoff until its status is final (settled from it) or its
     * prompt expired (failed with the timeout reason). A callback settling it meanwhile ends the chain:
     * the next poll finds it no longer pending.
     */
    defineJob<MobileMoneyPollJob>({
      name: MOBILE_MONEY_POLL_JOB,
      retry: retry ?? MOBILE_MONEY_POLL_RETRY,
      async handle(job, { queue }) {
        const provider = providerOf(job.provider);
        const outcome = await pollMobileMoneyPayment(db, provider, job.reference, settling);
        if (outcome !== 'pending') return;
        if (Date.now() >= Date.parse(job.until)) {
          await expireMobileMoneyPayment(db, provider, job.reference, settling);
          return;
        }
        await sendMobileMoneyPoll(queue, { ...job, attempt: job.attempt + 1 }, poll);
      },
    }),
  ];
}

/** The daily comparison of settled payments with the providers' records (ADR 037). */
export const DAILY_RECONCILIATION_JOB = 'payments.daily-reconciliation';
/**
 * 00:30 UTC: night in every market served (UTC to UTC+3), after the day it compares has ended
 * everywhere in UTC; the same moment for every institution.
 */
export const DAILY_RECONCILIATION_SCHEDULE = '30 0 * * *';

/** A provider unreachable at night is asked again 5 min, 10 min … up to an hour later, for about five hours. */
export const DAILY_RECONCILIATION_RETRY: RetryPolicy = {
  retryLimit: 8,
  retryDelaySeconds: 300,
  retryDelayMaxSeconds: 3600,
  expireInSeconds: 30 * 60,
};

/**
 * The daily reconciliation, once across the instances: compares the payments settled before today (and any
 * not compared yet) with their providers' records. When a provider could not be reached for some of them,
 * the job fails after recording what it could compare, and its retry asks about the rest.
 */
export function dailyReconciliationJob({
  db,
  lookups,
  retry = DAILY_RECONCILIATION_RETRY,
  clock = () => new Date(),
}: {
  db: Db;
  lookups: ReadonlyMap<ProviderName, RecordLookup>;
  retry?: RetryPolicy;
  /** Tests move the day on. */
  clock?: () => Date;
}): JobDefinition {
  return defineJob<Record<string, never>>({
    name: DAILY_RECONCILIATION_JOB,
    schedule: DAILY_RECONCILIATION_SCHEDULE,
    retry,
    async handle(_data, { log }) {
      const result = await reconcileSettledPayments(db, lookups, log, clock());
      if (result.compared > 0) log.info(result, 'compared settled payments with the providers');
      if (result.unreachable > 0) {
        throw new Error(`${result.unreachable} payments not compared: their provider was unreachable`);
      }
    },
  });
}

/** A refund staff asked the provider for (refunds.service.ts); its id comes from the refund reference. */
export const PROVIDER_REFUND_JOB = 'payments.provider-refund';

/** 10 s, 20 s … at most 5 min, for about half an hour; the sweep asks again after that. */
export const PROVIDER_REFUND_RETRY: RetryPolicy = {
  retryLimit: 8,
  retryDelaySeconds: 10,
  retryDelayMaxSeconds: 300,
  expireInSeconds: 60,
};

export interface ProviderRefundJob {
  paymentId: string;
  refundReference: string;
  /** 0 for the call staff asked for; then each follow-up of a refund the provider answered pending. */
  attempt: number;
}

/** A pending refund is asked about 10 s, 20 s, 40 s … then every 5 min, for about an hour; the sweep after that. */
export const REFUND_FOLLOW_UP = { firstSeconds: 10, maxSeconds: 300, attempts: 16 };

/** Sends a refund's job number `attempt` (0 when staff asked): once per refund and attempt, however often sent. */
export async function sendProviderRefund(
  jobs: JobSender,
  { paymentId, refundReference, attempt }: ProviderRefundJob,
  now = Date.now(),
): Promise<void> {
  const delaySeconds =
    attempt === 0 ? 0 : Math.min(REFUND_FOLLOW_UP.firstSeconds * 2 ** (attempt - 1), REFUND_FOLLOW_UP.maxSeconds);
  await jobs.send(PROVIDER_REFUND_JOB, { paymentId, refundReference, attempt } satisfies ProviderRefundJob, {
    id: jobIdFor(PROVIDER_REFUND_JOB, refundReference, String(attempt)),
    ...(delaySeconds > 0 ? { startAfter: new Date(now + delaySeconds * 1000) } : {}),
  });
}

/**
 * Refunds through the providers' APIs: the job makes the call staff asked for (and retries it while the
 * provider is unreachable), then follows a refund answered pending for about an hour; the sweep, every five
 * minutes, asks about refunds still pending after that and steps any whose job was lost.
 */
export function refundJobs({
  db,
  refunding,
  publicUrl,
  retry = PROVIDER_REFUND_RETRY,
  log,
}: {
  db: Db;
  refunding: RefundingProviders;
  publicUrl: string;
  retry?: RetryPolicy;
  log: { warn(object: object, message: string): void };
}): JobDefinition[] {
  if (refunding.size === 0) return [];
  return [
    defineJob<ProviderRefundJob>({
      name: PROVIDER_REFUND_JOB,
      retry,
      async handle(job, { queue }) {
        const state = await runProviderRefund(db, refunding, job.paymentId, publicUrl, log);
        // Still with the provider: asked again soon, while someone may be watching the finance view.
        if (state === 'pending' && job.attempt + 1 < REFUND_FOLLOW_UP.attempts) {
          await sendProviderRefund(queue, { ...job, attempt: job.attempt + 1 });
        }
      },
    }),
    scheduledPass({
      name: 'payments.refund-sweep',
      schedule: '*/5 * * * *',
      pass: () => resumeProviderRefunds(db, refunding, publicUrl, log),
      done: "closed refunds from the providers' answers",
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
  env: CardEnv & MobileMoneyEnv;
  deliver?: CallbackDelivery;
  retry?: RetryPolicy;
  /** Tests retry the mobile money status sooner. */
  mobileMoneyRetry?: RetryPolicy;
  log: { warn(object: object, message: string): void };
}): JobDefinition[] {
  // The reconcile pass asks the card provider in use: with Flutterwave, a lost webhook is settled by verify.
  const card = cardProviderFrom(env, { db, log, ...(deliver ? { deliver } : {}) });
  const sandbox = card.name === 'sandbox' ? card.provider : null;
  const mobileMoney = mobileMoneyProvidersFrom(env);
  const refunding = refundingProviders(mobileMoney, card);
  return [
    ...refundJobs({ db, refunding, publicUrl: env.PUBLIC_URL, log }),
    ...mobileMoneyJobs({
      db,
      providers: mobileMoney,
      log,
      publicUrl: env.PUBLIC_URL,
      ...(mobileMoneyRetry ? { retry: mobileMoneyRetry } : {}),
    }),
    defineJob<UndeliveredCallback>({
      name: SANDBOX_CALLBACK_JOB,
      retry,
      async handle(callback) {
        // A sandbox callback left from before the deployment moved to a real provider is kept as failed.
        if (!sandbox) throw new Error('the sandbox is no longer the card provider');
        if (!(await sandbox.redeliver(callback))) {
          throw new Error(`sandbox payment callback for ${callback.reference} not accepted`);
        }
      },
    }),
    scheduledPass({
      name: 'payments.reconcile',
      schedule: '*/5 * * * *',
      pass: () => reconcilePendingPayments(db, card.provider, { log, publicUrl: env.PUBLIC_URL }),
      done: 'settled pending payments from the provider',
    }),
    dailyReconciliationJob({
      db,
      lookups: recordLookups({ mobileMoney, card: card.provider, publicUrl: env.PUBLIC_URL }),
    }),
  ];
}
