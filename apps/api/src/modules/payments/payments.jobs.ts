import type { Db } from '../../db/client.ts';
import type { Env } from '../../lib/env.ts';
import { defineJob, scheduledPass, type JobDefinition, type RetryPolicy } from '../../lib/jobs/queue.ts';
import { reconcilePendingPayments } from './payments.service.ts';
import { sandboxChargesIn } from './providers/sandbox-charges.ts';
import {
  createSandboxProvider,
  type CallbackDelivery,
  type UndeliveredCallback,
} from './providers/sandbox-provider.ts';

export const SANDBOX_CALLBACK_JOB = 'payments.sandbox-callback';

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
  log,
}: {
  db: Db;
  env: Pick<Env, 'PAYMENTS_WEBHOOK_SECRET' | 'PUBLIC_URL'>;
  deliver?: CallbackDelivery;
  retry?: RetryPolicy;
  log: { warn(object: object, message: string): void };
}): JobDefinition[] {
  const sandbox = createSandboxProvider({
    secret: env.PAYMENTS_WEBHOOK_SECRET,
    publicUrl: env.PUBLIC_URL,
    log,
    charges: sandboxChargesIn(db),
    ...(deliver ? { deliver } : {}),
  });
  return [
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
