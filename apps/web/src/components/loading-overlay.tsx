import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOADING_OVERLAY_INTERVAL_MS } from '@kaminuza/shared';

const MESSAGES = ['loading.loading', 'loading.preparing', 'loading.almost_there', 'loading.just_a_moment'] as const;

/** Full-screen overlay rotating its four messages every 3 seconds. */
export function LoadingOverlay() {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setIndex((i) => (i + 1) % MESSAGES.length), LOADING_OVERLAY_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-bg/95"
    >
      <span aria-hidden="true" className="size-10 animate-spin rounded-full border-4 border-border border-t-brand" />
      <p className="text-lg font-medium">{t(MESSAGES[index] ?? MESSAGES[0])}</p>
    </div>
  );
}
