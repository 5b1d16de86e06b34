import { useId, useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ReviewApplication, ReviewOptions } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { FormAlert } from '../../../components/form/field.tsx';
import { LoadError } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { Tabs } from '../../../components/tabs.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useSession } from '../../../lib/session.tsx';
import { useReviewApplication } from '../api/get-review-application.ts';
import { useReviewOptions } from '../api/get-review-options.ts';
import { useUpdateReview } from '../api/update-review.ts';
import { AnswersPanel } from './answers-panel.tsx';
import { DecisionPanel } from './decision-panel.tsx';
import { DocumentsPanel } from './documents-panel.tsx';
import { EligibilityPanel } from './eligibility-panel.tsx';
import { HistoryPanel } from './history-panel.tsx';
import { NotesPanel } from './notes-panel.tsx';
import { PaymentPanel } from './payment-panel.tsx';
import { asksForReferees, RefereesPanel } from './referees-panel.tsx';
import { StatusBadge, useReviewFormats } from './review-parts.tsx';
import { ScoresPanel } from './score-panel.tsx';

const TABS = ['application', 'eligibility', 'documents', 'payment', 'notes', 'scores', 'decision', 'history'] as const;
type Tab = (typeof TABS)[number];

/** The value of "no stage" / "nobody" in a select, where the API takes null. */
const NONE = '';

