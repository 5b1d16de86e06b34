import { useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ApplicationCard, StudentDecision } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { EmptyState, LoadError, SkeletonCards } from '../../../components/list-states.tsx';
import { CachedNotice } from '../../../components/cached-notice.tsx';
import { InstallOffer } from '../../../components/install-offer.tsx';
import { useApplicationCards } from '../api/list-applications.ts';
import { useDecisions } from '../api/list-decisions.ts';
import { displayName } from '../../../lib/intl.ts';
import { DiscardDraftButton, discardedName } from './discard-draft.tsx';
import { useApplicationFormats } from './formats.ts';
import { InstitutionLogo } from '../../../components/institution-logo.tsx';

const BADGE: Record<ApplicationCard['state'], string> = {
  apply: 'border-border text-muted',
  in_progress: 'border-accent text-fg',
  applied: 'border-success text-success',
};

const DECISION_BADGE: Record<StudentDecision['state'], string> = {
  accepted: 'border-success text-success',
  rejected: 'border-border text-fg',
  waitlisted: 'border-accent text-fg',
};

function Card({ card, decision }: { card: ApplicationCard; decision: StudentDecision | undefined }) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const application = card.application;
  const headingId = useId();
  const country = card.country ? displayName(format.lang, 'region', card.country) : null;
  return (
    <li
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-border bg-surface p-4"
    >
      <div className="flex min-w-0 gap-3">
        <InstitutionLogo
          src={card.partner_logo_url}
          name={card.partner_name}
          className="size-11 rounded-lg"
          letterClassName="bg-surface-muted text-lg"
        />
        <div className="min-w-0 flex-1">
          <h2 id={headingId} className="font-semibold break-words">
            <Link to={paths.student.university(card.partner_id)} className="link">
              {card.partner_name}
            </Link>
          </h2>
          {(card.city || country) && (
            <p className="text-sm break-words text-muted">{[card.city, country].filter(Boolean).join(', ')}</p>
          )}
        </div>
        <span className={`h-fit shrink-0 rounded-full border px-2.5 py-0.5 text-sm font-medium ${BADGE[card.state]}`}>
          {t(`applications.area.states.${card.state}`)}
        </span>
      </div>

      {card.state === 'in_progress' && application && (
        <div className="flex flex-col gap-1.5">
          <p className="text-sm break-words">{application.program_name}</p>
          <progress
            className="h-2 w-full overflow-hidden rounded-full accent-brand"
            max={100}
            value={application.progress_percentage}
            aria-label={t('applications.area.progress_label', { name: card.partner_name })}
          />
          <p className="text-sm text-muted">
            {t('applications.area.progress', { percent: application.progress_percentage })}
            {application.last_saved_at &&
              ` · ${t('applications.area.last_saved', { date: format.moment(application.last_saved_at) })}`}
          </p>
        </div>
      )}
      {card.state === 'applied' && application && (
        <p className="text-sm break-words">
          {application.program_name}
          {application.reference && (
            <>
              {' · '}
              {t('applications.area.reference')}{' '}
              <span className="font-mono font-semibold">{application.reference}</span>
            </>
          )}
        </p>
      )}
      {decision && (
        <p>
          <span
            className={`inline-block rounded-full border px-2.5 py-0.5 text-sm font-medium ${DECISION_BADGE[decision.state]}`}
          >
            {t('applications.area.decision', { state: t(`decisions.view.states.${decision.state}`) })}
          </span>
        </p>
      )}

      <div className="mt-auto flex flex-wrap gap-2">
        {card.state === 'apply' && (
          <Link to={paths.student.application(card.partner_id)} className="btn-primary">
            {t('applications.area.apply')}
            <span className="sr-only">, {card.partner_name}</span>
          </Link>
        )}
        {card.state === 'in_progress' && (
          <Link to={paths.student.areaStep('form', card.partner_id)} className="btn-primary">
            {t('applications.area.continue')}
            <span className="sr-only">, {card.partner_name}</span>
          </Link>
        )}
        {/* A paid draft is kept: the api refuses to discard it. */}
        {card.state === 'in_progress' && application && !application.paid && (
          <DiscardDraftButton
            applicationId={application.id}
            partnerId={card.partner_id}
            partnerName={card.partner_name}
            programName={application.program_name}
          />
        )}
        {card.state === 'applied' && (
          <Link to={paths.student.areaStep('submitted', card.partner_id)} className="btn-secondary">
            {t('applications.area.view')}
            <span className="sr-only">, {card.partner_name}</span>
          </Link>
        )}
        {decision && (
          <Link to={paths.student.areaStep('decision', card.partner_id)} className="btn-primary">
            {t('applications.area.view_decision')}
            <span className="sr-only">, {card.partner_name}</span>
          </Link>
        )}
      </div>
    </li>
  );
}

