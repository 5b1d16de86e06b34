import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_LOADING_STEP_INTERVAL_MS } from '@kaminuza/shared';

const STEPS = [
  'loading.admin.connecting',
  'loading.admin.fetching_universities',
  'loading.admin.loading_applications',
  'loading.admin.preparing_dashboard',
] as const;
const CARDS = ['loading.admin.universities', 'loading.admin.applications', 'loading.admin.analytics'] as const;

/** The admin dashboard's loading screen: four steps advancing every 1.8 seconds and three cards. */
export function AdminLoadingScreen() {
  const { t } = useTranslation();
  const [step, setStep] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setStep((s) => Math.min(s + 1, STEPS.length - 1)), ADMIN_LOADING_STEP_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <div role="status" aria-live="polite" className="mx-auto flex max-w-3xl flex-col gap-6 p-6">
      <span
        aria-hidden="true"
        className="mx-auto size-10 animate-spin rounded-full border-4 border-border border-t-brand"
      />
      <ol className="flex flex-col gap-2" aria-label={t('loading.admin.steps_label')}>
        {STEPS.map((key, i) => (
          <li
            key={key}
            aria-current={i === step ? 'step' : undefined}
            className={i <= step ? 'font-semibold text-fg' : 'text-muted'}
          >
            <span aria-hidden="true">{i < step ? '✓ ' : i === step ? '… ' : '○ '}</span>
            {t(key)}
          </li>
        ))}
      </ol>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        {CARDS.map((key) => (
          <div key={key} className="rounded-xl border border-border bg-surface p-4">
            <p className="font-semibold">{t(key)}</p>
            <div aria-hidden="true" className="mt-3 h-6 w-2/3 animate-pulse rounded bg-surface-muted" />
          </div>
        ))}
      </div>
    </div>
  );
}
