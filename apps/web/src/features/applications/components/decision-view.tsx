import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ApplyContext, DecisionResponseInput, StudentDecision } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormAlert } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { CachedNotice } from '../../../components/cached-notice.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { lastMinuteBefore } from '../../../lib/intl.ts';
import { useApplyContext } from '../api/get-apply-context.ts';
import { useDecision } from '../api/get-decision.ts';
import { applicationPath } from '../api/keys.ts';
import { useRespondToDecision } from '../api/respond-to-decision.ts';
import { viewPath, type ApplicationArea } from './application-routes.ts';
import { useApplicationFormats } from './formats.ts';
import { ViewFrame } from './view-frame.tsx';
import { OfferConditions } from '../../../components/eligibility/offer-conditions.tsx';
import { DeferralSection } from './deferral-section.tsx';

// The letter and its QR code are read by few, and only once accepted: their code loads when opened.
const LetterPanel = lazy(async () => ({ default: (await import('./admission-letter.tsx')).LetterPanel }));

type DecisionResponse = DecisionResponseInput['response'];

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 'NOT_FOUND';

/** A failure of the decision view, in the words of spec section 8, with a way on. */
function DecisionError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <ViewFrame>
      <h1 className="text-3xl font-bold tracking-tight">{t('applications.decision.title')}</h1>
      <FormAlert>{message}</FormAlert>
      <div className="flex flex-wrap gap-2">
        {onRetry && (
          <button type="button" className="btn-primary" onClick={onRetry}>
            {t('decisions.view.retry')}
          </button>
        )}
        <Link to={paths.student.applications} className="btn-secondary">
          {t('applications.links.area')}
        </Link>
      </div>
    </ViewFrame>
  );
}

/**
 * The decision on a submitted application (spec section 3: program, university, state and response
 * date): the released decision with the letter and the answer to an offer, or, until the institution
 * releases one, where the application stands.
 */
export function DecisionView({ area, partnerId }: { area: ApplicationArea; partnerId: string }) {
  const { t } = useTranslation();
  const context = useApplyContext(partnerId);
  if (context.isPending) return <Spinner />;
  if (context.isError) {
    return isNotFound(context.error) ? (
      <DecisionError message={t('decisions.errors.application_not_found')} />
    ) : (
      <DecisionError message={t('decisions.errors.load_failed')} onRetry={() => void context.refetch()} />
    );
  }
  const { application } = context.data;
  if (!application) return <DecisionError message={t('decisions.errors.application_not_found')} />;
  if (application.status !== 'submitted') return <Navigate replace to={viewPath(area, partnerId, 'form')} />;
  return <Decision area={area} context={context.data} applicationId={application.id} />;
}

function Decision({
  area,
  context,
  applicationId,
}: {
  area: ApplicationArea;
  context: ApplyContext;
  applicationId: string;
}) {
  const { t } = useTranslation();
  const query = useDecision(applicationId);
  if (query.isPending) return <Spinner />;
  if (query.isError) {
    if (isNotFound(query.error)) return <NoDecisionYet area={area} context={context} />;
    return <DecisionError message={t('decisions.errors.load_failed')} onRetry={() => void query.refetch()} />;
  }
  return <Released area={area} context={context} decision={query.data} />;
}

/** Before a release: the application is in, and when the institution plans to decide, if it said. */
function NoDecisionYet({ area, context }: { area: ApplicationArea; context: ApplyContext }) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const { partner, cycle, application } = context;
  return (
    <ViewFrame theme={partner.theme}>
      <p className="text-sm font-semibold text-institution-ink">{partner.name}</p>
      <h1 className="text-3xl font-bold tracking-tight">{t('applications.decision.title')}</h1>
      <dl className="grid gap-3 rounded-xl border border-border bg-surface p-4 sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-sm text-muted">{t('applications.decision.status')}</dt>
          <dd className="font-medium">{t('applications.decision.submitted')}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-sm text-muted">{t('applications.submitted.reference')}</dt>
          <dd className="font-mono font-medium break-all">{application?.reference}</dd>
        </div>
      </dl>
      <p>
        {cycle?.decision_release_on
          ? t('applications.decision.release_on', { date: format.day(cycle.decision_release_on) })
          : t('applications.decision.none_yet')}
      </p>
      <div className="flex flex-wrap gap-2">
        <Link to={viewPath(area, partner.id, 'submitted')} className="btn-primary">
          {t('applications.decision.back')}
        </Link>
        <Link to={paths.student.applications} className="btn-secondary">
          {t('applications.links.area')}
        </Link>
      </div>
    </ViewFrame>
  );
}

