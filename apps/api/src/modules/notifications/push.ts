import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { Db } from '../../db/client.ts';
import { notifications, pushSubscriptions, serverKeys } from '../../db/schema/index.ts';
import { defineJob, jobIdFor, type JobDefinition, type JobSender } from '../../lib/jobs/queue.ts';
import { recordRelay, type Relay } from '../../lib/jobs/relay.ts';
import { languageOf, pushWording, type NotificationData } from './notifications.service.ts';

/** The row of `server_keys` holding the VAPID key pair (RFC 8292). */
export const VAPID_KEY_NAME = 'vapid';
/** How long a push service keeps a message for a browser that is offline (seconds). */
const PUSH_TTL_SECONDS = 24 * 60 * 60;
const PUSH_TIMEOUT_MS = 10_000;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const keysOf = new WeakMap<Db, Promise<VapidKeys>>();

/**
 * The server's VAPID key pair, made at first start and kept in `server_keys`. Several instances starting
 * at once each try to insert theirs; `on conflict do nothing` keeps the first, and everyone reads it back,
 * so every instance signs with the same key browsers subscribed with.
 */
export function vapidKeys(db: Db): Promise<VapidKeys> {
  let found = keysOf.get(db);
  if (!found) {
    found = (async () => {
      const fresh = webpush.generateVAPIDKeys();
      await db
        .insert(serverKeys)
        .values({ name: VAPID_KEY_NAME, public_key: fresh.publicKey, private_key: fresh.privateKey })
        .onConflictDoNothing({ target: serverKeys.name });
      const [row] = await db.select().from(serverKeys).where(eq(serverKeys.name, VAPID_KEY_NAME)).limit(1);
      if (!row) throw new Error('VAPID keys missing after insert');
      return { publicKey: row.public_key, privateKey: row.private_key };
    })();
    found.catch(() => keysOf.delete(db));
    keysOf.set(db, found);
  }
  return found;
}

/**
 * The VAPID subject push services may contact about this sender: the platform's public URL when it is
 * https (production), otherwise a mailto of the support address (development on http://localhost).
 */
export function vapidSubject(publicUrl: string, supportAddress: string): string {
  if (publicUrl.startsWith('https://')) return publicUrl;
  const email = /<([^>]+)>/.exec(supportAddress)?.[1] ?? supportAddress.trim();
  return `mailto:${email}`;
}

/** What the service worker shows: already worded in the recipient's language. */
export interface PushMessage {
  id: string;
  title: string;
  body: string;
  link: string | null;
}

export const PUSH_NOTIFY_JOB = 'push.notify';
export const PUSH_DELIVER_JOB = 'push.deliver';

export type PushOutcome = 'sent' | 'gone' | 'missing';

/** A push service that refused or could not be reached: the job retries it. */
export class PushNotDelivered extends Error {
  readonly status: number | null;
  constructor(status: number | null, detail: string) {
    super(`push not delivered: ${detail}`);
    this.name = 'PushNotDelivered';
    this.status = status;
  }
}

/**
 * Sends one message to one subscription (the `push.deliver` job). A gone endpoint (404, 410: the browser
 * unsubscribed or the subscription expired, RFC 8030 §7.3) is deleted and the job is done; any other
 * failure counts on the subscription and throws, so the queue retries with backoff.
 */
