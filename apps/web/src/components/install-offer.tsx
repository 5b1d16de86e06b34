import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissInstall, install, useInstallAvailable } from '../lib/install-prompt.ts';

/** Offers to install the app, where the browser allows it and the person has not just said no. */
export function InstallOffer() {
  const { t } = useTranslation();
  const available = useInstallAvailable();
  const titleId = useId();
  if (!available) return null;
  return (
    <aside
      aria-labelledby={titleId}
      className="flex flex-wrap items-center gap-3 rounded-xl border border-border bg-surface p-4"
    >
      <div className="min-w-0 flex-1">
        <h2 id={titleId} className="font-semibold">
          {t('offline.install.title')}
        </h2>
        <p className="text-sm text-muted">{t('offline.install.text')}</p>
      </div>
      <div className="flex gap-2">
        <button type="button" className="btn-secondary" onClick={() => dismissInstall()}>
          {t('offline.install.later')}
        </button>
        <button type="button" className="btn-primary" onClick={() => void install()}>
          {t('offline.install.install')}
        </button>
      </div>
    </aside>
  );
}
