import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

function subscribe(listener: () => void) {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** Says so across the whole app while the browser has no connection. Rendered as online on the server. */
export function OfflineBanner() {
  const { t } = useTranslation();
  const offline = useSyncExternalStore(
    subscribe,
    () => !navigator.onLine,
    () => false,
  );
  return (
    // A live region without the status role: always there (so the change is announced), it is not one more
    // "status" beside the screens' own.
    <div aria-live="polite">
      {offline && (
        <p className="border-b border-accent bg-surface-muted px-4 py-2 text-center text-sm text-fg">
          {t('offline.banner')}
        </p>
      )}
    </div>
  );
}