export async function deliverPush(
  db: Db,
  subscriptionId: string,
  message: PushMessage,
  vapid: { subject: string; keys: VapidKeys },
  log: Pick<FastifyBaseLogger, 'info'>,
): Promise<PushOutcome> {
  const [subscription] = await db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.id, subscriptionId))
    .limit(1);
  if (!subscription) return 'missing';
  const details = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify(message),
    {
      TTL: PUSH_TTL_SECONDS,
      contentEncoding: 'aes128gcm',
      vapidDetails: { subject: vapid.subject, publicKey: vapid.keys.publicKey, privateKey: vapid.keys.privateKey },
    },
  );
  let status: number | null = null;
  let error: string | null = null;
  try {
    // fetch rather than web-push's own https.request: the same encrypted, signed request, with a timeout.
    const response = await fetch(details.endpoint, {
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: details.body ? new Uint8Array(details.body) : null,
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    status = response.status;
    await response.body?.cancel();
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  }
  if (status !== null && status >= 200 && status < 300) {
    await db
      .update(pushSubscriptions)
      .set({ failures: 0, last_success_at: sql`now()` })
      .where(eq(pushSubscriptions.id, subscription.id));
    return 'sent';
  }
  if (status === 404 || status === 410) {
    await db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.id, subscription.id), eq(pushSubscriptions.endpoint, subscription.endpoint)));
    log.info(
      { subscription_id: subscription.id, user_id: subscription.user_id, status },
      'push subscription gone: deleted',
    );
    return 'gone';
  }
  await db
    .update(pushSubscriptions)
    .set({ failures: sql`${pushSubscriptions.failures} + 1` })
    .where(eq(pushSubscriptions.id, subscription.id));
  throw new PushNotDelivered(status, status === null ? (error ?? 'no answer') : `status ${status}`);
}

/**
 * The message of a notification marked for push, worded in its user's language now, and the jobs that
 * send it to each of the user's subscriptions (one job per subscription, so a retry never sends twice to
 * a browser that got it). Answers how many subscriptions it was sent towards.
 */
export async function fanOutPush(db: Db, queue: JobSender, notificationId: string): Promise<number> {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, notificationId)).limit(1);
  if (!row) return 0;
  const wording = pushWording(await languageOf(db, row.user_id), row.type, row.data as NotificationData);
  const message: PushMessage = { id: row.id, ...wording, link: row.link };
  const subscriptions = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.user_id, row.user_id));
  await queue.sendMany(
    PUSH_DELIVER_JOB,
    subscriptions.map((subscription) => ({
      id: jobIdFor(PUSH_DELIVER_JOB, row.id, subscription.id),
      data: { subscription_id: subscription.id, message },
    })),
  );
  return subscriptions.length;
}

/** Creates the push jobs of notifications marked for push that have none yet (lib/jobs/relay.ts). */
export function pushRelay(db: Db): Relay {
  const unqueued = and(eq(notifications.push, true), isNull(notifications.push_queued_at));
  return recordRelay({
    name: 'push',
    job: PUSH_NOTIFY_JOB,
    pending: async (limit) =>
      (
        await db
          .select({ id: notifications.id })
          .from(notifications)
          .where(unqueued)
          .orderBy(asc(notifications.created_at))
          .limit(limit)
      ).map((row) => row.id),
    async markQueued(ids) {
      await db
        .update(notifications)
        .set({ push_queued_at: sql`now()` })
        .where(and(inArray(notifications.id, ids), unqueued));
    },
  });
}

/** Push jobs. Makes (or reads) the VAPID keys first: every instance signs with the same pair. */
export async function pushJobs({
  db,
  publicUrl,
  supportAddress,
}: {
  db: Db;
  publicUrl: string;
  supportAddress: string;
}): Promise<JobDefinition[]> {
  const vapid = { subject: vapidSubject(publicUrl, supportAddress), keys: await vapidKeys(db) };
  return [
    defineJob<{ id: string }>({
      name: PUSH_NOTIFY_JOB,
      retry: { retryLimit: 5, retryDelaySeconds: 10, retryDelayMaxSeconds: 600, expireInSeconds: 120 },
      concurrency: 2,
      async handle({ id }, { queue }) {
        await fanOutPush(db, queue, id);
      },
    }),
    defineJob<{ subscription_id: string; message: PushMessage }>({
      name: PUSH_DELIVER_JOB,
      // Push services keep a message a day (TTL); retrying past a few hours serves nobody.
      retry: { retryLimit: 6, retryDelaySeconds: 30, retryDelayMaxSeconds: 3600, expireInSeconds: 120 },
      concurrency: 4,
      async handle({ subscription_id, message }, { log }) {
        await deliverPush(db, subscription_id, message, vapid, log);
      },
    }),
  ];
}
