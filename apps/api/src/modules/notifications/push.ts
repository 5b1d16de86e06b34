import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { Db } from '../../db/client.ts';
import { pushSubscriptions, serverKeys } from '../../db/schema/index.ts';

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

export interface PushJob {
  userId: string;
  message: PushMessage;
}

export interface PushCounts {
  sent: number;
  failed: number;
  removed: number;
}

export interface PushSender {
  /** Queues jobs; delivery runs after the current tick, never inside the caller's transaction. */
  enqueue(jobs: readonly PushJob[]): void;
  /** Waits until every queued job has been tried; the counts since the last drain. */
  drain(): Promise<PushCounts>;
  stop(): Promise<void>;
}

const running = new Set<PushSender>();

/**
 * Hands push jobs to this process's sender, after the caller's transaction committed. Without a sender
 * (a process without one, most tests) nothing is pushed: the in-app notification is already stored.
 */
export function queuePushes(jobs: readonly (PushJob | null)[]): void {
  const real = jobs.filter((job): job is PushJob => job !== null);
  if (real.length === 0) return;
  const [sender] = running;
  sender?.enqueue(real);
}

/** Delivers one message to every subscription of its user; gone endpoints are deleted. */
export async function deliverPush(
  db: Db,
  job: PushJob,
  vapid: { subject: string; keys: VapidKeys },
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
): Promise<PushCounts> {
  const counts: PushCounts = { sent: 0, failed: 0, removed: 0 };
  const subscriptions = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.user_id, job.userId));
  const payload = JSON.stringify(job.message);
  for (const subscription of subscriptions) {
    const details = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      payload,
      {
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        vapidDetails: {
          subject: vapid.subject,
          publicKey: vapid.keys.publicKey,
          privateKey: vapid.keys.privateKey,
        },
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
    const context = { subscription_id: subscription.id, user_id: job.userId, status, err: error };
    if (status !== null && status >= 200 && status < 300) {
      counts.sent += 1;
      await db
        .update(pushSubscriptions)
        .set({ failures: 0, last_success_at: sql`now()` })
        .where(eq(pushSubscriptions.id, subscription.id));
    } else if (status === 404 || status === 410) {
      // The browser unsubscribed or the subscription expired: it will never work again (RFC 8030 §7.3).
      counts.removed += 1;
      await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.id, subscription.id), eq(pushSubscriptions.endpoint, subscription.endpoint)));
      log.info(context, 'push subscription gone: deleted');
    } else {
      counts.failed += 1;
      await db
        .update(pushSubscriptions)
        .set({ failures: sql`${pushSubscriptions.failures} + 1` })
        .where(eq(pushSubscriptions.id, subscription.id));
      log.warn(context, 'push not delivered');
    }
  }
  return counts;
}

/**
 * This process's push sender. Makes (or reads) the VAPID keys at start, then delivers queued jobs one
 * after another; a failure is logged and counted, never thrown at the code that notified.
 */
export async function startPushDelivery({
  db,
  publicUrl,
  supportAddress,
  log,
}: {
  db: Db;
  publicUrl: string;
  supportAddress: string;
  log: FastifyBaseLogger;
}): Promise<PushSender> {
  const keys = await vapidKeys(db);
  const vapid = { subject: vapidSubject(publicUrl, supportAddress), keys };
  let chain: Promise<unknown> = Promise.resolve();
  let counts: PushCounts = { sent: 0, failed: 0, removed: 0 };
  let stopped = false;

  const sender: PushSender = {
    enqueue(jobs) {
      if (stopped) return;
      for (const job of jobs) {
        chain = chain
          .then(() => deliverPush(db, job, vapid, log))
          .then((done) => {
            counts.sent += done.sent;
            counts.failed += done.failed;
            counts.removed += done.removed;
          })
          .catch((error: unknown) => log.error({ err: error, user_id: job.userId }, 'push delivery failed'));
      }
    },
    async drain() {
      await chain;
      const result = counts;
      counts = { sent: 0, failed: 0, removed: 0 };
      return result;
    },
    async stop() {
      stopped = true;
      running.delete(sender);
      await chain;
    },
  };
  running.add(sender);
  return sender;
}
