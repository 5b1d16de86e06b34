import { z } from 'zod';
import {
  AnnouncementResultSchema,
  NotificationPageSchema,
  NotificationSchema,
  PushKeySchema,
  UnreadNotificationsSchema,
  UnsubscribeResultSchema,
  type Announcement,
  type NotificationPage,
  type PushSubscriptionInput,
} from '@kaminuza/shared';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { MESSAGING_KEY } from '../../../lib/realtime.ts';
import { backgroundInterval } from '../../../lib/low-data.ts';

/**
 * Under the messaging key: every notice of the realtime socket (a `notification` event among them)
 * and every reconnect refetches the list and its unread count, so the bell stays live.
 */
export const NOTIFICATIONS_KEY = [...MESSAGING_KEY, 'notifications'] as const;

export const notificationsQuery = () =>
  infiniteQueryOptions({
    queryKey: [...NOTIFICATIONS_KEY, 'list'],
    queryFn: ({ pageParam, signal }) =>
      api(`/notifications${pageParam ? `?before=${encodeURIComponent(pageParam)}` : ''}`, NotificationPageSchema, {
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page: NotificationPage) => page.next_before,
  });

export function useNotifications(enabled = true) {
  return useInfiniteQuery({ ...notificationsQuery(), enabled });
}

/**
 * The bell's count: the first page's unread total, refetched on focus and every minute as a fallback
 * (realtime brings changes at once); every five minutes in low-data mode.
 */
export function useUnreadNotifications(enabled: boolean) {
  return useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'unread'],
    queryFn: async ({ signal }) => (await api('/notifications?limit=1', NotificationPageSchema, { signal })).unread,
    enabled,
    refetchInterval: backgroundInterval(60_000),
    staleTime: 30_000,
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api(`/notifications/${encodeURIComponent(id)}/read`, NotificationSchema, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api('/notifications/read-all', UnreadNotificationsSchema, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}

export const getPushKey = () => api('/notifications/push/key', PushKeySchema);

export const savePushSubscription = (subscription: PushSubscriptionInput) =>
  api('/notifications/push/subscriptions', z.undefined(), { method: 'POST', body: subscription });

export const deletePushSubscription = (endpoint: string) =>
  api('/notifications/push/subscriptions', z.undefined(), { method: 'DELETE', body: { endpoint } });

export const unsubscribe = (token: string) =>
  api(`/unsubscribe/${encodeURIComponent(token)}`, UnsubscribeResultSchema, { method: 'POST' });

export function useSendAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (announcement: Announcement) =>
      api('/admin/announcements', AnnouncementResultSchema, { method: 'POST', body: announcement }),
    // The audit log shows the announcement.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
