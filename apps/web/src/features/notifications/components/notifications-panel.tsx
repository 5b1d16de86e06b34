import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AppNotification } from '@kaminuza/shared';
import { useMarkAllRead, useMarkRead, useNotifications } from '../api/notifications.ts';
import { useNotificationText } from './notification-text.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

function Item({ notification, onOpen }: { notification: AppNotification; onOpen: () => void }) {
  const { t, i18n } = useTranslation();
  const word = useNotificationText();
  const markRead = useMarkRead();
  const { title, body } = word(notification);
  const unread = notification.read_at === null;
  const open = () => {
    if (unread) markRead.mutate(notification.id);
    onOpen();
  };
  return (
    <li
      className={`flex flex-col gap-1 border-b border-border p-3 last:border-b-0 ${unread ? 'bg-surface-muted' : ''}`}
      data-testid="notification"
    >
      <p className="flex items-start gap-2 font-medium [overflow-wrap:anywhere]">
        {unread && <span aria-hidden="true" className="mt-2 inline-block size-2 shrink-0 rounded-full bg-brand" />}
        {notification.link ? (
          <Link to={notification.link} className="link" onClick={open}>
            {title}
          </Link>
        ) : (
          <span>{title}</span>
        )}
        {unread && <span className="sr-only">{` (${t('notifications.unread')})`}</span>}
      </p>
      {body && <p className="text-sm [overflow-wrap:anywhere]">{body}</p>}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <time className="text-sm text-muted" dateTime={notification.created_at}>
          {dateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
            new Date(notification.created_at),
          )}
        </time>
        {unread && (
          <button
            type="button"
            className="link min-h-11 text-sm"
            aria-label={t('notifications.mark_read_label', { title })}
            disabled={markRead.isPending}
            onClick={() => markRead.mutate(notification.id)}
          >
            {t('notifications.mark_read')}
          </button>
        )}
      </div>
    </li>
  );
}

/** The notifications list the bell opens: newest first, each linking to what it is about. */
export function NotificationsPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const list = useNotifications();
  const markAll = useMarkAllRead();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const unread = list.data?.pages[0]?.unread ?? 0;

  let body;
  if (list.isError && !list.data) {
    body = (
      <div role="alert" className="flex flex-col items-start gap-2 p-3">
        <p>{t('notifications.load_failed')}</p>
        <button type="button" className="btn-secondary" onClick={() => void list.refetch()}>
          {t('notifications.retry')}
        </button>
      </div>
    );
  } else if (!list.data) {
    body = (
      <p className="p-3 text-muted" aria-busy="true">
        {t('notifications.loading')}
      </p>
    );
  } else if (items.length === 0) {
    body = <p className="p-3 text-muted">{t('notifications.empty')}</p>;
  } else {
    body = (
      <>
        <ul aria-busy={list.isFetching}>
          {items.map((notification) => (
            <Item key={notification.id} notification={notification} onOpen={onClose} />
          ))}
        </ul>
        {list.hasNextPage && (
          <div className="p-3">
            <button
              type="button"
              className="btn-secondary w-full"
              disabled={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
            >
              {t('notifications.load_more')}
            </button>
          </div>
        )}
      </>
    );
  }

  return (
    <div
      id={id}
      role="region"
      aria-labelledby={`${id}-title`}
      className="fixed inset-x-0 top-14 z-50 max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-border bg-surface shadow-lg md:absolute md:inset-x-auto md:end-4 md:top-full md:w-96 md:rounded-xl md:border"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-border p-3">
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
          {t('notifications.title')}
        </h2>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-secondary"
            disabled={unread === 0 || markAll.isPending}
            onClick={() => markAll.mutate()}
          >
            {t('notifications.mark_all_read')}
          </button>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t('notifications.close')}
          </button>
        </div>
      </div>
      {markAll.isError && (
        <p role="alert" className="p-3 text-sm text-danger">
          {t('notifications.action_failed')}
        </p>
      )}
      {body}
    </div>
  );
}
