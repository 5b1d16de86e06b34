import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DECISION_STATES,
  type ConditionsOutcome,
  type DecisionRelease,
  type DecisionState,
  type ReviewApplication,
} from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CheckboxField, FormAlert } from '../../../components/form/field.tsx';
import { hasReason } from '../../../lib/api-client.ts';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { lastMinuteBefore } from '../../../lib/intl.ts';
import { useReleaseDecisions } from '../api/release-decisions.ts';
import { useSaveDecision } from '../api/save-decision.ts';
import { useWithdrawDecision } from '../api/withdraw-decision.ts';
import { useDecideConditions } from '../api/decide-conditions.ts';
import { OfferConditions } from '../../../components/eligibility/offer-conditions.tsx';
import { Badge, useReviewFormats, type Tone } from './review-parts.tsx';
import { DecisionTerms, draftOf } from './decision-terms.tsx';
import { ReleaseMomentField } from './release-moment.tsx';
import { DeferralPanel } from './deferral-panel.tsx';

const STATE_TONE: Record<DecisionState, Tone> = { accepted: 'good', rejected: 'bad', waitlisted: 'warn' };

/** What a confirmation asks before doing it. */
type Pending =
  | { kind: 'withdraw' }
  | { kind: 'release'; when: DecisionRelease['when'] }
  | { kind: 'change_released'; state: Exclude<DecisionState, 'waitlisted'> }
  | { kind: 'conditions'; outcome: ConditionsOutcome['outcome'] };

function Facts({ rows }: { rows: ReadonlyArray<[string, React.ReactNode]> }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-sm text-muted">{label}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The decision, for members who make decisions only: draft (by hand, or shown as drafted by the
 * thresholds), change, withdraw, release now or on the cycle's release date; once released, what the
 * applicant answered and the letter's verification code. A released waitlisted decision may still
 * become an offer or a rejection.
 */
