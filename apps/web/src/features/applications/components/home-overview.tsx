import { useId, useMemo } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ApplicationSummary, StudentDecision } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { EmptyState, LoadError, SkeletonCards } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useApplicationCards } from '../api/list-applications.ts';
import { useDecisions } from '../api/list-decisions.ts';
import { useApplicationFormats } from './formats.ts';

/** How many released decisions the home screen lists; the rest are a click away in the applications area. */
const LATEST_DECISIONS = 5;

type HomeState = 'in_progress' | 'submitted' | 'under_review' | StudentDecision['state'];

const BADGE: Record<HomeState, string> = {
  in_progress: 'border-accent text-fg',
  submitted: 'border-border text-muted',
  under_review: 'border-accent text-fg',
  accepted: 'border-success text-success',
  rejected: 'border-border text-fg',
  waitlisted: 'border-accent text-fg',
};

function StateBadge({ state }: { state: HomeState }) {
  const { t } = useTranslation();
  return (
    <span className={`h-fit shrink-0 rounded-full border px-2.5 py-0.5 text-sm font-medium ${BADGE[state]}`}>
      {t(`home.states.${state}`)}
    </span>
  );
}

/** The student's answer to an offer, or that it is awaited; nothing for other decisions. */
function ResponseLine({ decision }: { decision: StudentDecision }) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  if (decision.state !== 'accepted') return null;
  if (decision.response && decision.response_date) {
    return (
      <p className="text-sm font-medium">
        {t(`home.response_${decision.response}`, { date: format.date(decision.response_date) })}
      </p>
    );
  }
  return <p className="text-sm font-medium text-success">{t('home.awaiting_response')}</p>;
}

function ApplicationItem({
  application,
  decision,
}: {
  application: ApplicationSummary;
  decision: StudentDecision | undefined;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const state: HomeState =
    application.status === 'in_progress'
      ? 'in_progress'
      : (decision?.state ?? (application.under_review ? 'under_review' : 'submitted'));
  const partnerId = application.partner_id;
  const [to, label] =
    state === 'in_progress'
      ? [paths.student.areaStep('form', partnerId), t('home.continue')]
      : decision
        ? [paths.student.areaStep('decision', partnerId), t('home.view_decision')]
        : [paths.student.areaStep('submitted', partnerId), t('home.view_submission')];
  return (
    <li
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col gap-2 rounded-xl border border-border bg-surface p-4"
    >
      <div className="flex min-w-0 items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={headingId} className="font-semibold break-words">
            {application.partner_name}
          </h3>
          <p className="text-sm break-words text-muted">{application.program_name}</p>
        </div>
        <StateBadge state={state} />
      </div>
      {state === 'in_progress' && (
        <>
          <progress
            className="h-2 w-full overflow-hidden rounded-full accent-brand"
            max={100}
            value={application.progress_percentage}
            aria-label={t('home.progress_label', { name: application.partner_name })}
          />
          <p className="text-sm text-muted">{t('home.progress', { percent: application.progress_percentage })}</p>
        </>
      )}
      {decision && <ResponseLine decision={decision} />}
      <Link to={to} className="link mt-auto w-fit text-sm">
        {label}
        <span className="sr-only">, {application.partner_name}</span>
      </Link>
    </li>
  );
}

function DecisionItem({ decision }: { decision: StudentDecision }) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  return (
    <li className="flex min-w-0 flex-wrap items-center justify-between gap-3 rounded-xl border border-border bg-surface p-4">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-semibold break-words">{decision.university_name}</p>
        <p className="text-sm break-words text-muted">
          {decision.program_name} · {t('home.released_on', { date: format.date(decision.released_at) })}
        </p>
        <ResponseLine decision={decision} />
      </div>
      <div className="flex items-center gap-3">
        <StateBadge state={decision.state} />
        <Link to={paths.student.areaStep('decision', decision.partner_id)} className="btn-secondary">
          {t('home.view_decision')}
          <span className="sr-only">, {decision.university_name}</span>
        </Link>
      </div>
    </li>
  );
}

/**
 * The home screen's view of the student's applications: where each one stands (in progress, submitted,
 * then the released decision and the student's answer), and the latest decisions with a way to each.
 */
export function HomeOverview() {
  const { t } = useTranslation();
  const applicationsId = useId();
  const decisionsId = useId();
  const cards = useApplicationCards();
  const decisions = useDecisions();
  const byApplication = useMemo(
    () => new Map((decisions.data ?? []).map((decision) => [decision.application_id, decision])),
    [decisions.data],
  );
  const applications = (cards.data ?? []).flatMap((card) => (card.application ? [card.application] : []));

  return (
    <div className="mt-8 flex flex-col gap-8">
      <section aria-labelledby={applicationsId} className="flex flex-col gap-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id={applicationsId} className="text-xl font-bold">
            {t('home.applications_title')}
          </h2>
          <Link to={paths.student.applications} className="link text-sm">
            {t('home.all_applications')}
          </Link>
        </div>
        {cards.isPending ? (
          <SkeletonCards count={2} />
        ) : cards.isError ? (
          <LoadError error={cards.error} retryLabel={t('home.retry')} onRetry={() => void cards.refetch()} />
        ) : applications.length === 0 ? (
          <EmptyState
            title={t('home.empty_title')}
            text={t('home.empty_text')}
            action={
              <Link to={paths.student.partners} className="btn-primary">
                {t('home.explore')}
              </Link>
            }
          />
        ) : (
          <ul className="grid gap-4 lg:grid-cols-2">
            {applications.map((application) => (
              <ApplicationItem
                key={application.id}
                application={application}
                decision={byApplication.get(application.id)}
              />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby={decisionsId} className="flex flex-col gap-4">
        <h2 id={decisionsId} className="text-xl font-bold">
          {t('home.decisions_title')}
        </h2>
        {decisions.isPending ? (
          <Spinner />
        ) : decisions.isError ? (
          <LoadError error={decisions.error} retryLabel={t('home.retry')} onRetry={() => void decisions.refetch()} />
        ) : decisions.data.length === 0 ? (
          <p className="text-muted">{t('home.no_decisions')}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {decisions.data.slice(0, LATEST_DECISIONS).map((decision) => (
              <DecisionItem key={decision.id} decision={decision} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
