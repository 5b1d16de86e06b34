import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ReviewOptions, ReviewQueueQuery, ReviewQueueRow } from '@kaminuza/shared';
import { paths } from '../../../app/paths.ts';
import { DecisionBadge, StatusBadge, useReviewFormats, useStageName } from './review-parts.tsx';

const th = 'px-3 py-2 text-left text-sm font-semibold whitespace-nowrap';
const td = 'px-3 py-2 align-top text-sm';

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
  const format = useReviewFormats();
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
      <table className="w-full min-w-[60rem] divide-y divide-border">
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
            <th scope="col" className={th}>
              {t('review.queue.columns.decision')}
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
            <tr key={row.id} className={selected.has(row.id) ? 'bg-surface-muted' : undefined}>
              <td className={td}>
                <input
                  type="checkbox"
                  className="size-5 accent-brand"
                  aria-label={t('review.queue.select_row', { reference: row.reference })}
                  checked={selected.has(row.id)}
                  onChange={(event) => onSelect([row.id], event.target.checked)}
                />
              </td>
              <th scope="row" className={`${td} text-left font-mono font-medium whitespace-nowrap`}>
                <Link to={paths.partner.application(row.id)} state={{ queueSearch: search }} className="link">
                  {row.reference}
                </Link>
              </th>
              {!blind && (
                <td className={`${td} [overflow-wrap:anywhere]`}>
                  {row.applicant_name || <span className="text-muted">{t('review.queue.no_name')}</span>}
                </td>
              )}
              <td className={td}>
                <span className="block">{row.program_name ?? '—'}</span>
                <span className="block text-muted">
                  {[row.campus_name, row.cycle_name].filter(Boolean).join(' · ')}
                </span>
              </td>
              <td className={`${td} whitespace-nowrap`}>
                <span className="block">{format.date(row.submitted_at)}</span>
                {row.submitted_by_staff && <span className="block text-muted">{t('review.queue.by_staff')}</span>}
              </td>
              <td className={td}>
                <span className="flex flex-col items-start gap-1">
                  <StatusBadge status={row.status} />
                  {row.stage_id !== null && <span className="text-muted">{stageName(row.stage_id)}</span>}
                </span>
              </td>
              <td className={`${td} whitespace-nowrap`}>
                {row.score_average === null ? (
                  <span className="text-muted">{t('review.queue.not_scored')}</span>
                ) : (
                  <>
                    <span className="block font-semibold">{format.score(row.score_average)}</span>
                    <span className="block text-muted">
                      {t('review.queue.score_count', { count: row.score_count })}
                    </span>
                  </>
                )}
              </td>
              <td className={td}>
                {row.decision ? (
                  <DecisionBadge decision={row.decision} />
                ) : (
                  <span className="text-muted">{t('review.queue.no_decision')}</span>
                )}
              </td>
              <td className={td}>
                {row.assigned_to ? (
                  row.assigned_to.id === options?.me ? (
                    t('review.queue.assigned_you')
                  ) : (
                    row.assigned_to.name
                  )
                ) : (
                  <span className="text-muted">{t('review.queue.unassigned')}</span>
                )}
              </td>
              <td className={`${td} whitespace-nowrap`}>{t(row.paid ? 'review.queue.paid' : 'review.queue.unpaid')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
