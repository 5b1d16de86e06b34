import { useTranslation } from 'react-i18next';
import { sittingTitle } from '../../../components/exam-sitting-summary.tsx';
import { DECISION_STATES, type ReviewApplication, type ReviewEvent, type ReviewOptions } from '@kaminuza/shared';
import { useReviewFormats, useStageName } from './review-parts.tsx';

const isDecisionState = (value: unknown): value is (typeof DECISION_STATES)[number] =>
  typeof value === 'string' && (DECISION_STATES as readonly string[]).includes(value);

/** The details an event carries that say more than its name: a stage's move, a decision's state, a score. */
function useEventDetails(stages: ReviewOptions['stages'] | undefined) {
  const { t } = useTranslation();
  const format = useReviewFormats();
  const stageName = useStageName(stages);
  return (event: ReviewEvent): string[] => {
    const { details } = event;
    const parts: string[] = [];
    if (event.action === 'stage_changed' && ('from' in details || 'to' in details)) {
      const stage = (value: unknown) => stageName(typeof value === 'string' ? value : null);
      parts.push(t('review.history.details.stage', { from: stage(details.from), to: stage(details.to) }));
    }
    if (event.action === 'assigned' && 'to' in details) {
      // Who it went to is the id; the name may be gone with a member since removed, the assignment is not.
      const name = typeof details.to_name === 'string' ? details.to_name : null;
      parts.push(
        typeof details.to !== 'string'
          ? t('review.history.details.unassigned')
          : name
            ? t('review.history.details.assigned', { name })
            : t('review.history.details.assigned_former'),
      );
    }
    if (isDecisionState(details.state)) {
      const state = t(`review.decision.states.${details.state}`);
      parts.push(
        isDecisionState(details.from)
          ? t('review.history.details.stage', { from: t(`review.decision.states.${details.from}`), to: state })
          : state,
      );
    }
    if (details.automatic === true) parts.push(t('review.decision.automatic_badge'));
    if (typeof details.total === 'number')
      parts.push(t('review.history.details.total', { total: format.score(details.total) }));
    if (event.action === 'exam_result_verified' && typeof details.year === 'number') {
      const exam = sittingTitle({
        exam: String(details.exam ?? ''),
        other_name: typeof details.other_name === 'string' ? details.other_name : '',
      });
      parts.push(t('review.history.details.exam', { exam, year: details.year }));
    }
    if (event.action === 'document_reviewed' && typeof details.status === 'string') {
      const status = t(`documents.status.${details.status}`, { defaultValue: details.status });
      parts.push(
        typeof details.type === 'string'
          ? t('review.history.details.document', {
              type: t(`documents.types.${details.type}`, { defaultValue: details.type }),
              status,
            })
          : status,
      );
      if (typeof details.reason === 'string' && details.reason) {
        parts.push(t('review.history.details.reason', { reason: details.reason }));
      }
    }
    if (event.action.startsWith('deferral_') && typeof details.cycle === 'string') {
      parts.push(t('review.history.details.cycle', { cycle: details.cycle }));
    }
    if (details.offer_ended === true) parts.push(t('review.history.details.offer_ended'));
    if (typeof details.release_at === 'string') {
      parts.push(t('review.decision.scheduled_for', { date: format.dateTime(details.release_at) }));
    }
    return parts;
  };
}

/** Every change to the application, newest first, with who made it and when. */
export function HistoryPanel({
  application,
  stages,
}: {
  application: ReviewApplication;
  stages: ReviewOptions['stages'] | undefined;
}) {
  const { t } = useTranslation();
  const format = useReviewFormats();
  const detailsOf = useEventDetails(stages);
  const events = [...application.history].sort((a, b) => b.created_at.localeCompare(a.created_at));
  if (events.length === 0) return <p className="text-muted">{t('review.history.empty')}</p>;
  const actor = (event: ReviewEvent) =>
    event.actor.kind === 'staff'
      ? (event.actor.name ?? t('review.notes.former_member'))
      : event.actor.kind === 'applicant'
        ? t('review.history.actor_applicant')
        : t('review.history.actor_system');

  return (
    <ol aria-label={t('review.history.label')} className="flex flex-col gap-0 border-s-2 border-border ps-4">
      {events.map((event) => {
        const details = detailsOf(event);
        return (
          <li key={event.id} className="relative flex flex-col gap-0.5 pb-4">
            <span aria-hidden="true" className="absolute top-1.5 -start-[1.4rem] size-3 rounded-full bg-brand" />
            <p className="font-medium">{t(`review.history.actions.${event.action}`)}</p>
            {details.length > 0 && <p className="text-sm break-words">{details.join(' · ')}</p>}
            <p className="text-sm text-muted">
              {t('review.history.by', { actor: actor(event) })} ·{' '}
              <time dateTime={event.created_at}>{format.dateTime(event.created_at)}</time>
            </p>
          </li>
        );
      })}
    </ol>
  );
}
