import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../../lib/use-copy.ts';

/** The submission reference, large, with a Copy button that says Copied! for 2 seconds (spec section 2). */
export function CopyReference({ reference }: { reference: string }) {
  const { t } = useTranslation();
  const { copied, copy } = useCopy();
  const text = useRef<HTMLElement>(null);

  return (
    <div className="flex flex-wrap items-center gap-3 rounded-xl border border-border bg-surface p-4">
      <div className="min-w-0 flex-1">
        <p id="submission-reference-label" className="text-sm text-muted">
          {t('applications.submitted.reference')}
        </p>
        <code
          ref={text}
          aria-labelledby="submission-reference-label"
          className="block font-mono text-2xl font-bold tracking-wider break-all sm:text-3xl"
        >
          {reference}
        </code>
      </div>
      <button
        type="button"
        className="btn-secondary"
        onClick={() => void copy(reference, text.current)}
        aria-label={copied ? undefined : t('applications.submitted.copy_label')}
      >
        <span aria-live="polite">{copied ? t('applications.submitted.copied') : t('applications.submitted.copy')}</span>
      </button>
    </div>
  );
}
