import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { localized, type ReviewApplication, type StaffReferee } from '@kaminuza/shared';
import { EmptyState } from '../../../components/list-states.tsx';
import { isLanguage } from '../../../lib/languages.ts';
import { reviewRefereeLetterUrl } from '../api/get-review-application.ts';
import { Badge, useReviewFormats, type Tone } from './review-parts.tsx';

type RefereeState = 'invited' | 'opened' | 'submitted' | 'expired';

const STATE_TONE: Record<RefereeState, Tone> = {
  invited: 'muted',
  opened: 'brand',
  submitted: 'good',
  expired: 'bad',
};

/** Where a referee stands: a link past its expiry without a letter says so over invited or opened. */
const stateOf = (referee: StaffReferee): RefereeState => (referee.expired ? 'expired' : referee.status);

/** Whether the submission's form asks for referees: the section shows then, or once some were invited anyway. */
export function asksForReferees(application: ReviewApplication): boolean {
  return (
    (application.referees?.length ?? 0) > 0 ||
    (application.form?.sections ?? []).some((section) =>
      section.questions.some((question) => question.type === 'referees'),
    )
  );
}

function RefereeCard({
  referee,
  partnerId,
  submissionId,
}: {
  referee: StaffReferee;
  partnerId: string;
  submissionId: string;
}) {
  const { t, i18n } = useTranslation();
  const format = useReviewFormats();
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const state = stateOf(referee);
  const dates: Array<[string, string | null]> = [
    [t('review.referees.invited_on'), referee.invited_at],
    [t('review.referees.opened_on'), referee.opened_at],
    [t('review.referees.submitted_on'), referee.submitted_at],
  ];

  return (
    <li className="flex min-w-0 flex-col gap-4 rounded-lg border border-border p-3 sm:p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-col gap-0.5">
          <h3 className="font-semibold [overflow-wrap:anywhere]">{referee.name}</h3>
          <p className="text-sm [overflow-wrap:anywhere] text-muted">
            {t(`referees.kinds.${referee.kind}`)} · {referee.title}, {referee.organization}
          </p>
        </div>
        <Badge tone={STATE_TONE[state]}>{t(`referees.status.${state}`)}</Badge>
      </div>

      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-muted">{t('review.referees.email')}</dt>
          <dd className="break-all">
            <a className="link" href={`mailto:${referee.email}`}>
              {referee.email}
            </a>
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-muted">{t('review.referees.phone')}</dt>
          <dd>
            {referee.phone ? (
              <a className="link" href={`tel:${referee.phone}`}>
                {referee.phone}
              </a>
            ) : (
              <span className="text-muted">{t('review.referees.no_phone')}</span>
            )}
          </dd>
        </div>
        <div className="min-w-0 sm:col-span-2">
          <dt className="text-muted">{t('review.referees.reading')}</dt>
          <dd>{referee.waived ? t('review.referees.waived') : t('review.referees.not_waived')}</dd>
        </div>
        {dates.map(([label, at]) =>
          at ? (
            <div key={label} className="min-w-0">
              <dt className="text-muted">{label}</dt>
              <dd>{format.dateTime(at)}</dd>
            </div>
          ) : null,
        )}
      </dl>

      {referee.status === 'submitted' ? (
        <div className="flex flex-col gap-4 border-t border-border pt-4">
          {referee.answers.length > 0 && (
            <div className="flex flex-col gap-2">
              <h4 className="font-semibold">{t('review.referees.answers')}</h4>
              <dl className="flex flex-col gap-3">
                {referee.answers.map(({ prompt, answer }, i) => (
                  <div key={i} className="min-w-0">
                    <dt className="text-sm font-medium text-muted">{localized(prompt, language)}</dt>
                    <dd className="break-words whitespace-pre-line">{answer}</dd>
                  </div>
                ))}
              </dl>
            </div>
          )}
          <div className="flex flex-col gap-2">
            <h4 className="font-semibold">{t('review.referees.letter')}</h4>
            {referee.letter?.text && (
              <div className="rounded-lg bg-surface-muted p-3 break-words whitespace-pre-line">
                {referee.letter.text}
              </div>
            )}
            {referee.letter?.file_name && (
              <a
                className="btn-secondary self-start"
                href={reviewRefereeLetterUrl(partnerId, submissionId, referee.id)}
                download={referee.letter.file_name}
                aria-label={t('review.referees.download_named', { name: referee.name })}
              >
                {t('review.referees.download')}
              </a>
            )}
          </div>
        </div>
      ) : (
        <p className="text-sm text-muted">
          {state === 'expired' ? t('review.referees.expired_text') : t('review.referees.waiting_text')}
        </p>
      )}
    </li>
  );
}

/** The referees the applicant invited: who they are, where each stands, and what arrived from them. */
export function RefereesPanel({ partnerId, application }: { partnerId: string; application: ReviewApplication }) {
  const { t } = useTranslation();
  const headingId = useId();
  const referees = application.referees ?? [];
  const received = referees.filter((referee) => referee.status === 'submitted').length;
  return (
    <section
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-border bg-surface p-4"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h2 id={headingId} className="text-lg font-semibold">
          {t('review.referees.title')}
        </h2>
        {referees.length > 0 && (
          <p className="text-sm font-medium">{t('review.referees.letters', { received, count: referees.length })}</p>
        )}
      </div>
      {referees.length === 0 ? (
        <EmptyState title={t('review.referees.empty_title')} text={t('review.referees.empty_text')} />
      ) : (
        <ul className="flex flex-col gap-3">
          {referees.map((referee) => (
            <RefereeCard key={referee.id} referee={referee} partnerId={partnerId} submissionId={application.id} />
          ))}
        </ul>
      )}
    </section>
  );
}
