import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadAppTexts } from '../../../lib/i18n.ts';
import { useUnreadNotifications } from '../api/notifications.ts';

// The list and its texts load when the bell is first opened: the shell stays small.
const NotificationsPanel = lazy(async () => {
  const [module] = await Promise.all([import('./notifications-panel.tsx'), loadAppTexts()]);
  return { default: module.NotificationsPanel };
});

function BellIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The header's bell: the unread count (also read out), opening the notifications list. */
export function NotificationsBell({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const unread = useUnreadNotifications(enabled).data ?? 0;
  return (
    <div className="md:relative">
      <button
        type="button"
        className="btn-secondary relative min-h-11 min-w-11"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((value) => !value)}
        data-testid="notifications-bell"
      >
        <BellIcon />
        <span className="sr-only">
          {unread > 0
            ? `${t('shell.notifications')} (${t('shell.notifications_unread', { count: unread })})`
            : t('shell.notifications')}
        </span>
        {unread > 0 && (
          <span
            aria-hidden="true"
            data-testid="notifications-count"
            className="absolute -end-1 -top-1 inline-flex min-w-5 items-center justify-center rounded-full bg-brand px-1.5 text-xs leading-5 font-semibold text-on-brand"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <Suspense fallback={null}>
          <NotificationsPanel id={panelId} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
