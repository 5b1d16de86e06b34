import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { EmailSender } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema/index.ts';
import { mailboxEnabled, type Env } from '../../lib/env.ts';
import { passFailures } from '../../lib/interval-job.ts';
import { createDevMailboxMailer, createSmtpMailer, type Mailer } from '../../lib/mailer.ts';
import { storeDevMail } from './dev-mailbox.service.ts';

/** After this many failed attempts a message is marked failed and kept, with its last error. */
export const MAX_ATTEMPTS = 8;
const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 60 * 60_000;
/** A claimed message not finished within this time (the process died mid-send) is claimed again. */
const CLAIM_LEASE_MS = 5 * 60_000;
const BATCH_SIZE = 10;
const ERROR_MAX_LENGTH = 500;

/** 30 s, 1 min, 2 min … doubling after each failed attempt, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
}

export type Senders = Record<EmailSender, string>;

export interface EmailWorkerOptions {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  senders: Senders;
  /** How often due messages are looked for; 0 polls never (tests call drain()). */
  intervalMs?: number;
}

export interface DeliveryCounts {
  sent: number;
  retried: number;
  failed: number;
}

export interface EmailWorker {
  /** Delivers what is due now instead of at the next poll. */
  flushNow(): void;
  /** Delivers everything due, waiting for it; the counts of what happened. */
  drain(): Promise<DeliveryCounts>;
  /** Stops polling and waits for the delivery in progress. */
  stop(): Promise<void>;
}

const running = new Set<EmailWorker>();

/**
 * Asks the workers of this process to deliver now, e.g. right after the transaction that enqueued a
 * verification email commits. Without a running worker (tests, a process without a transport) the
 * messages simply wait in the outbox.
 */
export function flushEmailOutbox(): void {
  for (const worker of running) worker.flushNow();
}

type Claimed = Pick<
  typeof emailOutbox.$inferSelect,
  'id' | 'to' | 'from' | 'subject' | 'html' | 'text' | 'template' | 'attempts' | 'data'
>;

/**
 * A message's extra headers: a marketing email (data.unsubscribe_url, the one-click endpoint) carries
 * List-Unsubscribe and List-Unsubscribe-Post (RFC 8058), so a mail client can unsubscribe with one POST.
 */
export function extraHeaders(data: Record<string, unknown>): Record<string, string> {
  const url = data.unsubscribe_url;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return {};
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/**
 * Claims due messages: pending ones whose time has come, and ones another worker claimed but never
 * finished. SKIP LOCKED lets several api instances share the outbox on PostgreSQL; PGlite has one
 * connection and runs the same statement. The claim pushes next_attempt_at out by the lease.
 */
async function claim(db: Db): Promise<Claimed[]> {
  const due = db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(inArray(emailOutbox.status, ['pending', 'sending']), lte(emailOutbox.next_attempt_at, sql`now()`)))
    .orderBy(asc(emailOutbox.next_attempt_at))
    .limit(BATCH_SIZE)
    .for('update', { skipLocked: true });
  return db
    .update(emailOutbox)
    .set({
      status: 'sending',
      attempts: sql`${emailOutbox.attempts} + 1`,
      next_attempt_at: sql`now() + make_interval(secs => ${CLAIM_LEASE_MS / 1000})`,
    })
    .where(and(inArray(emailOutbox.id, due), inArray(emailOutbox.status, ['pending', 'sending'])))
    .returning({
      id: emailOutbox.id,
      to: emailOutbox.to,
      from: emailOutbox.from,
      subject: emailOutbox.subject,
      html: emailOutbox.html,
      text: emailOutbox.text,
      template: emailOutbox.template,
      attempts: emailOutbox.attempts,
      data: emailOutbox.data,
    });
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, ERROR_MAX_LENGTH);
}

function senderAddress(senders: Senders, from: string): string {
  return from === 'info' || from === 'no_reply' ? senders[from] : from;
}

function messageIdFor(id: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'kaminuza.local';
  return `<${id}@${domain}>`;
}