const STATE_STYLE: Record<StudentDecision['state'], string> = {
  accepted: 'border-success text-success',
  rejected: 'border-border text-fg',
  waitlisted: 'border-accent text-fg',
};

function Released({
  area,
  context,
  decision,
}: {
  area: ApplicationArea;
  context: ApplyContext;
  decision: StudentDecision;
}) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const [letterOpen, setLetterOpen] = useState(false);
  const letterButton = useRef<HTMLButtonElement>(null);
  const closedLetter = useRef(false);
  // Closing the letter hands focus back to the button that opened it, which is shown again.
  useEffect(() => {
    if (!letterOpen && closedLetter.current) letterButton.current?.focus();
  }, [letterOpen]);
  const closeLetter = () => {
    closedLetter.current = true;
    setLetterOpen(false);
  };
  const names = { university: decision.university_name, program: decision.program_name };
  const offer = decision.state === 'accepted';

  const facts: Array<[string, ReactNode]> = [
    [t('decisions.view.university'), decision.university_name],
    [t('decisions.view.program'), decision.program_name],
    [
      t('decisions.view.state'),
      <span
        className={`inline-block rounded-full border px-2.5 py-0.5 text-sm font-semibold ${STATE_STYLE[decision.state]}`}
      >
        {t(`decisions.view.states.${decision.state}`)}
      </span>,
    ],
    [t('decisions.view.released'), format.date(decision.released_at)],
  ];
  if (offer) {
    facts.push([
      t('decisions.view.response'),
      decision.response && decision.response_date
        ? t(`decisions.view.response_${decision.response}`, { date: format.date(decision.response_date) })
        : offerClosed(decision)
          ? t(`decisions.view.closed_${offerClosed(decision)}`)
          : t('decisions.view.awaiting'),
    ]);
    if (decision.reply_by && !decision.response) {
      facts.push([t('decisions.view.reply_by'), format.moment(lastMinuteBefore(decision.reply_by))]);
    }
    if (decision.deferral?.status === 'approved') {
      facts.push([t('decisions.deferral.deferred_to'), decision.deferral.to_cycle.name]);
    }
  }

  return (
    <ViewFrame theme={context.partner.theme}>
      <div className="flex flex-col gap-1 print:hidden">
        <p className="text-sm font-semibold text-institution-ink">{decision.university_name}</p>
        <h1 className="text-3xl font-bold tracking-tight">{t('applications.decision.title')}</h1>
      </div>
      <CachedNotice path={`${applicationPath(decision.application_id)}/decision`} />
      <p className="text-lg print:hidden">
        {t(
          offer && decision.conditions_status === 'pending'
            ? 'decisions.view.lead_conditional'
            : `decisions.view.lead_${decision.state}`,
          names,
        )}
      </p>
      <dl className="grid gap-3 rounded-xl border border-border bg-surface p-4 sm:grid-cols-2 print:hidden">
        {facts.map(([term, value]) => (
          <div key={term} className="min-w-0">
            <dt className="text-sm text-muted">{term}</dt>
            <dd className="font-medium break-words">{value}</dd>
          </div>
        ))}
      </dl>
      {decision.message && (
        <section
          aria-labelledby="decision-message"
          className="flex flex-col gap-2 rounded-xl border border-border bg-surface p-4 print:hidden"
        >
          <h2 id="decision-message" className="font-semibold">
            {t('decisions.view.message_from', { university: decision.university_name })}
          </h2>
          <p className="whitespace-pre-line break-words">{decision.message}</p>
        </section>
      )}
      {offer && decision.conditions.length > 0 && (
        <section
          aria-labelledby="decision-conditions"
          className="flex flex-col gap-2 rounded-xl border border-border bg-surface p-4 print:hidden"
        >
          <h2 id="decision-conditions" className="font-semibold">
            {t('decisions.view.conditions_title')}
          </h2>
          {decision.conditions_status === 'pending' && <p>{t('decisions.view.conditions_pending')}</p>}
          <OfferConditions
            conditions={decision.conditions}
            views={decision.condition_views}
            status={decision.conditions_status}
            headingId="decision-conditions"
          />
        </section>
      )}
      {decision.state === 'waitlisted' && <p>{t('decisions.view.waitlisted_note')}</p>}
      {offer && <OfferAnswer decision={decision} />}
      {offer && <DeferralSection decision={decision} />}

      <div className="flex flex-wrap gap-2">
        {decision.has_letter && !letterOpen && (
          <button ref={letterButton} type="button" className="btn-primary" onClick={() => setLetterOpen(true)}>
            {t('decisions.view.view_letter')}
          </button>
        )}
        <Link to={viewPath(area, context.partner.id, 'submitted')} className="btn-secondary">
          {t('applications.decision.back')}
        </Link>
        <Link to={paths.student.applications} className="btn-secondary">
          {t('applications.links.area')}
        </Link>
      </div>

      {letterOpen && (
        <Suspense fallback={<Spinner />}>
          <LetterPanel applicationId={decision.application_id} onClose={closeLetter} />
        </Suspense>
      )}
    </ViewFrame>
  );
}

