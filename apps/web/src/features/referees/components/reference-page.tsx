import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Language, ReferenceRequest } from '@kaminuza/shared';
import { ApiError, hasReason } from '../../../lib/api-client.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { isLanguage } from '../../../lib/languages.ts';
import { useOnline } from '../../../lib/use-online.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { useReference } from '../api/reference.ts';
import { ReferenceForm } from './reference-form.tsx';

/** The language the referee last chose on a reference page in this tab, kept over a reload. */
const CHOSEN_LANGUAGE_KEY = 'kaminuza-reference-language';

function readChosen(): string | null {
  try {
    return sessionStorage.getItem(CHOSEN_LANGUAGE_KEY);
  } catch {
    return null;
  }
}

function storeChosen(language: string) {
  try {
    sessionStorage.setItem(CHOSEN_LANGUAGE_KEY, language);
  } catch {
    // Storage refused: the choice holds until the page is reloaded.
  }
}

/**
 * The page opens in the language the applicant chose for the referee, once, when the request arrives;
 * after that the language switcher decides (and a reload keeps what was chosen in this tab).
 */
function useRefereeLanguage(language: Language | undefined) {
  const { i18n } = useTranslation();
  const applied = useRef(false);
  useEffect(() => {
    if (!language || applied.current) return;
    applied.current = true;
    const chosen = readChosen();
    const wanted = isLanguage(chosen) ? chosen : language;
    if (i18n.resolvedLanguage !== wanted) void i18n.changeLanguage(wanted);
  }, [i18n, language]);
  useEffect(() => {
    const remember = (next: string) => {
      if (applied.current) storeChosen(next);
    };
    i18n.on('languageChanged', remember);
    return () => i18n.off('languageChanged', remember);
  }, [i18n]);
}

/** A whole-page answer of the link: what happened, in a heading that takes focus so it is read first. */
export function LinkState({
  title,
  tone = 'neutral',
  children,
}: {
  title: string;
  tone?: 'neutral' | 'danger' | 'success';
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const border = tone === 'danger' ? 'border-danger' : tone === 'success' ? 'border-success' : 'border-border';
  return (
    <div className={`flex flex-col gap-3 rounded-2xl border-2 ${border} bg-surface p-5 sm:p-6`}>
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold tracking-tight focus:outline-none">
        {tone === 'success' && (
          <span aria-hidden="true" className="me-2 text-success">
            ✓
          </span>
        )}
        {title}
      </h1>
      {children}
    </div>
  );
}

/** Why the request could not be read: the link's refusals, the rate limit, the connection, anything else. */
function LoadFailure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const retry = (
    <button type="button" className="btn-secondary self-start" onClick={onRetry}>
      {t('referees.page.retry')}
    </button>
  );
  if (hasReason(error, 'reference_link_used')) {
    return (
      <LinkState title={t('referees.page.used_title')}>
        <p>{t('referees.errors.link_used')}</p>
      </LinkState>
    );
  }
  if (hasReason(error, 'reference_link_expired')) {
    return (
      <LinkState title={t('referees.page.expired_title')} tone="danger">
        <p>{t('referees.errors.link_expired')}</p>
        <p className="text-muted">{t('referees.page.expired_hint')}</p>
      </LinkState>
    );
  }
  if (error instanceof ApiError && (error.status === 'NOT_FOUND' || error.status === 'INVALID_ARGUMENT')) {
    return (
      <LinkState title={t('referees.page.invalid_title')} tone="danger">
        <p>{t('referees.errors.link_invalid')}</p>
        <p className="text-muted">{t('referees.page.invalid_hint')}</p>
      </LinkState>
    );
  }
  if (error instanceof ApiError && error.status === 'RESOURCE_EXHAUSTED') {
    return (
      <LinkState title={t('referees.page.rate_limited_title')}>
        <p>{t('referees.page.rate_limited_text')}</p>
        {retry}
      </LinkState>
    );
  }
  return (
    <LinkState title={t('referees.page.error_title')} tone="danger">
      <p role="alert">{t(errorMessageKey(error))}</p>
      {retry}
    </LinkState>
  );
}

function Offline() {
  const { t } = useTranslation();
  return (
    <LinkState title={t('referees.page.offline_title')}>
      <p>{t('referees.page.offline_text')}</p>
    </LinkState>
  );
}

function Thanks({ request }: { request: ReferenceRequest }) {
  const { t } = useTranslation();
  return (
    <LinkState title={t('referees.page.thanks_title')} tone="success">
      <p role="status">
        {t('referees.page.thanks_text', { applicant: request.applicant_name, institution: request.institution_name })}
      </p>
      <p className="text-muted">{t('referees.page.thanks_closed')}</p>
    </LinkState>
  );
}

/**
 * /reference/{token}: the page a referee's email link opens, without an account. It says who asks, for
 * what and whether the applicant may read the letter, takes the institution's questions and the letter
 * (typed, a PDF, or both) and sends them once; the link then opens nothing more.
 */
export function ReferencePage() {
  const { token = '' } = useParams();
  const online = useOnline();
  const [sent, setSent] = useState<ReferenceRequest | null>(null);
  const reference = useReference(token, sent === null);
  useRefereeLanguage(reference.data?.language);

  let content: ReactNode;
  if (sent) content = <Thanks request={sent} />;
  else if (reference.data) content = <ReferenceForm token={token} request={reference.data} onSent={setSent} />;
  else if (reference.isError)
    content = (
      <LoadFailure
        error={reference.error}
        onRetry={() => {
          void reference.refetch();
        }}
      />
    );
  // Without a connection the query waits, and loads by itself when it returns.
  else if (!online || reference.fetchStatus === 'paused') content = <Offline />;
  else content = <Spinner className="py-16" />;

  return <div className="mx-auto flex w-full max-w-2xl min-w-0 flex-col gap-6 px-4 py-6 sm:py-10">{content}</div>;
}
