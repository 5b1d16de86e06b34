import { sql } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { RealtimeEventSchema, type RealtimeEvent, type UserType } from '@kaminuza/shared';
import type { Database, Db, DbOrTx } from '../db/client.ts';

/** The one NOTIFY channel every api instance listens to. */
export const REALTIME_CHANNEL = 'kaminuza_realtime';

export interface Audience {
  /** users.id of each person to reach (every open tab of each). */
  users?: string[];
  /** An institution: its active, approved staff holding message_applicants or all. */
  partnerId?: string;
  /** The support team: every admin. */
  supportTeam?: boolean;
}

const NotificationSchema = z.object({
  audience: z.object({
    users: z.array(z.string()).optional(),
    partnerId: z.string().optional(),
    supportTeam: z.boolean().optional(),
  }),
  event: RealtimeEventSchema,
});

/**
 * Tells every api instance about a change, inside the caller's transaction: PostgreSQL delivers a NOTIFY
 * only when that transaction commits, so nobody hears of a message that was rolled back, and the
 * message is stored before anyone is told.
 */
export async function publish(db: DbOrTx, audience: Audience, event: RealtimeEvent): Promise<void> {
  await db.execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${JSON.stringify({ audience, event })})`);
}

/** Sent first on every socket, and again to all after a gap in listening: the client refetches. */
export const READY: RealtimeEvent = { type: 'ready' };

/** Who a socket belongs to, as checked when it connected. */
export interface Subscriber {
  userId: string;
  type: UserType;
  /** Staff only: the institution of their staff record. */
  partnerId: string | null;
}

/**
 * Of these staff users of one institution, those who may read its messages now (a revoked permission stops
 * delivery at once). The partners module answers it; the app hands it in, as lib/ imports no module.
 */
export type MessagingStaff = (db: Db, partnerId: string, userIds: string[]) => Promise<Set<string>>;

export interface RealtimeHub {
  /** Starts listening (once for this app); resolves when NOTIFYs are being received. */
  start(): Promise<void>;
  /** Registers a socket; it is forgotten when it closes. */
  add(socket: WebSocket, subscriber: Subscriber): void;
  /** Sockets open on this instance (for tests and logs). */
  size(): number;
  /** Delivers one notification payload to the sockets of this instance it is meant for. */
  deliver(payload: string): Promise<void>;
  stop(): Promise<void>;
}

export interface HubLogger {
  warn(object: object, message: string): void;
}

/**
 * The sockets of one api instance. Each instance LISTENs once and delivers every notification to the
 * sockets it holds; other instances do the same with theirs, which is the fan-out.
 */
export function createRealtimeHub(database: Database, log: HubLogger, messagingStaff: MessagingStaff): RealtimeHub {
  const sockets = new Map<WebSocket, Subscriber>();
  let unlisten: (() => Promise<void>) | null = null;
  let starting: Promise<void> | null = null;

  function send(socket: WebSocket, event: RealtimeEvent): void {
    // 1 = OPEN; a socket closing meanwhile just misses it, and its client refetches on reconnect.
    if (socket.readyState === 1) socket.send(JSON.stringify(event));
  }

  async function deliver(payload: string): Promise<void> {
    let parsed: z.infer<typeof NotificationSchema>;
    try {
      parsed = NotificationSchema.parse(JSON.parse(payload));
    } catch (error) {
      log.warn({ err: error }, 'realtime: ignored a malformed notification');
      return;
    }
    const { audience, event } = parsed;
    const users = new Set(audience.users ?? []);
    const staffCandidates: WebSocket[] = [];
    const targets = new Set<WebSocket>();
    for (const [socket, subscriber] of sockets) {
      if (users.has(subscriber.userId)) targets.add(socket);
      else if (audience.supportTeam && subscriber.type === 'admin') targets.add(socket);
      else if (audience.partnerId && subscriber.type === 'staff' && subscriber.partnerId === audience.partnerId) {
        staffCandidates.push(socket);
      }
    }
    if (audience.partnerId && staffCandidates.length > 0) {
      const ids = [...new Set(staffCandidates.map((socket) => sockets.get(socket)!.userId))];
      const allowed = await messagingStaff(database.db, audience.partnerId, ids);
      for (const socket of staffCandidates) {
        const subscriber = sockets.get(socket);
        if (subscriber && allowed.has(subscriber.userId)) targets.add(socket);
      }
    }
    for (const socket of targets) send(socket, event);
  }

  return {
    start() {
      starting ??= database
        .listen(
          REALTIME_CHANNEL,
          (payload) => {
            deliver(payload).catch((error: unknown) => log.warn({ err: error }, 'realtime: delivery failed'));
          },
          () => {
            // Listening again after the database connection was lost: whatever happened meanwhile was
            // never heard, so every socket is told to refetch (a client takes a second `ready` that way).
            log.warn({ sockets: sockets.size }, 'realtime: listening again; clients told to refetch');
            for (const socket of sockets.keys()) send(socket, READY);
          },
        )
        .then((stop) => {
          unlisten = stop;
        });
      return starting;
    },
    add(socket, subscriber) {
      sockets.set(socket, subscriber);
      socket.on('close', () => sockets.delete(socket));
    },
    size: () => sockets.size,
    deliver,
    async stop() {
      if (starting) await starting.catch(() => undefined);
      for (const socket of sockets.keys()) socket.close(1001, 'server shutting down');
      sockets.clear();
      // With the database already gone there is nothing left to stop listening to.
      if (unlisten) await unlisten().catch(() => undefined);
      unlisten = null;
    },
  };
}
