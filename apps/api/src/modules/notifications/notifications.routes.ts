import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AnnouncementResultSchema,
  AnnouncementSchema,
  NotificationIdParamsSchema,
  NotificationListQuerySchema,
  NotificationPageSchema,
  NotificationSchema,
  PushKeySchema,
  PushSubscriptionDeleteSchema,
  PushSubscriptionInputSchema,
  UnreadNotificationsSchema,
  UnsubscribeParamsSchema,
  UnsubscribeResultSchema,
  dataEnvelope,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { requireUser, requireUserType, consume, type Limit } from '../auth/index.ts';
import { sendAnnouncement, unsubscribe } from './marketing.ts';
import {
  deletePushSubscription,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  savePushSubscription,
} from './notifications.service.ts';
import { vapidKeys } from './push.ts';

export interface NotificationsRoutesOptions {
  db: Db;
  publicUrl: string;
  ipLimitMultiplier?: number;
}

/** The public unsubscribe endpoint: tokens are random UUIDs, this only slows guessing. */
export const UNSUBSCRIBE_LIMIT: Limit = { name: 'unsubscribe:ip', max: 30, windowMs: 15 * 60_000 };

/**
 * Notifications (issue 10, ADR 019): a signed-in user's own in-app list and this browser's push
 * subscription (another user's notification or subscription answers 404); an admin's marketing
 * announcement; and the unsubscribe link of marketing emails, which needs no sign-in.
 */
export const notificationsRoutes: FastifyPluginAsyncZod<NotificationsRoutesOptions> = async (
  app,
  { db, publicUrl, ipLimitMultiplier = 1 },
) => {
  const tags = ['notifications'];
  const admin = requireUserType('admin');

  // The one-click unsubscribe of RFC 8058 posts `List-Unsubscribe=One-Click` as a form; its body is not needed.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) =>
    done(null, undefined),
  );

  app.get(
    '/notifications',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: "The signed-in user's notifications, newest first, with the unread count",
        querystring: NotificationListQuerySchema,
        response: { 200: dataEnvelope(NotificationPageSchema) },
      },
    },
    async (request) => ({ data: await listNotifications(db, request.user!.id, request.query) }),
  );

  app.post(
    '/notifications/read-all',
    {
      preValidation: requireUser,
      schema: { tags, response: { 200: dataEnvelope(UnreadNotificationsSchema) } },
    },
    async (request) => ({ data: await markAllNotificationsRead(db, request.user!.id) }),
  );

  app.post(
    '/notifications/:id/read',
    {
      preValidation: requireUser,
      schema: { tags, params: NotificationIdParamsSchema, response: { 200: dataEnvelope(NotificationSchema) } },
    },
    async (request) => ({ data: await markNotificationRead(db, request.user!.id, request.params.id) }),
  );

  app.get(
    '/notifications/push/key',
    {
      preValidation: requireUser,
      schema: {
        tags,
        summary: "The server's VAPID public key, for PushManager.subscribe",
        response: { 200: dataEnvelope(PushKeySchema) },
      },
    },
    async () => ({ data: { public_key: (await vapidKeys(db)).publicKey } }),
  );

  app.post(
    '/notifications/push/subscriptions',
    {
      preValidation: requireUser,
      schema: { tags, body: PushSubscriptionInputSchema },
    },
    async (request, reply) => {
      await savePushSubscription(db, request.user!.id, request.body, request.headers['user-agent'] ?? null);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/notifications/push/subscriptions',
    {
      preValidation: requireUser,
      schema: { tags, body: PushSubscriptionDeleteSchema },
    },
    async (request, reply) => {
      await deletePushSubscription(db, request.user!.id, request.body.endpoint);
      return reply.code(204).send();
    },
  );

  app.post(
    '/admin/announcements',
    {
      preValidation: admin,
      schema: {
        tags: ['admin'],
        summary: 'Emails an announcement to everyone who opted into marketing emails',
        body: AnnouncementSchema,
        response: { 200: dataEnvelope(AnnouncementResultSchema) },
      },
    },
    async (request) => ({ data: await sendAnnouncement(db, request.user!.id, request.body, publicUrl) }),
  );

  app.post(
    '/unsubscribe/:token',
    {
      // Counted before validation, so malformed guesses use up the window too.
      onRequest: async (request) =>
        consume(db, { ...UNSUBSCRIBE_LIMIT, max: UNSUBSCRIBE_LIMIT.max * ipLimitMultiplier }, request.ip),
      schema: {
        tags,
        summary: 'Turns marketing emails off for the holder of this link (no sign-in; RFC 8058 one-click)',
        params: UnsubscribeParamsSchema,
        response: { 200: dataEnvelope(UnsubscribeResultSchema) },
      },
    },
    async (request) => {
      await unsubscribe(db, request.params.token);
      return { data: { unsubscribed: true as const } };
    },
  );
};
