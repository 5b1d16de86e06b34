import { useTranslation } from 'react-i18next';
import { applyUpdate, postponeUpdate, useUpdateWaiting } from '../lib/service-worker.ts';

/**
 * Announces a new version that is installed and waiting. Nothing reloads until the person presses
 * Refresh, so a form is never taken from under their fingers.
 */
export function UpdatePrompt() {
  const { t } = useTranslation();
  const waiting = useUpdateWaiting();
  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-0 z-50 p-3">
      {waiting && (
        <div className="pointer-events-auto mx-auto flex max-w-xl flex-wrap items-center gap-3 rounded-xl border border-border bg-surface p-4 shadow-lg">
          <p className="min-w-0 flex-1 break-words">{t('offline.update.ready')}</p>
          <div className="flex gap-2">
            <button type="button" className="btn-secondary" onClick={postponeUpdate}>
              {t('offline.update.later')}
            </button>
            <button type="button" className="btn-primary" onClick={applyUpdate}>
              {t('offline.update.refresh')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
