import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BUILT_IN_STAGES,
  DECISION_STATES,
  SCORE_MAX,
  type ReviewOptions,
  ELIGIBILITY_STATUSES,
} from '@kaminuza/shared';
import type { FilterKey } from './queue-query.ts';

const SEARCH_DELAY_MS = 300;

interface Choice {
  value: string;
  label: string;
}

function FilterSelect({
  label,
  value,
  anyLabel,
  options,
  onChange,
}: {
  label: string;
  value: string;
  anyLabel: string;
  options: readonly Choice[];
  onChange: (value: string | undefined) => void;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} className="field-input" value={value} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function FilterInput({
  label,
  value,
  onChange,
  ...input
}: {
  label: string;
  value: string;
  onChange: (value: string | undefined) => void;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'id'>) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        className="field-input"
        value={value}
        onChange={(e) => onChange(e.target.value || undefined)}
        {...input}
      />
    </div>
  );
}

/** The search box: the address follows the text once the reader stops typing for a moment. */
function SearchBox({ q, blind, onSearch }: { q: string; blind: boolean; onSearch: (q: string | undefined) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(q);
  // The latest callback, without restarting the pause each time the page renders.
  const search = useRef(onSearch);
  useEffect(() => {
    search.current = onSearch;
  });
  // Back and forward change the address under the box: the box follows (adjusted while rendering).
  const [shownQ, setShownQ] = useState(q);
  if (shownQ !== q) {
    setShownQ(q);
    if (text.trim() !== q) setText(q);
  }
  useEffect(() => {
    if (text.trim() === q) return;
    const timer = setTimeout(() => search.current(text.trim() || undefined), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, q]);
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1.5">
      <label htmlFor={id} className="font-medium">
        {t('review.queue.search')}
      </label>
      <input
        id={id}
        type="search"
        className="field-input"
        maxLength={100}
        value={text}
        aria-describedby={`${id}-hint`}
        onChange={(event) => setText(event.target.value)}
      />
      <p id={`${id}-hint`} className="text-sm text-muted">
        {t(blind ? 'review.queue.search_hint_blind' : 'review.queue.search_hint')}
      </p>
    </div>
  );
}

/**
 * The queue's search and filters. Every value lives in the page's address (`params`), so a reload, a
 * shared link or the back button shows the same queue.
 */
export function QueueFilters({
  params,
  options,
  activeCount,
  onChange,
  onClear,
}: {
  params: URLSearchParams;
  options: ReviewOptions | undefined;
  activeCount: number;
  onChange: (key: FilterKey, value: string | undefined, replace?: boolean) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const value = (key: FilterKey) => params.get(key) ?? '';
  const any = t('review.queue.filters.any');
  const yesNo: Choice[] = [
    { value: 'true', label: t('review.queue.filters.yes') },
    { value: 'false', label: t('review.queue.filters.no') },
  ];
  const named = (items: ReadonlyArray<{ id: string; name: string }> | undefined) =>
    (items ?? []).map((item) => ({ value: item.id, label: item.name }));

  return (
    <div className="flex flex-col gap-3">
      <SearchBox q={value('q')} blind={options?.blind ?? false} onSearch={(q) => onChange('q', q, true)} />
      <details className="group rounded-xl border border-border bg-surface" open={activeCount > 0 || undefined}>
        <summary className="flex min-h-11 cursor-pointer items-center justify-between gap-3 px-4 font-medium">
          <span>
            {t('review.queue.filters.title')}
            {activeCount > 0 && (
              <span className="ms-2 rounded-full border border-brand px-2 py-0.5 text-xs font-semibold text-brand">
                {t('review.queue.filters.active', { count: activeCount })}
              </span>
            )}
          </span>
        </summary>
        <div className="flex flex-col gap-4 border-t border-border p-4">
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <FilterSelect
              label={t('review.queue.filters.cycle')}
              value={value('cycle_id')}
              anyLabel={any}
              options={named(options?.cycles)}
              onChange={(v) => onChange('cycle_id', v)}
            />
            <FilterSelect
              label={t('review.queue.filters.program')}
              value={value('program_id')}
              anyLabel={any}
              options={named(options?.programs)}
              onChange={(v) => onChange('program_id', v)}
            />
            <FilterSelect
              label={t('review.queue.filters.campus')}
              value={value('campus_id')}
              anyLabel={any}
              options={named(options?.campuses)}
              onChange={(v) => onChange('campus_id', v)}
            />
            <FilterSelect
              label={t('review.queue.filters.stage')}
              value={value('stage')}
              anyLabel={any}
              options={[
                ...BUILT_IN_STAGES.map((stage) => ({ value: stage, label: t(`review.stage.built_in.${stage}`) })),
                ...named(options?.stages),
              ]}
              onChange={(v) => onChange('stage', v)}
            />
            <FilterSelect
              label={t('review.queue.filters.decision')}
              value={value('decision')}
              anyLabel={any}
              options={[
                ...DECISION_STATES.map((state) => ({ value: state, label: t(`review.decision.states.${state}`) })),
                { value: 'none', label: t('review.queue.filters.no_decision') },
              ]}
              onChange={(v) => onChange('decision', v)}
            />
            <FilterSelect
              label={t('review.queue.filters.release')}
              value={value('release')}
              anyLabel={any}
              options={[
                { value: 'draft', label: t('review.queue.filters.release_draft') },
                { value: 'released', label: t('review.queue.filters.release_released') },
              ]}
              onChange={(v) => onChange('release', v)}
            />
            <FilterSelect
              label={t('review.queue.filters.eligibility')}
              value={value('eligibility')}
              anyLabel={any}
              options={ELIGIBILITY_STATUSES.map((status) => ({
                value: status,
                label: t(`review.queue.eligibility.${status}`),
              }))}
              onChange={(v) => onChange('eligibility', v)}
            />
            <FilterSelect
              label={t('review.queue.filters.paid')}
              value={value('paid')}
              anyLabel={any}
              options={yesNo}
              onChange={(v) => onChange('paid', v)}
            />
            <FilterSelect
              label={t('review.queue.filters.submitted_by_staff')}
              value={value('submitted_by_staff')}
              anyLabel={any}
              options={yesNo}
              onChange={(v) => onChange('submitted_by_staff', v)}
            />
            <FilterInput
              label={t('review.queue.filters.submitted_from')}
              type="date"
              value={value('submitted_from')}
              onChange={(v) => onChange('submitted_from', v, true)}
            />
            <FilterInput
              label={t('review.queue.filters.submitted_to')}
              type="date"
              value={value('submitted_to')}
              onChange={(v) => onChange('submitted_to', v, true)}
            />
            <FilterInput
              label={t('review.queue.filters.score_min')}
              type="number"
              inputMode="numeric"
              min={0}
              max={SCORE_MAX}
              value={value('score_min')}
              onChange={(v) => onChange('score_min', v, true)}
            />
            <FilterInput
              label={t('review.queue.filters.score_max')}
              type="number"
              inputMode="numeric"
              min={0}
              max={SCORE_MAX}
              value={value('score_max')}
              onChange={(v) => onChange('score_max', v, true)}
            />
            <FilterSelect
              label={t('review.queue.filters.assigned_to')}
              value={value('assigned_to')}
              anyLabel={any}
              options={[
                { value: 'me', label: t('review.queue.filters.assigned_me') },
                { value: 'none', label: t('review.queue.filters.assigned_none') },
                ...named(options?.reviewers.filter((reviewer) => reviewer.id !== options.me)),
              ]}
              onChange={(v) => onChange('assigned_to', v)}
            />
          </div>
          {activeCount > 0 && (
            <button type="button" className="btn-secondary self-start" onClick={onClear}>
              {t('review.queue.filters.clear')}
            </button>
          )}
        </div>
      </details>
    </div>
  );
}
