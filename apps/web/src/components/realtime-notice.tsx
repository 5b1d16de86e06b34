import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RealtimeState } from '../lib/realtime.ts';

/** A short drop (a server restart, a network switch) reconnects unnoticed; a longer one is told. */
export const NOTICE_DELAY_MS = 4_000;

/**
 * The spec's "Real-time messaging may not work properly" while the socket has been down for a few
 * seconds. Pages still work: they load on navigation and catch up when the socket is back.
 */
export function RealtimeNotice({ state }: { state: RealtimeState }) {
  // The outage (identified by when it began) that has lasted past the delay.
  const [lasting, setLasting] = useState<number | null>(null);
  const { downSince } = state;
  useEffect(() => {
    if (downSince === null) return;
    const timer = setTimeout(() => setLasting(downSince), Math.max(0, downSince + NOTICE_DELAY_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [downSince]);
  const shown = state.status !== 'connected' && downSince !== null && lasting === downSince;
  // The live region stays in the page so screen readers announce the text when it appears.
  return <div role="status">{shown && <NoticeText />}</div>;
}

/** The text is in the feature texts, fetched only when the notice first shows. */
function NoticeText() {
  const { t, ready } = useTranslation(['translation', 'app']);
  if (!ready) return null;
  return (
    <p className="border-b border-border bg-surface-muted px-4 py-2 text-sm font-medium">
      {t('support.errors.realtime_unavailable')}
    </p>
  );
}
