import { useTranslation } from 'react-i18next';

/** A spinner with the text Loading, announced to screen readers. */
export function Spinner({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      aria-live="polite"
      className={`flex items-center justify-center gap-3 p-6 text-muted ${className}`}
    >
      <span aria-hidden="true" className="size-6 animate-spin rounded-full border-3 border-border border-t-brand" />
      <span>{t('loading.loading')}</span>
    </div>
  );
}
