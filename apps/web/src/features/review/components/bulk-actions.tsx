import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DecisionRelease, ReviewOptions } from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CheckboxField, FormAlert } from '../../../components/form/field.tsx';
import { hasReason } from '../../../lib/api-client.ts';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { useBulkReview } from '../api/bulk-review.ts';
import { useReleaseDecisions } from '../api/release-decisions.ts';
import { ReleaseMomentField } from './release-moment.tsx';

/** The value of "no stage" / "nobody" in a select, where the API takes null. */
const NONE = '__none';

/** What the last bulk action did, announced in the page's status line. */
export type BulkOutcome =
  { kind: 'updated'; count: number } | { kind: 'released'; released: number; scheduled: number; skipped: number };

function ActionSelect({
  label,
  value,
  placeholder,
  options,
  onChange,
}: {
  label: string;
  value: string;
  placeholder: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} className="field-input" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The texts of each release, under `review.bulk`: its button, and its confirmation's `<prefix>_title` and `<prefix>_text`. */
const RELEASE_TEXTS: Record<DecisionRelease['when'], { label: string; prefix: string }> = {
  now: { label: 'release_now', prefix: 'release_now' },
  release_date: { label: 'release_on_date', prefix: 'release_date' },
  at: { label: 'release_at', prefix: 'release_at' },
};

/** Actions on the selected applications: move along the stages, assign, and (decision makers) release. */
export function BulkActions({
  partnerId,
  options,
  selectedIds,
  onDone,
}: {
  partnerId: string;
  options: ReviewOptions;
  selectedIds: string[];
  onDone: (outcome: BulkOutcome) => void;
}) {
  const { t } = useTranslation();
  const bulk = useBulkReview(partnerId);
  const release = useReleaseDecisions(partnerId);
  const [stage, setStage] = useState('');
  const [assignee, setAssignee] = useState('');
  const [releasing, setReleasing] = useState<DecisionRelease['when'] | null>(null);
  const [releaseAt, setReleaseAt] = useState('');
  const [beyondPlaces, setBeyondPlaces] = useState(false);
  const placesShort = hasReason(release.error, 'no_places_left');
  const count = selectedIds.length;
  const pending = bulk.isPending || release.isPending;

  const moveStage = () =>
    bulk.mutate(
      { action: 'move_stage', submission_ids: selectedIds, stage_id: stage === NONE ? null : stage },
      { onSuccess: ({ updated }) => onDone({ kind: 'updated', count: updated }) },
    );
  const assign = () =>
    bulk.mutate(
      { action: 'assign', submission_ids: selectedIds, assigned_to: assignee === NONE ? null : assignee },
      { onSuccess: ({ updated }) => onDone({ kind: 'updated', count: updated }) },
    );
  const confirmRelease = () => {
    if (!releasing) return;
    release.mutate(
      {
        submission_ids: selectedIds,
        when: releasing,
        ...(releasing === 'at' ? { at: releaseAt } : {}),
        override_capacity: beyondPlaces,
      },
      {
        onSuccess: (result) => {
          setReleasing(null);
          setBeyondPlaces(false);
          onDone({ kind: 'released', ...result });
        },
      },
    );
  };

  return (
    <section
      aria-label={t('review.bulk.label')}
      className="flex flex-col gap-4 rounded-xl border border-brand bg-surface p-4"
    >
      <p className="font-semibold">{t('review.bulk.selected', { count })}</p>
      <div className="grid gap-4 md:grid-cols-2">
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <ActionSelect
              label={t('review.bulk.move_stage')}
              value={stage}
              placeholder={t('review.bulk.choose_stage')}
              options={[
                { value: NONE, label: t('review.stage.none') },
                ...options.stages.map((item) => ({ value: item.id, label: item.name })),
              ]}
              onChange={setStage}
            />
          </div>
          <button type="button" className="btn-secondary" disabled={!stage || pending} onClick={moveStage}>
            {t('review.bulk.apply_stage')}
          </button>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <ActionSelect
              label={t('review.bulk.assign')}
              value={assignee}
              placeholder={t('review.bulk.choose_reviewer')}
              options={[
                { value: NONE, label: t('review.assignee.nobody') },
                ...options.reviewers.map((reviewer) => ({
                  value: reviewer.id,
                  label: reviewer.id === options.me ? t('review.assignee.me', { name: reviewer.name }) : reviewer.name,
                })),
              ]}
              onChange={setAssignee}
            />
          </div>
          <button type="button" className="btn-secondary" disabled={!assignee || pending} onClick={assign}>
            {t('review.bulk.apply_assign')}
          </button>
        </div>
      </div>
      {options.can_decide && (
        <div className="flex flex-col gap-2">
          <p className="text-sm text-muted">{t('review.bulk.release_hint')}</p>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn-secondary" disabled={pending} onClick={() => setReleasing('now')}>
              {t('review.bulk.release_now')}
            </button>
            <button
              type="button"
              className="btn-secondary"
              disabled={pending}
              onClick={() => setReleasing('release_date')}
            >
              {t('review.bulk.release_on_date')}
            </button>
            <button type="button" className="btn-secondary" disabled={pending} onClick={() => setReleasing('at')}>
              {t('review.bulk.release_at')}
            </button>
          </div>
        </div>
      )}
      {bulk.isError && <FormAlert>{t(errorMessageKey(bulk.error))}</FormAlert>}
      {releasing && (
        <ConfirmDialog
          tone="primary"
          title={t(`review.bulk.${RELEASE_TEXTS[releasing].prefix}_title`, { count })}
          description={t(`review.bulk.${RELEASE_TEXTS[releasing].prefix}_text`)}
          fields={
            releasing === 'at' || placesShort ? (
              <>
                {releasing === 'at' && (
                  <ReleaseMomentField
                    value={releaseAt}
                    onChange={setReleaseAt}
                    timezone={options.timezone}
                    error={fieldErrors(release.error).at}
                  />
                )}
                {placesShort && (
                  <CheckboxField
                    label={t('review.bulk.beyond_places')}
                    checked={beyondPlaces}
                    onChange={(event) => setBeyondPlaces(event.target.checked)}
                  />
                )}
              </>
            ) : undefined
          }
          confirmLabel={t(`review.bulk.${RELEASE_TEXTS[releasing].label}`)}
          cancelLabel={t('review.cancel')}
          pending={release.isPending}
          error={release.isError && !fieldErrors(release.error).at ? t(errorMessageKey(release.error)) : undefined}
          onConfirm={confirmRelease}
          onClose={() => {
            setReleasing(null);
            setBeyondPlaces(false);
            release.reset();
          }}
        />
      )}
    </section>
  );
}