/** /application: the student's applications, one card per university they added or applied to. */
export function ApplicationsPage() {
  const { t, i18n } = useTranslation();
  const searchId = useId();
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search);
  const { data, isPending, isError, error, refetch } = useApplicationCards();
  const location = useLocation();
  const discarded = discardedName(location.state);
  // A live region announces what changes in it, not what it holds when it appears: the message goes in
  // once the page is shown (after each discard, the same name included).
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setNotice(discarded), 50);
    return () => clearTimeout(timer);
  }, [discarded, location.key]);
  // A decision only adds a badge to its card: the cards stand without it if the list fails to load.
  const decisions = useDecisions();
  const byApplication = useMemo(
    () => new Map((decisions.data ?? []).map((decision) => [decision.application_id, decision])),
    [decisions.data],
  );
  const shown = useMemo(() => {
    const needle = query.trim().toLocaleLowerCase(i18n.language);
    if (!data || !needle) return data ?? [];
    return data.filter((card) => card.partner_name.toLocaleLowerCase(i18n.language).includes(needle));
  }, [data, query, i18n.language]);

  return (
    <section className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight">{t('applications.area.title')}</h1>
          <p className="mt-1 text-muted">{t('applications.area.lead')}</p>
        </div>
        <Link to={paths.student.partners} className="btn-primary">
          {t('applications.area.new')}
        </Link>
      </header>

      <CachedNotice path="/applications" />
      {/* Installing is worth offering once an application is under way: it is what they come back to. */}
      {data?.some((card) => card.state === 'in_progress') && <InstallOffer />}

      <p role="status" className={notice ? 'rounded-xl border border-success bg-surface p-4' : 'sr-only'}>
        {notice && t('applications.discard.done', { partner: notice })}
      </p>

      {isPending ? (
        <SkeletonCards count={3} />
      ) : isError ? (
        <LoadError error={error} retryLabel={t('applications.retry')} onRetry={() => void refetch()} />
      ) : data.length === 0 ? (
        <EmptyState
          title={t('applications.area.empty_title')}
          text={t('applications.area.empty_text')}
          action={
            <Link to={paths.student.partners} className="btn-primary">
              {t('applications.links.explore')}
            </Link>
          }
        />
      ) : (
        <>
          <div role="search" className="flex min-w-0 flex-col gap-1.5">
            <label htmlFor={searchId} className="font-medium">
              {t('applications.area.search_label')}
            </label>
            <input
              id={searchId}
              type="search"
              className="field-input"
              placeholder={t('applications.area.search_placeholder')}
              value={search}
              maxLength={100}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
          <p role="status" className="text-lg font-semibold">
            {t('applications.area.results', { count: shown.length })}
          </p>
          {shown.length > 0 ? (
            <ul className="grid gap-4 lg:grid-cols-2">
              {shown.map((card) => (
                <Card
                  key={card.partner_id}
                  card={card}
                  decision={card.application ? byApplication.get(card.application.id) : undefined}
                />
              ))}
            </ul>
          ) : (
            <p className="text-muted">{t('applications.area.no_match')}</p>
          )}
        </>
      )}
    </section>
  );
}
