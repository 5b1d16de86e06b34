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
