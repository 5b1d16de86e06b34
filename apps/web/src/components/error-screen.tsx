import { useTranslation } from 'react-i18next';
import { useCopy } from '../lib/use-copy.ts';

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ? `${error.message}\n\n${error.stack}` : error.message;
  if (typeof error === 'object' && error !== null && 'statusText' in error) {
    const { status, statusText } = error as { status?: number; statusText?: string };
    return `${status ?? ''} ${statusText ?? ''}`.trim();
  }
  return String(error);
}

/** The app's error screen: what happened, details on demand, reload, and a copy for support. */
export function ErrorScreen({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const { copied, copy } = useCopy();
  const details = describeError(error);

  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <div role="alert" className="w-full max-w-xl rounded-2xl border border-border bg-surface p-6 shadow-sm">
        <h1 className="text-2xl font-bold">{t('error.title')}</h1>
        <p className="mt-2 text-muted">{t('error.text')}</p>
        <details className="mt-4 rounded-lg bg-surface-muted p-3">
          <summary className="cursor-pointer font-medium">{t('error.details')}</summary>
          <pre id="error-details-text" className="mt-2 max-h-60 overflow-auto text-xs whitespace-pre-wrap">
            {details}
          </pre>
        </details>
        <div className="mt-6 flex flex-wrap gap-3">
          <button type="button" className="btn-primary" onClick={() => window.location.reload()}>
            {t('error.reload')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            onClick={() => void copy(details, document.getElementById('error-details-text'))}
          >
            <span aria-live="polite">{copied ? t('error.copied') : t('error.copy')}</span>
          </button>
        </div>
      </div>
    </main>
  );
}