export function DecisionPanel({
  partnerId,
  application,
  timezone,
}: {
  partnerId: string;
  application: ReviewApplication;
  /** The institution's time zone, in which a release at a set moment is read. */
  timezone: string;
}) {
  const { t } = useTranslation();
  const format = useReviewFormats();
  const draft = useSaveDecision(partnerId, application.id);
  const withdraw = useWithdrawDecision(partnerId, application.id);
  const release = useReleaseDecisions(partnerId);
  const conditions = useDecideConditions(partnerId, application.id);
  const [pending, setPending] = useState<Pending | null>(null);
  const [announced, setAnnounced] = useState<string | null>(null);
  const [releaseAt, setReleaseAt] = useState('');
  // Offers beyond the places left are refused until the member says to go beyond (issue 26).
  const [beyondPlaces, setBeyondPlaces] = useState(false);
  if (!application.can_decide) return null;

  const { decision } = application;
  const releaseDay = application.cycle?.decision_release_on ?? null;
  const stateName = (state: DecisionState) => t(`review.decision.states.${state}`);
  const busy = draft.isPending || withdraw.isPending || release.isPending || conditions.isPending;
  const failure = [draft, withdraw, release, conditions].find((mutation) => mutation.isError)?.error;

  const choose = (state: DecisionState) => {
    setAnnounced(null);
    withdraw.reset();
    release.reset();
    conditions.reset();
    draft.mutate(draftOf(state, decision), {
      onSuccess: () => setAnnounced(t('review.decision.drafted', { state: stateName(state) })),
    });
  };
  const confirm = () => {
    if (!pending) return;
    const done = (text: string) => () => {
      setPending(null);
      setBeyondPlaces(false);
      setAnnounced(text);
    };
    if (pending.kind === 'withdraw') withdraw.mutate(undefined, { onSuccess: done(t('review.decision.withdrawn')) });
    else if (pending.kind === 'release') {
      release.mutate(
        {
          submission_ids: [application.id],
          when: pending.when,
          ...(pending.when === 'at' ? { at: releaseAt } : {}),
          override_capacity: beyondPlaces,
        },
        {
          onSuccess: (result) => {
            setPending(null);
            setBeyondPlaces(false);
            setAnnounced(
              result.released > 0
                ? t('review.decision.released_now')
                : result.scheduled > 0
                  ? t(pending.when === 'at' ? 'review.decision.scheduled_at' : 'review.decision.scheduled')
                  : t('review.decision.release_skipped'),
            );
          },
        },
      );
    } else if (pending.kind === 'conditions') {
      conditions.mutate(
        { outcome: pending.outcome },
        { onSuccess: done(t(`review.decision.conditions_${pending.outcome}_done`)) },
      );
    } else
      draft.mutate(
        { ...draftOf(pending.state, decision), override_capacity: beyondPlaces },
        { onSuccess: done(t('review.decision.changed', { state: stateName(pending.state) })) },
      );
  };

  /** What a confirmation says: its title, what it does, and its button. */
  const dialogTexts = (
    asked: Pending,
  ): { title: string; description: string; confirm: string; fields?: React.ReactNode } => {
    switch (asked.kind) {
      case 'conditions':
        return {
          title: t(`review.decision.conditions_${asked.outcome}_title`),
          description: t(`review.decision.conditions_${asked.outcome}_text`),
          confirm: t(`review.decision.conditions_${asked.outcome}`),
        };
      case 'withdraw':
        return {
          title: t('review.decision.withdraw_title'),
          description: t('review.decision.withdraw_text'),
          confirm: t('review.decision.withdraw'),
        };
      case 'change_released':
        return asked.state === 'accepted'
          ? {
              title: t('review.decision.offer_title'),
              description: t('review.decision.offer_text'),
              confirm: t('review.decision.offer'),
            }
          : {
              title: t('review.decision.reject_waitlisted_title'),
              description: t('review.decision.reject_waitlisted_text'),
              confirm: t('review.decision.reject_waitlisted'),
            };
      case 'release':
        if (asked.when === 'now') {
          return {
            title: t('review.decision.release_now_title'),
            description: t('review.decision.release_now_text'),
            confirm: t('review.decision.release_now'),
          };
        }
        if (asked.when === 'at') {
          return {
            title: t('review.decision.release_at_title'),
            description: t('review.decision.release_at_text'),
            fields: (
              <ReleaseMomentField
                value={releaseAt}
                onChange={setReleaseAt}
                timezone={timezone}
                error={fieldErrors(release.error).at}
              />
            ),
            confirm: t('review.decision.release_at'),
          };
        }
        return {
          title: t('review.decision.schedule_title'),
          description: t('review.decision.schedule_text', { date: releaseDay ? format.day(releaseDay) : '' }),
          confirm: t('review.decision.schedule'),
        };
    }
  };
  const texts = pending ? dialogTexts(pending) : null;
  const placesShort = hasReason(failure, 'no_places_left');
  const beyondField = placesShort && (
    <CheckboxField
      label={t('review.decision.beyond_places')}
      checked={beyondPlaces}
      onChange={(event) => setBeyondPlaces(event.target.checked)}
    />
  );

  const dialog = pending && texts && (
    <ConfirmDialog
      tone={
        pending.kind === 'withdraw' || (pending.kind === 'conditions' && pending.outcome === 'not_met')
          ? 'danger'
          : 'primary'
      }
      title={texts.title}
      description={texts.description}
      fields={
        texts.fields || beyondField ? (
          <>
            {texts.fields}
            {beyondField}
          </>
        ) : undefined
      }
      confirmLabel={texts.confirm}
      cancelLabel={t('review.cancel')}
      pending={busy}
      error={failure && !fieldErrors(failure).at ? t(errorMessageKey(failure)) : undefined}
      onConfirm={confirm}
      onClose={() => {
        setPending(null);
        setBeyondPlaces(false);
        draft.reset();
        withdraw.reset();
        release.reset();
        conditions.reset();
      }}
    />
  );

  const stateButtons = (except: DecisionState | null) => (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {DECISION_STATES.filter((state) => state !== except).map((state) => (
          <button key={state} type="button" className="btn-secondary" disabled={busy} onClick={() => choose(state)}>
            {t(`review.decision.draft_as.${state}`)}
          </button>
        ))}
      </div>
      <p className="text-sm text-muted">{t('review.decision.unsuccessful_hint')}</p>
    </div>
  );

  let body: React.ReactNode;
  if (!decision) {
    body = (
      <>
        <p>{t('review.decision.none')}</p>
        {stateButtons(null)}
      </>
    );
  } else if (decision.released_at === null) {
    body = (
      <>
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={STATE_TONE[decision.state]}>{stateName(decision.state)}</Badge>
          <Badge tone="muted">{t('review.decision.draft_badge')}</Badge>
          {decision.automatic && <Badge tone="muted">{t('review.decision.automatic_badge')}</Badge>}
        </div>
        <Facts
          rows={[
            [
              t('review.decision.drafted_by'),
              decision.automatic
                ? t('review.decision.automatic_text')
                : (decision.decided_by?.name ?? t('review.notes.former_member')),
            ],
            [t('review.decision.updated'), format.dateTime(decision.updated_at)],
            [
              t('review.decision.release'),
              decision.release_at
                ? t('review.decision.scheduled_for', { date: format.dateTime(decision.release_at) })
                : t('review.decision.not_released'),
            ],
          ]}
        />
        <div className="flex flex-col gap-2">
          <h3 className="font-medium">{t('review.decision.change')}</h3>
          {stateButtons(decision.state)}
        </div>
        <DecisionTerms
          key={decision.updated_at}
          partnerId={partnerId}
          submissionId={application.id}
          decision={decision}
          onSaved={setAnnounced}
        />
        <div className="flex flex-col gap-2">
          <h3 className="font-medium">{t('review.decision.release_title')}</h3>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn-primary"
              disabled={busy}
              onClick={() => setPending({ kind: 'release', when: 'now' })}
            >
              {t('review.decision.release_now')}
            </button>
            <button
              type="button"
              className="btn-secondary"
              disabled={busy}
              onClick={() => setPending({ kind: 'release', when: 'at' })}
            >
              {t(decision.release_at ? 'review.decision.release_at_change' : 'review.decision.release_at')}
            </button>
            {!decision.release_at && (
              <button
                type="button"
                className="btn-secondary"
                disabled={busy || !releaseDay}
                aria-describedby="review-release-day"
                onClick={() => setPending({ kind: 'release', when: 'release_date' })}
              >
                {t('review.decision.schedule')}
              </button>
            )}
            <button
              type="button"
              className="btn-secondary text-danger"
              disabled={busy}
              onClick={() => setPending({ kind: 'withdraw' })}
            >
              {t('review.decision.withdraw')}
            </button>
          </div>
          <p id="review-release-day" className="text-sm text-muted">
            {releaseDay
              ? t('review.decision.release_day', { date: format.day(releaseDay) })
              : t('decisions.errors.no_release_date')}
          </p>
        </div>
      </>
    );
  } else {
    const response =
      decision.response === null
        ? decision.state === 'accepted'
          ? decision.lapsed_at
            ? t('review.decision.response_lapsed', { date: format.dateTime(decision.lapsed_at) })
            : decision.conditions_status === 'not_met'
              ? t('review.decision.response_ended')
              : t('review.decision.response_none')
          : t('review.decision.response_not_asked')
        : t(`review.decision.response.${decision.response}`, {
            date: decision.response_date ? format.dateTime(decision.response_date) : '',
          });
    body = (
      <>
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={STATE_TONE[decision.state]}>{stateName(decision.state)}</Badge>
          <Badge tone="muted">{t('review.decision.released_badge')}</Badge>
          {decision.automatic && <Badge tone="muted">{t('review.decision.automatic_badge')}</Badge>}
        </div>
        <Facts
          rows={[
            [t('review.decision.released_on'), format.dateTime(decision.released_at)],
            [t('review.decision.applicant_response'), response],
            ...(decision.reply_by
              ? [
                  [t('review.decision.reply_by'), format.dateTime(lastMinuteBefore(decision.reply_by))] as [
                    string,
                    React.ReactNode,
                  ],
                ]
              : []),
            ...(decision.verification_code
              ? [
                  [
                    t('review.decision.verification_code'),
                    <code key="code" className="font-mono">
                      {decision.verification_code}
                    </code>,
                  ] as [string, React.ReactNode],
                ]
              : []),
          ]}
        />
        {decision.message && (
          <div className="flex flex-col gap-1">
            <h3 className="font-medium">{t('review.decision.message_sent')}</h3>
            <p className="whitespace-pre-line break-words">{decision.message}</p>
          </div>
        )}
        {decision.state === 'accepted' && decision.conditions.length > 0 && (
          <div className="flex flex-col gap-2">
            <h3 id="review-offer-conditions" className="font-medium">
              {t('review.decision.conditions_title')}
            </h3>
            <OfferConditions
              conditions={decision.conditions}
              views={decision.condition_views}
              status={decision.conditions_status}
              reader="staff"
              headingId="review-offer-conditions"
            />
            {decision.conditions_status === 'pending' && decision.response !== 'declined' && !decision.lapsed_at && (
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn-primary"
                  disabled={busy}
                  onClick={() => setPending({ kind: 'conditions', outcome: 'met' })}
                >
                  {t('review.decision.conditions_met')}
                </button>
                <button
                  type="button"
                  className="btn-secondary text-danger"
                  disabled={busy}
                  onClick={() => setPending({ kind: 'conditions', outcome: 'not_met' })}
                >
                  {t('review.decision.conditions_not_met')}
                </button>
              </div>
            )}
          </div>
        )}
        {decision.deferral && (
          <DeferralPanel
            partnerId={partnerId}
            submissionId={application.id}
            deferral={decision.deferral}
            onDone={setAnnounced}
          />
        )}
        {decision.state === 'waitlisted' ? (
          <div className="flex flex-col gap-2">
            <h3 className="font-medium">{t('review.decision.waitlist_title')}</h3>
            {decision.proposed_at && (
              <p className="font-medium">
                {t('review.decision.proposed', { date: format.dateTime(decision.proposed_at) })}
              </p>
            )}
            <p className="text-sm text-muted">{t('review.decision.waitlist_text')}</p>
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                className="btn-primary"
                disabled={busy}
                onClick={() => setPending({ kind: 'change_released', state: 'accepted' })}
              >
                {t('review.decision.offer')}
              </button>
              <button
                type="button"
                className="btn-secondary text-danger"
                disabled={busy}
                onClick={() => setPending({ kind: 'change_released', state: 'rejected' })}
              >
                {t('review.decision.reject_waitlisted')}
              </button>
            </div>
          </div>
        ) : (
          <p className="text-sm text-muted">{t('review.decision.final')}</p>
        )}
      </>
    );
  }

  return (
    <section
      aria-labelledby="review-decision"
      className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-4"
    >
      <h2 id="review-decision" className="text-lg font-semibold">
        {t('review.decision.title')}
      </h2>
      {application.places && application.places.places !== null && decision?.state !== 'rejected' && (
        <p className="text-sm text-muted">
          {t('review.decision.places', {
            left: format.score(application.places.left ?? 0),
            places: format.score(application.places.places),
            accepted: format.score(application.places.accepted),
            outstanding: format.score(application.places.outstanding),
            drafted: format.score(application.places.drafted),
          })}
        </p>
      )}
      {body}
      <div aria-live="polite">{announced && <FormAlert tone="success">{announced}</FormAlert>}</div>
      {failure !== undefined && !pending && <FormAlert>{t(errorMessageKey(failure))}</FormAlert>}
      {dialog}
    </section>
  );
}
