/**
 * Every background job of the platform, with what each needs: a composition root beside app.ts (the
 * modules define their jobs; this puts them on one queue). ADR 033.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.ts';
import type { Env } from './lib/env.ts';
import type { JobDefinition, RetryPolicy } from './lib/jobs/queue.ts';
import { relaySweepJob, type Relay } from './lib/jobs/relay.ts';
import type { Mailer } from './lib/mailer.ts';
import type { Storage } from './lib/storage/index.ts';
import { accountDeletionJobs } from './modules/account-data/deletion.jobs.ts';
import { decisionJobs } from './modules/decisions/decisions.jobs.ts';
import { refereeJobs } from './modules/referees/referees.jobs.ts';
import { autoDecisionJobs, autoDecisionRelay } from './modules/review/auto-decision.jobs.ts';
import { emailJobs, emailRelay, sendersOf } from './modules/email/email.jobs.ts';
import { unreadEmailJobs } from './modules/messaging/unread-email.jobs.ts';
import { pushJobs, pushRelay } from './modules/notifications/push.ts';
import { reminderJobs } from './modules/notifications/reminders.ts';
import type { UploadArea } from './modules/uploads/upload-area.ts';
import { uploadJobs } from './modules/uploads/uploads.jobs.ts';
import { paymentJobs } from './modules/payments/payments.jobs.ts';
import type { CallbackDelivery } from './modules/payments/providers/sandbox-provider.ts';

export interface BackgroundOptions {
  database: Database;
  env: Env;
  storage: Storage;
  /** The uploads in progress, whose expired ones the clean-up removes. */
  uploadArea: UploadArea;
  /** The mail transport; without one, emails wait in the outbox and get no delivery job. */
  mailer: Mailer | null;
  log: FastifyBaseLogger;
  /** Tests deliver sandbox callbacks through app.inject and retry them sooner. */
  sandboxCallbacks?: { deliver?: CallbackDelivery; retry?: RetryPolicy };
  /** Tests ask a mobile money status again sooner after a failed call. */
  mobileMoneyRetry?: RetryPolicy;
}

export interface Background {
  definitions: JobDefinition[];
  /** Records whose jobs are created after their transaction commits (lib/jobs/relay.ts). */
  relays: Relay[];
}

export async function backgroundJobs({
  database,
  env,
  storage,
  uploadArea,
  mailer,
  log,
  sandboxCallbacks = {},
  mobileMoneyRetry,
}: BackgroundOptions): Promise<Background> {
  const { db } = database;
  const publicUrl = env.PUBLIC_URL;
  const relays: Relay[] = [pushRelay(db), autoDecisionRelay(db), ...(mailer ? [emailRelay(db)] : [])];
  const definitions = [
    ...(mailer ? emailJobs({ db, mailer, senders: sendersOf(env) }) : []),
    ...(await pushJobs({ db, publicUrl, supportAddress: env.MAIL_FROM_INFO })),
    ...reminderJobs({ db, publicUrl }),
    ...decisionJobs({ db, publicUrl }),
    ...refereeJobs({ db, publicUrl, secret: env.AUTH_SECRET }),
    ...autoDecisionJobs({ db }),
    ...unreadEmailJobs({ db, publicUrl }),
    ...accountDeletionJobs({ db, storage }),
    ...uploadJobs({ area: uploadArea }),
    ...paymentJobs({ db, env, log, ...sandboxCallbacks, ...(mobileMoneyRetry ? { mobileMoneyRetry } : {}) }),
    relaySweepJob(relays),
  ];
  return { definitions, relays };
}
