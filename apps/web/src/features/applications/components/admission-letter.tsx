import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdmissionLetterIssued } from '@kaminuza/shared';
import { FormAlert } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { CachedNotice } from '../../../components/cached-notice.tsx';
import { applicationPath } from '../api/keys.ts';
import { useLetter } from '../api/get-letter.ts';
import { useApplicationFormats } from './formats.ts';
import { QrCode } from './qr-code.tsx';

/**
 * The letter as issued: paper-like (black on white in every theme), and the only thing printed while
 * it is shown (the `data-print-letter` rules in styles.css).
 */
export function AdmissionLetter({ letter }: { letter: AdmissionLetterIssued }) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const titleId = useId();
  return (
    <article
      data-print-letter=""
      aria-labelledby={titleId}
      className="mx-auto flex w-full max-w-[210mm] min-w-0 flex-col gap-5 rounded-xl border border-neutral-300 bg-white p-5 text-neutral-950 shadow-sm sm:p-10"
    >
      <header className="flex flex-wrap items-start justify-between gap-4 border-b border-neutral-300 pb-4">
        <div className="flex min-w-0 items-center gap-3">
          {letter.logo_url && (
            <img
              src={letter.logo_url}
              alt={t('decisions.letter_view.logo_alt', { name: letter.university_name })}
              className="h-14 w-auto max-w-40 object-contain"
            />
          )}
          <p className="text-lg font-bold break-words">{letter.university_name}</p>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-sm">
          <dt className="text-neutral-600">{t('decisions.letter_view.date')}</dt>
          <dd>{format.longDay(letter.issued_on)}</dd>
          <dt className="text-neutral-600">{t('decisions.letter_view.reference')}</dt>
          <dd className="font-mono break-all">{letter.reference}</dd>
          {letter.cycle_name && (
            <>
              <dt className="text-neutral-600">{t('decisions.letter_view.cycle')}</dt>
              <dd className="break-words">{letter.cycle_name}</dd>
            </>
          )}
        </dl>
      </header>

      <p className="font-semibold break-words">{letter.student_name}</p>
      <h3 id={titleId} className="text-xl font-bold">
        {t('decisions.letter_view.title')}
      </h3>
      <div className="flex flex-col gap-3 leading-relaxed">
        {letter.paragraphs.map((paragraph, index) => (
          // Paragraphs have no identity of their own, and an issued letter never changes.
          <p key={index} className="whitespace-pre-line break-words">
            {paragraph}
          </p>
        ))}
      </div>

      {letter.conditions && letter.conditions.length > 0 && (
        <section aria-labelledby={`${titleId}-conditions`} className="flex flex-col gap-2">
          <h4 id={`${titleId}-conditions`} className="font-semibold">
            {t('decisions.letter_view.conditions')}
          </h4>
          <ol className="flex list-decimal flex-col gap-1 pl-5">
            {letter.conditions.map((condition, index) => (
              <li key={index} className="break-words">
                {condition}
              </li>
            ))}
          </ol>
        </section>
      )}
      {letter.reply_by_on && (
        <p className="font-semibold">
          {t('decisions.letter_view.reply_by', { date: format.longDay(letter.reply_by_on) })}
        </p>
      )}

      <div className="flex flex-col gap-1">
        {letter.signature_image && (
          <img
            src={letter.signature_image}
            alt={t('decisions.letter_view.signature_alt', { name: letter.signature_name })}
            className="h-16 w-auto max-w-56 object-contain object-left"
          />
        )}
        <p className="font-semibold break-words">{letter.signature_name}</p>
        <p className="break-words">{letter.signature_title}</p>
      </div>

      <footer className="flex items-center gap-4 border-t border-neutral-300 pt-4 text-sm">
        <QrCode value={letter.verify_url} label={t('decisions.letter_view.qr_label')} className="size-24 shrink-0" />
        <div className="flex min-w-0 flex-col gap-1">
          <p>
            {t('decisions.letter_view.verification')}{' '}
            <span className="font-mono font-semibold">{letter.verification_code}</span>
          </p>
          <p className="[overflow-wrap:anywhere]">
            {t('decisions.letter_view.verify_hint', { url: letter.verify_url })}
          </p>
        </div>
      </footer>
    </article>
  );
}

/** The decision's letter inside the decision view: read on demand, printable, closable. */
export function LetterPanel({ applicationId, onClose }: { applicationId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const query = useLetter(applicationId);
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // The panel opens below the decision: the reader is taken to it, not left at the button.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} ref={heading} tabIndex={-1} className="text-xl font-bold focus:outline-none">
          {t('decisions.letter_view.heading')}
        </h2>
        <div className="flex flex-wrap gap-2">
          {query.isSuccess && (
            <button type="button" className="btn-primary" onClick={() => window.print()}>
              {t('decisions.letter_view.print')}
            </button>
          )}
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t('decisions.letter_view.close')}
          </button>
        </div>
      </div>
      {query.isPending ? (
        <Spinner />
      ) : query.isError ? (
        <div className="flex flex-col items-start gap-3">
          <FormAlert>{t('decisions.errors.letter_failed')}</FormAlert>
          <button type="button" className="btn-secondary" onClick={() => void query.refetch()}>
            {t('decisions.view.retry')}
          </button>
        </div>
      ) : (
        <>
          <CachedNotice path={`${applicationPath(applicationId)}/decision/letter`} />
          <AdmissionLetter letter={query.data} />
        </>
      )}
    </section>
  );
}
