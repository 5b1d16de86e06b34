import { and, count, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type {
  AppNotification,
  NotificationCategory,
  NotificationListQuery,
  NotificationPage,
  NotificationType,
  PushSubscriptionInput,
} from '@kaminuza/shared';
import { NotificationListQuerySchema } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { notifications, pushSubscriptions, staff, students, userPreferences, users } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { publish } from '../../lib/realtime.ts';
import type { DbOrTx } from '../../db/client.ts';
import { catalogueText, emailLanguage } from '../email/index.ts';
import { readPreferences, type Preferences } from '../settings/index.ts';

/** Values a notification's wording interpolates (institution, program, document, reason, deadline…). */
export type NotificationData = Record<string, string | number | null>;

export interface NotifyInput {
  userId: string;
  category: NotificationCategory;
  type: NotificationType;
  data?: NotificationData;
  /** The app path it opens, e.g. /partners/<id>/application/decision. */
  link: string | null;
  /** The user's preferences when the caller has read them already (for its email): not read again. */
  preferences?: Preferences;
}

/** The language a user reads the platform in: their profile's (students, staff), else their settings'. */
export async function languageOf(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ student: students.language, member: staff.language, preferred: userPreferences.language })
    .from(users)
    .leftJoin(students, eq(students.user_id, users.id))
    .leftJoin(staff, eq(staff.user_id, users.id))
    .leftJoin(userPreferences, eq(userPreferences.user_id, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return emailLanguage(row?.student ?? row?.member ?? row?.preferred ?? null);
}

/**
 * A notification worded for a push message, from the same texts the in-app list uses
 * (notifications.types.<type>): a document is named by its kind, a reply without a sender is the team's.
 */
export function pushWording(language: string, type: string, data: NotificationData) {
  const t = catalogueText(emailLanguage(language));
  const values = {
    ...data,
    ...(typeof data.document_type === 'string'
      ? { document: t(`documents.types.${data.document_type}`, { defaultValue: data.document_type }) }
      : {}),
  };
  const bodyKey = type === 'new_message' && !data.sender ? 'body_support' : 'body';
  return {
    title: t(`notifications.types.${type}.title`, { defaultValue: t('notifications.types.other.title') }),
    body: t(`notifications.types.${type}.${bodyKey}`, { ...values, defaultValue: '' }),
  };
}

/**
 * Records an in-app notification, always: the list with its unread count works in every browser. In the
 * caller's transaction, so it exists only if the event does; the open tabs of the user hear of it when
 * that transaction commits. Marked to be pushed unless the user turned that push category off: its push
 * job is then created after the commit (push.ts). Answers whether it will be pushed.
 */
export async function notify(db: DbOrTx, input: NotifyInput): Promise<boolean> {
  const data = input.data ?? {};
  const preferences = input.preferences ?? (await readPreferences(db, input.userId));
  const push = preferences.push[input.category];
  const [row] = await db
    .insert(notifications)
    .values({ user_id: input.userId, category: input.category, type: input.type, data, link: input.link, push })
    .returning({ id: notifications.id });
  if (!row) throw new Error('notification insert returned no row');
  await publish(db, { users: [input.userId] }, { type: 'notification', id: row.id });
  return push;
}

const iso = (value: string) => new Date(value).toISOString();

function toNotification(row: typeof notifications.$inferSelect): AppNotification {
  return {
    id: row.id,
    category: row.category,
    type: row.type,
    data: row.data,
    link: row.link,
    read_at: row.read_at === null ? null : iso(row.read_at),
    created_at: iso(row.created_at),
  };
}

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ unread: count() })
    .from(notifications)
    .where(and(eq(notifications.user_id, userId), isNull(notifications.read_at)));
  return row?.unread ?? 0;
}

/** The user's own notifications, newest first, a page at a time, with their unread count. */
export async function listNotifications(
  db: Db,
  userId: string,
  query: NotificationListQuery,
): Promise<NotificationPage> {
  const { before, limit } = NotificationListQuerySchema.parse(query);
  const rows = await db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.user_id, userId),
        before ? lt(notifications.created_at, new Date(before).toISOString()) : undefined,
      ),
    )
    .orderBy(desc(notifications.created_at), desc(notifications.id))
    .limit(limit + 1);
  const items = rows.slice(0, limit).map(toNotification);
  return {
    items,
    unread: await unreadCount(db, userId),
    next_before: rows.length > limit ? (items.at(-1)?.created_at ?? null) : null,
  };
}

/** Marks one of the user's notifications read; another user's (or none) answers 404. */
export async function markNotificationRead(db: Db, userId: string, id: string): Promise<AppNotification> {
  await db
    .update(notifications)
    .set({ read_at: sql`coalesce(${notifications.read_at}, now())` })
    .where(and(eq(notifications.id, id), eq(notifications.user_id, userId)));
  const [row] = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.user_id, userId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return toNotification(row);
}

export async function markAllNotificationsRead(db: Db, userId: string): Promise<{ unread: number }> {
  await db
    .update(notifications)
    .set({ read_at: sql`now()` })
    .where(and(eq(notifications.user_id, userId), isNull(notifications.read_at)));
  return { unread: 0 };
}

/**
 * Stores this browser's push subscription for the user. An endpoint is one browser profile: subscribing
 * again (or as another account signed in on it) takes it over, with its new keys.
 */
export async function savePushSubscription(
  db: Db,
  userId: string,
  input: PushSubscriptionInput,
  userAgent: string | null,
): Promise<void> {
  const values = {
    user_id: userId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    user_agent: userAgent?.slice(0, 500) ?? null,
    failures: 0,
  };
  await db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { ...values, updated_at: sql`now()` },
    });
}

/** Deletes the user's own subscription with this endpoint; anyone else's answers 404. */
export async function deletePushSubscription(db: Db, userId: string, endpoint: string): Promise<void> {
  const deleted = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.user_id, userId)))
    .returning({ id: pushSubscriptions.id });
  if (deleted.length === 0) throw new AppError('NOT_FOUND');
}
