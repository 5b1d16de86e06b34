import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { SubmissionReceipt } from '@kaminuza/shared';
import { useCopy } from '../../../lib/use-copy.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

/** The submission made: its reference to copy and pass on, what was submitted, and a way to start again. */
export function ReceiptPanel({
  ref,
  receipt,
  email,
  onAnother,
}: {
  ref: Ref<HTMLHeadingElement>;
  receipt: SubmissionReceipt;
  email: string;
  onAnother: () => void;
}) {
  const { t, i18n } = useTranslation();
  const r = (key: string, values: Record<string, string> = {}) => t(`on_behalf.receipt.${key}`, values);
  const { copied, refused, copy } = useCopy();
  const submittedAt = dateTimeFormat(i18n.resolvedLanguage ?? 'en', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(receipt.submitted_at));
  const rows: Array<[string, string]> = [
    [r('applicant'), receipt.applicant_name],
    [r('program'), receipt.program_name],
    [r('campus'), receipt.campus_name],
    [r('cycle'), receipt.cycle_name],
    [r('submitted_at'), submittedAt],
  ];

  return (
    <section
      aria-labelledby="on-behalf-receipt"
      className="flex flex-col gap-5 rounded-2xl border border-border bg-surface p-4 sm:p-6"
    >
      <div className="flex flex-col gap-2">
        <h2 id="on-behalf-receipt" ref={ref} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
          {r('title')}
        </h2>
        <p className="break-words">{r('text', { email })}</p>
      </div>
      <div className="flex flex-col gap-2">
        <p id="on-behalf-reference" className="font-medium">
          {r('reference')}
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <output
            aria-labelledby="on-behalf-reference"
            className="rounded-lg bg-surface-muted px-3 py-2 font-mono text-lg font-semibold break-all select-all"
          >
            {receipt.reference}
          </output>
          <button type="button" className="btn-secondary" onClick={() => void copy(receipt.reference)}>
            {r('copy')}
          </button>
          <span role="status" className="text-sm font-medium">
            {copied ? r('copied') : refused ? r('copy_failed') : ''}
          </span>
        </div>
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-[max-content_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted">{label}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-muted">{r('unpaid')}</p>
      <div>
        <button type="button" className="btn-primary" onClick={onAnother}>
          {r('another')}
        </button>
      </div>
    </section>
  );
}
