import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { UnreadCountsSchema, dataEnvelope } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { staff } from '../../db/schema/index.ts';
import { authHeaders, requireUser } from '../auth/index.ts';
import { AppError } from '../../lib/errors.ts';
import { READY, type RealtimeHub } from '../../lib/realtime.ts';
import { unreadCounts } from './messaging.service.ts';

/** A ping every 30 s keeps proxies from closing an idle socket and finds dead peers (no pong by the next). */
export const HEARTBEAT_MS = 30_000;
/** Close code when the session behind a socket has ended (signed out or expired): the client stops retrying until it signs in. */
export const SESSION_ENDED_CODE = 4401;

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * Browsers send their page's Origin with every WebSocket handshake and cookies go along whatever the
 * page, so a socket opened from another site would otherwise read a signed-in person's notices. Only
 * the public URL or the host the request was sent to (e.g. a LAN address) may connect; no Origin, no socket.
 */
function originAllowed(request: FastifyRequest, publicHost: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  const host = hostOf(origin);
  return host !== null && (host === publicHost || host === request.host);
}

export const messagingRoutes: FastifyPluginAsyncZod<{ db: Db; hub: RealtimeHub; publicUrl: string }> = async (
  app,
  { db, hub, publicUrl },
) => {
  const publicHost = new URL(publicUrl).host;

  app.get(
    '/messaging/unread',
    {
      preHandler: requireUser,
      schema: { tags: ['messaging'], response: { 200: dataEnvelope(UnreadCountsSchema) } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await unreadCounts(db, request.user!) };
    },
  );

  app.get(
    '/realtime',
    {
      websocket: true,
      schema: { hide: true },
      // Refused before the upgrade, as plain HTTP answers: 403 for a foreign page, 401 without a session.
      preValidation: async (request, reply) => {
        if (!originAllowed(request, publicHost)) throw new AppError('PERMISSION_DENIED');
        await requireUser.call(app, request, reply);
      },
    },
    async (socket, request) => {
      const user = request.user!;
      let partnerId: string | null = null;
      if (user.type === 'staff') {
        const [member] = await db
          .select({ partner_id: staff.partner_id })
          .from(staff)
          .where(eq(staff.user_id, user.id))
          .limit(1);
        partnerId = member?.partner_id ?? null;
      }
      hub.add(socket, { userId: user.id, type: user.type, partnerId });
      // The client's messages are not read: the socket only pushes notices.
      socket.on('message', () => undefined);

      const headers = authHeaders(request);
      let alive = true;
      socket.on('pong', () => {
        alive = true;
      });
      const heartbeat = setInterval(() => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
        // The session may have ended since the handshake: a signed-out tab stops receiving.
        app.accounts
          .readSession(headers)
          .then(({ session }) => {
            if (!session || session.userId !== user.id) socket.close(SESSION_ENDED_CODE, 'session ended');
          })
          .catch(() => undefined);
      }, HEARTBEAT_MS);
      heartbeat.unref();
      socket.on('close', () => clearInterval(heartbeat));

      socket.send(JSON.stringify(READY));
    },
  );
};
