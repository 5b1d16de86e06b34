import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COPIED_FEEDBACK_MS } from '@kaminuza/shared';

/** The submission reference, large, with a Copy button that says Copied! for 2 seconds (spec section 2). */
export function CopyReference({ reference }: { reference: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const text = useRef<HTMLElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(reference);
    } catch {
      // Clipboard refused (insecure context or permission): select the reference to copy by hand.
      const selection = window.getSelection();
      if (text.current && selection) selection.selectAllChildren(text.current);
      return;
    }
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
  };

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
        onClick={() => void copy()}
        aria-label={copied ? undefined : t('applications.submitted.copy_label')}
      >
        <span aria-live="polite">{copied ? t('applications.submitted.copied') : t('applications.submitted.copy')}</span>
      </button>
    </div>
  );
}
