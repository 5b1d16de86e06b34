import { useCallback, useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { QUEUE_PAGE_SIZES, type ReviewQueueQuery } from '@kaminuza/shared';
import { FormAlert } from '../../../components/form/field.tsx';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { useSession } from '../../../lib/session.tsx';
import { useReviewOptions } from '../api/get-review-options.ts';
import { reviewExportUrl, useReviewQueue } from '../api/get-review-queue.ts';
import { BulkActions, type BulkOutcome } from './bulk-actions.tsx';
import { QueueFilters } from './queue-filters.tsx';
import {
  FILTER_KEYS,
  isFiltered,
  queueQueryString,
  readQueue,
  withoutFilters,
  withQueueParam,
  withSort,
  type FilterKey,
} from './queue-query.ts';
import { QueueTable } from './queue-table.tsx';

/** Previous and next, the page's place, and how many rows a page shows. */
function Pager({
  query,
  total,
  onPage,
  onPageSize,
}: {
  query: ReviewQueueQuery;
  total: number;
  onPage: (page: number) => void;
  onPageSize: (size: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const pages = Math.max(1, Math.ceil(total / query.page_size));
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="text-sm font-medium">
          {t('review.queue.page_size')}
        </label>
        <select
          id={id}
          className="field-input w-auto"
          value={query.page_size}
          onChange={(event) => onPageSize(event.target.value)}
        >
          {QUEUE_PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      {pages > 1 && (
        <nav aria-label={t('review.queue.pagination')} className="flex items-center gap-2">
          <button
            type="button"
            className="btn-secondary"
            disabled={query.page <= 1}
            onClick={() => onPage(query.page - 1)}
          >
            {t('review.queue.previous')}
          </button>
          <span className="text-sm">{t('review.queue.page_of', { page: query.page, pages })}</span>
          <button
            type="button"
            className="btn-secondary"
            disabled={query.page >= pages}
            onClick={() => onPage(query.page + 1)}
          >
            {t('review.queue.next')}
          </button>
        </nav>
      )}
    </div>
  );
}

/** The review queue: the institution's submitted applications, filtered, sorted and paged from the address. */
export function ReviewQueuePage() {
  const { t } = useTranslation();
  const { session } = useSession();
  const partnerId = session.status === 'signed-in' ? (session.user.partner_id ?? '') : '';
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readQueue(params), [params]);
  const queryString = queueQueryString(query);
  const options = useReviewOptions(partnerId);
  const queue = useReviewQueue(partnerId, queryString);
  const [selection, setSelection] = useState<{ query: string; ids: ReadonlySet<string> }>({
    query: '',
    ids: new Set(),
  });
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  // A selection belongs to the list it was made in: another filter, sort or page starts afresh.
  const selected = selection.query === queryString ? selection.ids : new Set<string>();
  const activeCount = FILTER_KEYS.filter((key) => key !== 'q' && params.get(key)).length;

  const change = useCallback(
    (key: FilterKey | 'page' | 'page_size', value: string | undefined, replace = false) => {
      setOutcome(null);
      setParams((current) => withQueueParam(current, key, value), { replace });
    },
    [setParams],
  );
  const select = (ids: string[], checked: boolean) => {
    const next = new Set(selected);
    for (const id of ids) {
      if (checked) next.add(id);
      else next.delete(id);
    }
    setSelection({ query: queryString, ids: next });
  };

  let body;
  if (queue.isError && !queue.data) {
    body = <LoadError error={queue.error} retryLabel={t('review.retry')} onRetry={() => void queue.refetch()} />;
  } else if (!queue.data) {
    body = <SkeletonTable rows={Math.min(query.page_size, 8)} columns={8} />;
  } else if (queue.data.items.length === 0) {
    body = isFiltered(query) ? (
      <EmptyState
        title={t('review.queue.no_match_title')}
        text={t('review.queue.no_match_text')}
        action={
          <button type="button" className="btn-secondary" onClick={() => setParams(withoutFilters(params))}>
            {t('review.queue.filters.clear')}
          </button>
        }
      />
    ) : (
      <EmptyState title={t('review.queue.empty_title')} text={t('review.queue.empty_text')} />
    );
  } else {
    body = (
      <>
        {queue.isError && (
          <LoadError error={queue.error} retryLabel={t('review.retry')} onRetry={() => void queue.refetch()} />
        )}
        <QueueTable
          rows={queue.data.items}
          query={query}
          options={options.data}
          selected={selected}
          busy={queue.isFetching}
          onSelect={select}
          onSort={(sort) => {
            setOutcome(null);
            setParams(withSort(params, sort));
          }}
        />
        <Pager
          query={query}
          total={queue.data.total}
          onPage={(page) => change('page', String(page))}
          onPageSize={(size) => change('page_size', size)}
        />
      </>
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-7xl min-w-0 flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('review.queue.title')}</h1>
          <p className="text-muted">{t('review.queue.intro')}</p>
        </div>
        {partnerId && (
          <a
            className="btn-secondary"
            href={reviewExportUrl(partnerId, queueQueryString(query, { forExport: true }))}
            download
          >
            {t('review.queue.export')}
          </a>
        )}
      </div>

      {options.isError && (
        <LoadError error={options.error} retryLabel={t('review.retry')} onRetry={() => void options.refetch()} />
      )}
      <QueueFilters
        params={params}
        options={options.data}
        activeCount={activeCount}
        onChange={change}
        onClear={() => setParams(withoutFilters(params))}
      />

      <div aria-live="polite" className="flex flex-col gap-2">
        {queue.data && <p className="text-sm text-muted">{t('review.queue.results', { count: queue.data.total })}</p>}
        {outcome && (
          <FormAlert tone="success">
            {outcome.kind === 'updated'
              ? t('review.bulk.updated', { count: outcome.count })
              : t('review.bulk.release_result', {
                  released: outcome.released,
                  scheduled: outcome.scheduled,
                  skipped: outcome.skipped,
                })}
          </FormAlert>
        )}
      </div>

      {selected.size > 0 && options.data && (
        <BulkActions
          partnerId={partnerId}
          options={options.data}
          selectedIds={[...selected]}
          onDone={(result) => {
            setSelection({ query: queryString, ids: new Set() });
            setOutcome(result);
          }}
        />
      )}

      {body}
    </div>
  );
}
