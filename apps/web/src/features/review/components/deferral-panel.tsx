import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFERRAL_NOTE_MAX, DeferralOutcomeSchema, type DeferralOutcome, type ReviewDeferral } from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CheckboxField, TextAreaField, useMessage } from '../../../components/form/field.tsx';
import { hasReason } from '../../../lib/api-client.ts';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { useDecideDeferral } from '../api/decide-deferral.ts';
import { Badge, useReviewFormats, type Tone } from './review-parts.tsx';

const STATUS_TONE: Record<ReviewDeferral['status'], Tone> = {
  pending: 'warn',
  approved: 'good',
  declined: 'bad',
  withdrawn: 'muted',
};

/**
 * The applicant's request to defer their accepted offer (ADR 053), on the decision panel: what they asked
 * and why, the places left in the cycle asked for, and Approve / Decline behind a confirmation with an
 * optional note to them. Approving beyond the places left is offered once the api refused for that. An
 * answered or withdrawn request stays as a line, with the note sent.
 */
export function DeferralPanel({
  partnerId,
  submissionId,
  deferral,
  onDone,
}: {
  partnerId: string;
  submissionId: string;
  deferral: ReviewDeferral;
  /** Says what was done, where the decision panel announces it. */
  onDone: (text: string) => void;
}) {
  const { t } = useTranslation();
  const format = useReviewFormats();
  const message = useMessage();
  const decide = useDecideDeferral(partnerId, submissionId);
  const [asking, setAsking] = useState<DeferralOutcome['outcome'] | null>(null);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const [beyondPlaces, setBeyondPlaces] = useState(false);
  const cycles = { cycle: deferral.to_cycle.name, from: deferral.from_cycle.name };
  const status = t(`review.deferral.badge.${deferral.status}`);

  const close = () => {
    setAsking(null);
    setNoteError(undefined);
    setBeyondPlaces(false);
    decide.reset();
  };
  const confirm = () => {
    if (!asking) return;
    const checked = DeferralOutcomeSchema.safeParse({
      request_id: deferral.id,
      outcome: asking,
      note,
      override_capacity: beyondPlaces,
    });
    if (!checked.success) {
      setNoteError(checked.error.issues.find((issue) => issue.path[0] === 'note')?.message);
      return;
    }
    setNoteError(undefined);
    decide.mutate(checked.data, {
      onSuccess: () => {
        const outcome = asking;
        close();
        setNote('');
        onDone(t(`review.deferral.${outcome}_done`, cycles));
      },
    });
  };
  const placesShort = hasReason(decide.error, 'no_places_left');
  const serverNote = fieldErrors(decide.error).note;

  if (deferral.status !== 'pending') {
    return (
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-medium">{t('review.deferral.title')}</h3>
          <Badge tone={STATUS_TONE[deferral.status]}>{status}</Badge>
        </div>
        <p>
          {t(`review.deferral.status_${deferral.status}`, {
            ...cycles,
            date: format.dateTime(deferral.closed_at ?? deferral.requested_at),
          })}
        </p>
        <div className="flex flex-col gap-1">
          <h4 className="text-sm text-muted">{t('review.deferral.reason')}</h4>
          <p className="whitespace-pre-line break-words">{deferral.reason}</p>
        </div>
        {deferral.note && (
          <div className="flex flex-col gap-1">
            <h4 className="text-sm text-muted">{t('review.deferral.note_sent')}</h4>
            <p className="whitespace-pre-line break-words">{deferral.note}</p>
          </div>
        )}
      </div>
    );
  }

  const places = deferral.places;
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-accent p-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-medium">{t('review.deferral.title')}</h3>
        <Badge tone={STATUS_TONE.pending}>{status}</Badge>
      </div>
      <p>{t('review.deferral.requested', { ...cycles, date: format.dateTime(deferral.requested_at) })}</p>
      <div className="flex flex-col gap-1">
        <h4 className="text-sm text-muted">{t('review.deferral.reason')}</h4>
        <p className="whitespace-pre-line break-words">{deferral.reason}</p>
      </div>
      {places && (
        <p className="text-sm text-muted">
          {places.places === null
            ? t('review.deferral.places_unlimited', cycles)
            : t('review.deferral.places', {
                ...cycles,
                left: format.score(places.left ?? 0),
                places: format.score(places.places),
              })}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn-primary" disabled={decide.isPending} onClick={() => setAsking('approved')}>
          {t('review.deferral.approve')}
        </button>
        <button
          type="button"
          className="btn-secondary text-danger"
          disabled={decide.isPending}
          onClick={() => setAsking('declined')}
        >
          {t('review.deferral.decline')}
        </button>
      </div>
      {asking && (
        <ConfirmDialog
          tone={asking === 'approved' ? 'primary' : 'danger'}
          title={t(asking === 'approved' ? 'review.deferral.approve_title' : 'review.deferral.decline_title', cycles)}
          description={t(
            asking === 'approved' ? 'review.deferral.approve_text' : 'review.deferral.decline_text',
            cycles,
          )}
          fields={
            <>
              <TextAreaField
                label={t('review.deferral.note')}
                hint={t('review.deferral.note_hint', { max: format.score(DEFERRAL_NOTE_MAX) })}
                optional
                rows={3}
                maxLength={DEFERRAL_NOTE_MAX}
                value={note}
                onChange={(event) => setNote(event.target.value)}
                error={message(noteError ?? serverNote)}
              />
              {asking === 'approved' && placesShort && (
                <CheckboxField
                  label={t('review.deferral.beyond_places', cycles)}
                  checked={beyondPlaces}
                  onChange={(event) => setBeyondPlaces(event.target.checked)}
                />
              )}
            </>
          }
          confirmLabel={t(asking === 'approved' ? 'review.deferral.approve' : 'review.deferral.decline')}
          cancelLabel={t('review.cancel')}
          pending={decide.isPending}
          error={decide.isError && !serverNote ? t(errorMessageKey(decide.error)) : undefined}
          onConfirm={confirm}
          onClose={close}
        />
      )}
    </div>
  );
}