/** Moves the application along the stages and (un)assigns it, each change saved at once. */
function ReviewControls({
  partnerId,
  application,
  options,
}: {
  partnerId: string;
  application: ReviewApplication;
  options: ReviewOptions | undefined;
}) {
  const { t } = useTranslation();
  const id = useId();
  const update = useUpdateReview(partnerId, application.id);
  const [saved, setSaved] = useState<string | null>(null);
  const stages = options?.stages ?? [];
  const reviewers = options?.reviewers ?? [];
  const knownStage = application.stage_id === null || stages.some((stage) => stage.id === application.stage_id);
  const knownAssignee =
    application.assigned_to === null || reviewers.some((reviewer) => reviewer.id === application.assigned_to?.id);

  return (
    <div className="flex flex-col gap-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-1.5">
          <label htmlFor={`${id}-stage`} className="text-sm font-medium">
            {t('review.application.stage')}
          </label>
          <select
            id={`${id}-stage`}
            className="field-input"
            disabled={update.isPending || !options}
            value={application.stage_id ?? NONE}
            onChange={(event) =>
              update.mutate(
                { stage_id: event.target.value || null },
                { onSuccess: () => setSaved(t('review.application.stage_saved')) },
              )
            }
          >
            <option value={NONE}>{t('review.stage.none')}</option>
            {!knownStage && <option value={application.stage_id ?? ''}>{t('review.stage.unknown')}</option>}
            {stages.map((stage) => (
              <option key={stage.id} value={stage.id}>
                {stage.name}
              </option>
            ))}
          </select>
        </div>
        <div className="flex min-w-0 flex-col gap-1.5">
          <label htmlFor={`${id}-assignee`} className="text-sm font-medium">
            {t('review.application.assignee')}
          </label>
          <select
            id={`${id}-assignee`}
            className="field-input"
            disabled={update.isPending || !options}
            value={application.assigned_to?.id ?? NONE}
            onChange={(event) =>
              update.mutate(
                { assigned_to: event.target.value || null },
                { onSuccess: () => setSaved(t('review.application.assignee_saved')) },
              )
            }
          >
            <option value={NONE}>{t('review.assignee.nobody')}</option>
            {!knownAssignee && application.assigned_to && (
              <option value={application.assigned_to.id}>{application.assigned_to.name}</option>
            )}
            {reviewers.map((reviewer) => (
              <option key={reviewer.id} value={reviewer.id}>
                {reviewer.id === options?.me ? t('review.assignee.me', { name: reviewer.name }) : reviewer.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div aria-live="polite">{saved && !update.isError && <FormAlert tone="success">{saved}</FormAlert>}</div>
      {update.isError && <FormAlert>{t(errorMessageKey(update.error))}</FormAlert>}
    </div>
  );
}

/** One submitted application as staff review it: the snapshot, documents, notes, scores, decision and history. */
export function ReviewApplicationPage() {
  const { t } = useTranslation();
  const { session } = useSession();
  const partnerId = session.status === 'signed-in' ? (session.user.partner_id ?? '') : '';
  const { submissionId = '' } = useParams();
  const application = useReviewApplication(partnerId, submissionId);
  const options = useReviewOptions(partnerId);
  const format = useReviewFormats();
  const [search, setSearch] = useSearchParams();
  // Back to the queue as it was left: its filters came along in the link's state.
  const { state } = useLocation() as { state: { queueSearch?: unknown } | null };
  const queueSearch = typeof state?.queueSearch === 'string' ? state.queueSearch : '';
  const back = (
    <Link to={`${paths.partner.applications}${queueSearch}`} className="link self-start">
      {t('review.application.back')}
    </Link>
  );

  if (application.isError) {
    const missing = application.error instanceof ApiError && application.error.httpStatus === 404;
    return (
      <div className="mx-auto flex w-full max-w-5xl min-w-0 flex-col gap-4">
        {back}
        {missing ? (
          <FormAlert>{t('decisions.errors.application_not_found')}</FormAlert>
        ) : (
          <LoadError
            error={application.error}
            retryLabel={t('review.retry')}
            onRetry={() => void application.refetch()}
          />
        )}
      </div>
    );
  }
  if (!application.data) return <Spinner />;
  const data = application.data;
  const tabs = TABS.filter((tab) => tab !== 'decision' || data.can_decide);
  const asked = search.get('tab');
  const tab: Tab = tabs.find((id) => id === asked) ?? 'application';
  const choose = (next: Tab) =>
    setSearch(
      (current) => {
        const params = new URLSearchParams(current);
        params.set('tab', next);
        return params;
      },
      { replace: true, state },
    );
  const counts: Partial<Record<Tab, number>> = {
    documents: data.documents.length,
    notes: data.notes.length,
    scores: data.scores.length,
  };

  const panel = () => {
    switch (tab) {
      case 'eligibility':
        return <EligibilityPanel partnerId={partnerId} application={data} />;
      case 'documents':
        return <DocumentsPanel partnerId={partnerId} application={data} />;
      case 'payment':
        return <PaymentPanel application={data} />;
      case 'notes':
        return <NotesPanel partnerId={partnerId} application={data} />;
      case 'scores':
        return <ScoresPanel partnerId={partnerId} application={data} me={options.data?.me} />;
      case 'decision':
        return <DecisionPanel partnerId={partnerId} application={data} timezone={options.data?.timezone ?? 'UTC'} />;
      case 'history':
        return <HistoryPanel application={data} stages={options.data?.stages} />;
      default:
        // The referees beside the answers: who was asked, and what each sent.
        return (
          <div className="flex flex-col gap-6">
            <AnswersPanel application={data} />
            {asksForReferees(data) && <RefereesPanel partnerId={partnerId} application={data} />}
          </div>
        );
    }
  };

  return (
    <div className="mx-auto flex w-full max-w-5xl min-w-0 flex-col gap-6">
      {back}
      <header className="flex flex-col gap-4 rounded-2xl border border-border bg-surface p-4 sm:p-6">
        <div className="flex flex-col gap-1">
          <p className="font-mono text-sm text-muted">{data.reference}</p>
          <h1 className="text-2xl font-bold tracking-tight [overflow-wrap:anywhere] sm:text-3xl">
            {data.applicant_name ?? t('review.application.blind_title')}
          </h1>
          {data.blind && <p className="text-sm text-muted">{t('review.application.blind_notice')}</p>}
        </div>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          {(
            [
              [t('review.application.program'), data.program?.name ?? '—'],
              [t('review.application.campus'), data.campus.name],
              [t('review.application.cycle'), data.cycle?.name ?? '—'],
              [
                t('review.application.submitted'),
                `${format.date(data.submitted_at)}${data.submitted_by_staff ? ` · ${t('review.queue.by_staff')}` : ''}`,
              ],
            ] as const
          ).map(([label, value]) => (
            <div key={label} className="min-w-0">
              <dt className="text-muted">{label}</dt>
              <dd className="font-medium break-words">{value}</dd>
            </div>
          ))}
          <div className="min-w-0">
            <dt className="text-muted">{t('review.application.status')}</dt>
            <dd>
              <StatusBadge status={data.status} />
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="text-muted">{t('review.application.score')}</dt>
            <dd className="font-medium">
              {data.score_average === null
                ? t('review.queue.not_scored')
                : t('review.scores.average', { average: format.score(data.score_average), count: data.scores.length })}
            </dd>
          </div>
        </dl>
        <ReviewControls partnerId={partnerId} application={data} options={options.data} />
      </header>
      <Tabs
        label={t('review.application.tabs_label')}
        items={tabs.map((id) => ({
          id,
          label:
            counts[id] === undefined ? (
              t(`review.application.tabs.${id}`)
            ) : (
              <>
                {t(`review.application.tabs.${id}`)}
                <span className="rounded-full bg-surface-muted px-1.5 text-xs">{counts[id]}</span>
              </>
            ),
        }))}
        value={tab}
        onChange={choose}
      >
        {panel()}
      </Tabs>
    </div>
  );
}