/**
 * Why an unanswered offer can no longer be answered: its conditions were not met, or its deadline passed
 * (as soon as it has, before the platform marks it lapsed). Null while it is open.
 */
function offerClosed(decision: StudentDecision): 'ended' | 'lapsed' | null {
  if (decision.response) return null;
  if (decision.conditions_status === 'not_met') return 'ended';
  if (decision.lapsed_at || (decision.reply_by && Date.parse(decision.reply_by) <= Date.now())) return 'lapsed';
  return null;
}

/**
 * Accept or decline an offer, each behind a confirmation; afterwards, the answer and its date. An offer
 * whose deadline passed or whose conditions were not met says so instead.
 */
function OfferAnswer({ decision }: { decision: StudentDecision }) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const respond = useRespondToDecision(decision.application_id);
  const [asking, setAsking] = useState<DecisionResponse | null>(null);
  const names = { university: decision.university_name, program: decision.program_name };
  const answered = decision.response && decision.response_date;
  const outcome = useRef<HTMLParagraphElement>(null);
  // The buttons that opened the dialog are gone once answered: focus goes to the answer instead.
  useEffect(() => {
    if (respond.isSuccess) outcome.current?.focus();
  }, [respond.isSuccess]);

  const close = () => {
    setAsking(null);
    respond.reset();
  };
  const confirm = (response: DecisionResponse) => respond.mutate({ response }, { onSuccess: () => setAsking(null) });

  return (
    <div className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4">
      {/* Announces the answer once given, so the outcome of the dialog is heard where focus returns. */}
      <p
        ref={outcome}
        role="status"
        tabIndex={-1}
        className={answered ? 'font-semibold focus:outline-none' : 'sr-only'}
      >
        {answered
          ? t(`decisions.view.answered_${decision.response}`, { date: format.date(decision.response_date!) })
          : ''}
      </p>
      {!answered && offerClosed(decision) && (
        <p className="font-semibold">
          {offerClosed(decision) === 'ended'
            ? t('decisions.view.ended_note')
            : t('decisions.view.lapsed_note', {
                date: format.moment(lastMinuteBefore(decision.reply_by ?? decision.lapsed_at!)),
              })}
        </p>
      )}
      {!answered && !offerClosed(decision) && (
        <>
          <p>
            {decision.reply_by
              ? t('decisions.view.respond_prompt_by', { date: format.moment(lastMinuteBefore(decision.reply_by)) })
              : t('decisions.view.respond_prompt')}
          </p>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn-primary" onClick={() => setAsking('accepted')}>
              {t('decisions.view.accept')}
            </button>
            <button type="button" className="btn-secondary" onClick={() => setAsking('declined')}>
              {t('decisions.view.decline')}
            </button>
          </div>
        </>
      )}
      {asking && (
        <ConfirmDialog
          title={t(`decisions.view.confirm_${asking}_title`)}
          description={t(`decisions.view.confirm_${asking}_text`, names)}
          confirmLabel={t(`decisions.view.confirm_${asking}`)}
          cancelLabel={t('decisions.view.cancel')}
          tone={asking === 'accepted' ? 'primary' : 'danger'}
          pending={respond.isPending}
          error={respond.isError ? t(errorMessageKey(respond.error)) : undefined}
          onConfirm={() => confirm(asking)}
          onClose={close}
        />
      )}
    </div>
  );
}
