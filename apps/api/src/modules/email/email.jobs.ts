import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { EmailSender } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema/index.ts';
import { mailboxEnabled, type Env } from '../../lib/env.ts';
import { defineJob, type JobContext, type JobDefinition } from '../../lib/jobs/queue.ts';
import { recordRelay, type Relay } from '../../lib/jobs/relay.ts';
import { createDevMailboxMailer, createSmtpMailer, type Mailer } from '../../lib/mailer.ts';
import { storeDevMail } from './dev-mailbox.service.ts';
import { renderStored } from './email.service.ts';

/** Attempts of one message before its job is kept as failed (an admin can retry it). */
export const MAX_ATTEMPTS = 8;
const ERROR_MAX_LENGTH = 500;
export const EMAIL_SEND_JOB = 'email.send';

export type Senders = Record<EmailSender, string>;

/**
 * A message's extra headers: a marketing email (data.unsubscribe_url, the one-click endpoint) carries
 * List-Unsubscribe and List-Unsubscribe-Post (RFC 8058), so a mail client can unsubscribe with one POST.
 */
export function extraHeaders(data: Record<string, unknown>): Record<string, string> {
  const url = data.unsubscribe_url;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return {};
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
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

/**
 * Delivers one message: the `email.send` job of an outbox row. A message already sent is not sent again
 * (a retried job whose first attempt got through). A failure is recorded on the row and thrown, so the
 * queue retries with backoff (30 s, 1 min, 2 min … at most an hour); after the last attempt the row is
 * marked failed and the job is kept as failed.
 */
export async function deliverEmail(
  { db, mailer, senders }: { db: Db; mailer: Mailer; senders: Senders },
  id: string,
  { lastAttempt, log }: Pick<JobContext, 'lastAttempt' | 'log'>,
): Promise<'sent' | 'already_sent' | 'missing'> {
  const [message] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).limit(1);
  // Deleted with its account meanwhile: nothing to send.
  if (!message) return 'missing';
  if (message.status === 'sent') return 'already_sent';
  const from = senderAddress(senders, message.from);
  const attempt = message.attempts + 1;
  // Written unrendered on a request's hot path (a submission's receipt): rendered now, and kept as sent.
  const rendered =
    message.subject !== null && message.html !== null && message.text !== null
      ? { subject: message.subject, html: message.html, text: message.text }
      : null;
  let content = rendered;
  try {
    // A message whose data no longer renders fails like a refused send: recorded, retried, kept as failed.
    content ??= renderStored(message);
    await mailer.send({
      from,
      to: message.to,
      subject: content.subject,
      text: content.text,
      html: content.html,
      messageId: messageIdFor(message.id, from),
      headers: { 'Auto-Submitted': 'auto-generated', ...extraHeaders(message.data) },
    });
  } catch (error) {
    await db
      .update(emailOutbox)
      .set({ status: lastAttempt ? 'failed' : 'pending', attempts: attempt, last_error: describeError(error) })
      .where(and(eq(emailOutbox.id, id), ne(emailOutbox.status, 'sent')));
    throw error;
  }
  await db
    .update(emailOutbox)
    .set({
      status: 'sent',
      attempts: attempt,
      sent_at: sql`now()`,
      last_error: null,
      ...(rendered ? {} : content),
    })
    .where(eq(emailOutbox.id, id));
  log.info({ email_id: message.id, template: message.template, attempt }, 'email sent');
  return 'sent';
}

/** Creates the delivery jobs of outbox rows that have none yet (lib/jobs/relay.ts). */
export function emailRelay(db: Db): Relay {
  return recordRelay({
    name: 'email',
    job: EMAIL_SEND_JOB,
    pending: async (limit) =>
      (
        await db
          .select({ id: emailOutbox.id })
          .from(emailOutbox)
          .where(isNull(emailOutbox.queued_at))
          .orderBy(asc(emailOutbox.created_at))
          .limit(limit)
      ).map((row) => row.id),
    async markQueued(ids) {
      await db
        .update(emailOutbox)
        .set({ queued_at: sql`now()` })
        .where(and(inArray(emailOutbox.id, ids), isNull(emailOutbox.queued_at)));
    },
  });
}

export function emailJobs(deps: { db: Db; mailer: Mailer; senders: Senders }): JobDefinition[] {
  return [
    defineJob<{ id: string }>({
      name: EMAIL_SEND_JOB,
      retry: {
        retryLimit: MAX_ATTEMPTS - 1,
        retryDelaySeconds: 30,
        retryDelayMaxSeconds: 60 * 60,
        // A send that hangs longer than this (a dead connection) is tried again.
        expireInSeconds: 5 * 60,
      },
      concurrency: 4,
      // A receipt a few seconds late harms nobody; a burst of submits slowed by its own receipts does.
      givesWay: true,
      async handle({ id }, context) {
        await deliverEmail(deps, id, context);
      },
    }),
  ];
}

/**
 * The transport the env selects: SMTP_URL, else the dev mailbox when on, else none (messages then wait
 * in the outbox, without jobs, until a transport is set).
 */
export async function openMailer({ env, db }: { env: Env; db: Db }): Promise<Mailer | null> {
  return env.SMTP_URL
    ? createSmtpMailer(env.SMTP_URL)
    : mailboxEnabled(env)
      ? await createDevMailboxMailer(async (mail) => {
          await storeDevMail(db, mail);
        })
      : null;
}

export function sendersOf(env: Pick<Env, 'MAIL_FROM_INFO' | 'MAIL_FROM_NO_REPLY'>): Senders {
  return { info: env.MAIL_FROM_INFO, no_reply: env.MAIL_FROM_NO_REPLY };
}
