import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ReviewOptions, ReviewQueueQuery, ReviewQueueRow } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { Badge, DecisionBadge, StatusBadge, useReviewFormats, useStageName } from './review-parts.tsx';

/* Dense: one line per row, cells never wrap (long texts are cut with an ellipsis instead). */
const th = 'px-1.5 py-1 text-left text-[0.8125rem] font-semibold whitespace-nowrap';
const td = 'px-1.5 py-2 text-[0.8125rem] whitespace-nowrap';

type Sort = ReviewQueueQuery['sort'];

/** A column heading that sorts the queue, announcing the current order with aria-sort. */
function SortHeading({
  label,
  column,
  query,
  onSort,
}: {
  label: string;
  column: Sort;
  query: ReviewQueueQuery;
  onSort: (sort: Sort) => void;
}) {
  const { t } = useTranslation();
  const active = query.sort === column;
  const direction = query.order === 'asc' ? 'ascending' : 'descending';
  return (
    <th scope="col" className={th} aria-sort={active ? direction : 'none'}>
      <button
        type="button"
        className="inline-flex min-h-11 items-center gap-1 font-semibold hover:text-brand"
        onClick={() => onSort(column)}
      >
        {label}
        <span aria-hidden="true" className={active ? 'text-brand' : 'text-muted'}>
          {active ? (query.order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
        <span className="sr-only">{t('review.queue.sort_by', { column: label })}</span>
      </button>
    </th>
  );
}

function SelectAll({
  rows,
  selected,
  onChange,
}: {
  rows: readonly ReviewQueueRow[];
  selected: ReadonlySet<string>;
  onChange: (ids: string[], checked: boolean) => void;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLInputElement>(null);
  const count = rows.filter((row) => selected.has(row.id)).length;
  useEffect(() => {
    if (box.current) box.current.indeterminate = count > 0 && count < rows.length;
  }, [count, rows.length]);
  return (
    <input
      ref={box}
      type="checkbox"
      className="size-5 accent-brand"
      aria-label={t('review.queue.select_all')}
      checked={rows.length > 0 && count === rows.length}
      onChange={(event) =>
        onChange(
          rows.map((row) => row.id),
          event.target.checked,
        )
      }
    />
  );
}

/** Whether the element's text is cut by its ellipsis, followed as the column's width changes. */
function useTruncated<T extends HTMLElement>(text: string) {
  const ref = useRef<T>(null);
  const [truncated, setTruncated] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const check = () => setTruncated(element.scrollWidth > element.clientWidth + 1);
    check();
    // Every browser has it; a test's DOM without layout may not, and has no widths to follow anyway.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(check);
    observer.observe(element);
    return () => observer.disconnect();
  }, [text]);
  return { ref, truncated };
}

/** Text kept to one line, cut with an ellipsis when the column is narrower. */
function OneLine({ children, className = '', title }: { children: ReactNode; className?: string; title?: string }) {
  return (
    <span className={`block truncate ${className}`} title={title}>
      {children}
    </span>
  );
}

/** A dash for "none" in a narrow column (in some languages the words would widen it); the words for screen readers and on hover. */
function Absent({ label }: { label: string }) {
  return (
    <span className="text-muted" title={label}>
      <span aria-hidden="true">—</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Referees' letters arrived of those invited: "1/2" in the narrow column, the sentence on hover and for screen readers. */
function LettersCount({ received, invited }: { received: number; invited: number }) {
  const { t } = useTranslation();
  const format = useReviewFormats();
  const sentence = t('review.referees.letters', { received, count: invited });
  return (
    <span title={sentence}>
      <span aria-hidden="true" className={received < invited ? undefined : 'font-semibold'}>
        {format.score(received)}/{format.score(invited)}
      </span>
      <span className="sr-only">{sentence}</span>
    </span>
  );
}

const ELIGIBILITY_TONE = { eligible: 'good', needs_review: 'warn', not_eligible: 'bad' } as const;

/** Whether the applicant met the program's entry requirements when they submitted. */
function EligibilityMark({ status }: { status: NonNullable<ReviewQueueRow['eligibility']>['status'] }) {
  const { t } = useTranslation();
  return <Badge tone={ELIGIBILITY_TONE[status]}>{t(`review.queue.eligibility.${status}`)}</Badge>;
}

/** Marks an application a member submitted for the applicant, in a word (screen readers hear the sentence). */
function StaffMark({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`shrink-0 ${className}`}>
      <Badge tone="muted">
        <span aria-hidden="true">{t('review.queue.by_staff_short')}</span>
        <span className="sr-only">{t('review.queue.by_staff')}</span>
      </Badge>
    </span>
  );
}

/**
 * One application. Its program is kept to one line; when that cuts it, the full name shows in a tooltip
 * while the pointer is over it or while keyboard focus is anywhere in the row (its checkbox or link, so
 * no extra tab stop), and Escape hides it without moving focus (WCAG 1.4.13).
 */
function QueueRow({
  row,
  selected,
  blind,
  me,
  stageName,
  queueSearch,
  onSelect,
}: {
  row: ReviewQueueRow;
  selected: boolean;
  blind: boolean;
  me: string | undefined;
  stageName: (stageId: string | null) => string;
  queueSearch: string;
  onSelect: (ids: string[], checked: boolean) => void;
}) {
  const { t } = useTranslation();
  const format = useReviewFormats();
  const tooltipId = useId();
  const program = [row.program_name ?? '—', row.campus_name].filter(Boolean).join(' · ');
  const fullProgram = [row.program_name ?? '—', row.campus_name, row.cycle_name].filter(Boolean).join(' · ');
  const { ref, truncated } = useTruncated<HTMLSpanElement>(program);
  const [focused, setFocused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const shown = truncated && (focused || hovered) && !dismissed;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && shown) {
      event.stopPropagation();
      setDismissed(true);
    }
  };

  return (
    <tr
      className={selected ? 'bg-surface-muted' : undefined}
      onFocus={() => {
        setFocused(true);
        setDismissed(false);
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
      onKeyDown={onKeyDown}
    >
      <td className={td}>
        <input
          type="checkbox"
          className="size-5 align-middle accent-brand"
          aria-label={t('review.queue.select_row', { reference: row.reference })}
          checked={selected}
          onChange={(event) => onSelect([row.id], event.target.checked)}
        />
      </td>
      <th scope="row" className={`${td} text-left font-mono font-medium`}>
        <Link
          to={paths.partner.application(row.id)}
          state={{ queueSearch }}
          className="link"
          aria-describedby={shown ? tooltipId : undefined}
        >
          {row.reference}
        </Link>
        {/* A blind reviewer has no applicant column: the reference carries the mark instead. */}
        {blind && row.submitted_by_staff && <StaffMark className="ms-1 font-sans" />}
      </th>
      {!blind && (
        <td className={td}>
          <span className="flex max-w-[7rem] items-center gap-1">
            <OneLine className="min-w-0" title={row.applicant_name || undefined}>
              {row.applicant_name || <span className="text-muted">{t('review.queue.no_name')}</span>}
            </OneLine>
            {row.submitted_by_staff && <StaffMark />}
          </span>
        </td>
      )}
      {/* The one column that takes what the others leave: max-w-0 with w-full lets it shrink to fit. */}
      <td
        className={`${td} relative w-full max-w-0 min-w-[5rem]`}
        data-truncated={truncated ? fullProgram : undefined}
        onMouseEnter={() => {
          setHovered(true);
          setDismissed(false);
        }}
        onMouseLeave={() => setHovered(false)}
      >
        <span ref={ref} className="block truncate" title={truncated ? undefined : fullProgram}>
          {row.program_name ?? '—'}
          {row.campus_name && <span className="text-muted"> · {row.campus_name}</span>}
          {row.cycle_name && <span className="sr-only"> · {row.cycle_name}</span>}
        </span>
        {shown && (
          <span
            role="tooltip"
            id={tooltipId}
            className="absolute start-1 bottom-full z-10 mb-0.5 w-max max-w-[min(28rem,80vw)] rounded-md border border-border bg-surface px-2 py-1 text-sm whitespace-normal text-fg shadow-lg"
          >
            {fullProgram}
          </span>
        )}
      </td>
      <td className={td}>{format.date(row.submitted_at)}</td>
      <td className={td}>
        {/*
         * One status: a decision drafted or released says most, then the custom stage an application under
         * review is in (a stage is only ever set while under review), then the status. Screen readers hear
         * the status the badge stands for.
         */}
        {row.decision && !row.decision.released ? (
          <span className="flex items-center gap-1">
            <span className="sr-only">{t('review.status.under_review')}, </span>
            <DecisionBadge decision={row.decision} />
          </span>
        ) : row.stage_id !== null && row.status === 'under_review' ? (
          <Badge tone="neutral">
            <span className="sr-only">{t('review.status.under_review')}: </span>
            <span className="inline-block max-w-[7rem] truncate align-bottom">{stageName(row.stage_id)}</span>
          </Badge>
        ) : (
          <StatusBadge status={row.status} />
        )}
      </td>
      <td className={td}>
        {row.score_average === null ? (
          <Absent label={t('review.queue.not_scored')} />
        ) : (
          <>
            <span className="font-semibold">{format.score(row.score_average)}</span>{' '}
            <span aria-hidden="true" className="text-muted">
              ({row.score_count})
            </span>
            <span className="sr-only">{t('review.queue.score_count', { count: row.score_count })}</span>
          </>
        )}
      </td>
      <td className={td}>
        {row.eligibility ? (
          // The examination and aggregate it was read on, on hover and for screen readers: the column stays narrow.
          <span
            title={
              row.eligibility.exam && row.eligibility.aggregate !== null
                ? `${row.eligibility.exam} ${format.score(row.eligibility.aggregate)}`
                : undefined
            }
          >
            <EligibilityMark status={row.eligibility.status} />
            {row.eligibility.exam && row.eligibility.aggregate !== null && (
              <span className="sr-only">
                {' '}
                {row.eligibility.exam} {format.score(row.eligibility.aggregate)}
              </span>
            )}
          </span>
        ) : (
          <Absent label={t('review.queue.eligibility.none')} />
        )}
      </td>
      <td className={td}>
        {row.letters ? (
          <LettersCount received={row.letters.received} invited={row.letters.invited} />
        ) : (
          <Absent label={t('review.referees.no_letters')} />
        )}
      </td>
      <td className={td}>
        {row.assigned_to ? (
          <OneLine className="max-w-[5rem]" title={row.assigned_to.name}>
            {row.assigned_to.id === me ? t('review.queue.assigned_you') : row.assigned_to.name}
          </OneLine>
        ) : (
          <Absent label={t('review.queue.unassigned')} />
        )}
      </td>
      <td className={td}>
        {row.paid ? t('review.queue.paid') : row.waived ? t('waivers.fee_waived') : t('review.queue.unpaid')}
      </td>
    </tr>
  );
}

/**
 * The queue's page of applications. On narrow screens the table scrolls sideways inside its own
 * focusable region, so the page itself never does.
 */
export function QueueTable({
  rows,
  query,
  options,
  selected,
  busy,
  onSelect,
  onSort,
}: {
  rows: readonly ReviewQueueRow[];
  query: ReviewQueueQuery;
  options: ReviewOptions | undefined;
  selected: ReadonlySet<string>;
  busy: boolean;
  onSelect: (ids: string[], checked: boolean) => void;
  onSort: (sort: Sort) => void;
}) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const stageName = useStageName(options?.stages);
  const blind = options?.blind ?? false;
  const caption = t('review.queue.caption');

  return (
    <div
      role="region"
      aria-label={caption}
      aria-busy={busy}
      tabIndex={0}
      className="relative max-w-full overflow-x-auto rounded-xl border border-border bg-surface"
    >
      {/* A bar, not dimmed rows, while the next page loads: the text keeps its contrast. */}
      {busy && <div aria-hidden="true" className="absolute inset-x-0 top-0 h-1 animate-pulse bg-brand" />}
      <table className="w-full min-w-[56rem] divide-y divide-border">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-surface-muted">
          <tr>
            <th scope="col" className={`${th} w-10`}>
              <SelectAll rows={rows} selected={selected} onChange={onSelect} />
            </th>
            <SortHeading label={t('review.queue.columns.reference')} column="reference" query={query} onSort={onSort} />
            {!blind && (
              <SortHeading label={t('review.queue.columns.applicant')} column="name" query={query} onSort={onSort} />
            )}
            <th scope="col" className={th}>
              {t('review.queue.columns.program')}
            </th>
            <SortHeading
              label={t('review.queue.columns.submitted')}
              column="submitted_at"
              query={query}
              onSort={onSort}
            />
            <th scope="col" className={th}>
              {t('review.queue.columns.status')}
            </th>
            <SortHeading label={t('review.queue.columns.score')} column="score" query={query} onSort={onSort} />
            <SortHeading
              label={t('review.queue.columns.eligibility')}
              column="eligibility"
              query={query}
              onSort={onSort}
            />
            <th scope="col" className={th}>
              {t('review.queue.columns.letters')}
            </th>
            <th scope="col" className={th}>
              {t('review.queue.columns.assigned_to')}
            </th>
            <th scope="col" className={th}>
              {t('review.queue.columns.paid')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {rows.map((row) => (
            <QueueRow
              key={row.id}
              row={row}
              selected={selected.has(row.id)}
              blind={blind}
              me={options?.me}
              stageName={stageName}
              queueSearch={search}
              onSelect={onSelect}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
