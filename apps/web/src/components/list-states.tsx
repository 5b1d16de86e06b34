import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageKey } from '../lib/error-messages.ts';
import { FormAlert } from './form/field.tsx';

/** A list that failed to load: why, and a way to try again. */
export function LoadError({ error, retryLabel, onRetry }: { error: unknown; retryLabel: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-start gap-3">
      <FormAlert>{t(errorMessageKey(error))}</FormAlert>
      <button type="button" className="btn-secondary" onClick={onRetry}>
        {retryLabel}
      </button>
    </div>
  );
}

/** A list's empty state: what is missing and, when the reader may act, the action that fills it. */
export function EmptyState({ title, text, action }: { title: string; text: string; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-2xl border border-dashed border-border p-6">
      <h3 className="text-lg font-semibold">{title}</h3>
      <p className="text-muted">{text}</p>
      {action}
    </div>
  );
}

/** Cards being loaded: their outline, announced once to screen readers as loading. */
export function SkeletonCards({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <div role="status">
      <span className="sr-only">{t('loading.loading')}</span>
      <ul aria-hidden="true" className="grid gap-4 lg:grid-cols-2">
        {Array.from({ length: count }, (_, i) => (
          <li key={i} className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4">
            <span className="flex gap-3">
              <span className="size-11 shrink-0 animate-pulse rounded-lg bg-surface-muted" />
              <span className="flex-1 space-y-2">
                <span className="block h-4 w-3/4 animate-pulse rounded bg-surface-muted" />
                <span className="block h-3 w-1/2 animate-pulse rounded bg-surface-muted" />
              </span>
            </span>
            <span className="block h-10 animate-pulse rounded bg-surface-muted" />
          </li>
        ))}
      </ul>
    </div>
  );
}