async function deliver(
  { db, mailer, log, senders }: EmailWorkerOptions,
  message: Claimed,
): Promise<keyof DeliveryCounts> {
  const from = senderAddress(senders, message.from);
  const context = { email_id: message.id, template: message.template, attempt: message.attempts };
  try {
    await mailer.send({
      from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId: messageIdFor(message.id, from),
      headers: { 'Auto-Submitted': 'auto-generated', ...extraHeaders(message.data) },
    });
  } catch (error) {
    const lastError = describeError(error);
    if (message.attempts >= MAX_ATTEMPTS) {
      await db
        .update(emailOutbox)
        .set({ status: 'failed', last_error: lastError })
        .where(and(eq(emailOutbox.id, message.id), eq(emailOutbox.status, 'sending')));
      log.error({ ...context, err: lastError }, 'email failed: giving up');
      return 'failed';
    }
    const delayMs = retryDelayMs(message.attempts);
    await db
      .update(emailOutbox)
      .set({
        status: 'pending',
        last_error: lastError,
        next_attempt_at: sql`now() + make_interval(secs => ${delayMs / 1000})`,
      })
      .where(and(eq(emailOutbox.id, message.id), eq(emailOutbox.status, 'sending')));
    log.warn({ ...context, err: lastError, retry_in_ms: delayMs }, 'email not sent: will retry');
    return 'retried';
  }
  await db
    .update(emailOutbox)
    .set({ status: 'sent', sent_at: sql`now()`, last_error: null })
    .where(and(eq(emailOutbox.id, message.id), eq(emailOutbox.status, 'sending')));
  log.info(context, 'email sent');
  return 'sent';
}

/**
 * Delivers the outbox: polls every `intervalMs`, on flushNow() and on drain(). Passes never overlap; a
 * request made while one runs is served by the next pass.
 */
export function startEmailWorker(options: EmailWorkerOptions): EmailWorker {
  const { db, log, intervalMs = 1_000 } = options;
  let stopped = false;
  let chain: Promise<unknown> = Promise.resolve();
  let queued: Promise<DeliveryCounts> | null = null;

  async function pass(): Promise<DeliveryCounts> {
    const counts: DeliveryCounts = { sent: 0, retried: 0, failed: 0 };
    while (!stopped) {
      const batch = await claim(db);
      if (batch.length === 0) break;
      for (const message of batch) counts[await deliver(options, message)] += 1;
    }
    return counts;
  }

  function schedule(): Promise<DeliveryCounts> {
    if (queued) return queued;
    const next = chain.then(() => {
      queued = null;
      return pass();
    });
    queued = next;
    chain = next.catch(() => undefined);
    return next;
  }

  const failures = passFailures(log, 'email delivery pass failed');
  function background(): void {
    if (stopped) return;
    schedule().then(
      () => failures.succeeded(),
      (error: unknown) => failures.failed(error),
    );
  }

  const timer = intervalMs > 0 ? setInterval(background, intervalMs) : null;
  timer?.unref();

  const worker: EmailWorker = {
    flushNow: background,
    drain: schedule,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      running.delete(worker);
      await chain;
    },
  };
  running.add(worker);
  return worker;
}

export interface EmailDelivery {
  worker: EmailWorker | null;
  mailer: Mailer | null;
  /** Stops the worker, then the transport (and the dev mailbox server). */
  stop(): Promise<void>;
}

/**
 * The transport the env selects (SMTP_URL, else the dev mailbox when on) and a worker delivering
 * through it. With neither, nothing is sent: messages wait in the outbox until a transport is set.
 */
export async function startEmailDelivery({
  env,
  db,
  log,
  intervalMs,
}: {
  env: Env;
  db: Db;
  log: FastifyBaseLogger;
  intervalMs?: number;
}): Promise<EmailDelivery> {
  const mailer = env.SMTP_URL
    ? createSmtpMailer(env.SMTP_URL)
    : mailboxEnabled(env)
      ? await createDevMailboxMailer(async (mail) => {
          await storeDevMail(db, mail);
        })
      : null;
  if (!mailer) {
    log.warn('no mail transport: set SMTP_URL to send email; messages wait in the outbox');
    return { worker: null, mailer: null, stop: async () => undefined };
  }
  const senders = { info: env.MAIL_FROM_INFO, no_reply: env.MAIL_FROM_NO_REPLY };
  const worker = startEmailWorker({ db, mailer, log, senders, ...(intervalMs === undefined ? {} : { intervalMs }) });
  log.info({ transport: mailer.kind }, 'email delivery started');
  return {
    worker,
    mailer,
    async stop() {
      await worker.stop();
      await mailer.close();
    },
  };
}
