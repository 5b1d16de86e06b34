import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { adminMessageKey } from '@kaminuza/shared';
import { countryNamer } from '../../../lib/countries.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { dateTimeFormat, numberFormat } from '../../../lib/intl.ts';

const SEARCH_DELAY_MS = 300;

/** The text of a search box, and the same text once the person has stopped typing for a moment. */
export function useDebouncedSearch(): [string, string, (value: string) => void] {
  const [text, setText] = useState('');
  const [settled, setSettled] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return [text, settled, setText];
}

export function SearchBox({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1.5">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <input
        id={id}
        type="search"
        className="field-input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

export function StatusFilter<S extends string>({
  statuses,
  value,
  onChange,
  labelOf,
}: {
  statuses: readonly S[];
  value: S | '';
  onChange: (value: S | '') => void;
  labelOf: (status: S) => string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5 sm:w-52">
      <label htmlFor={id} className="font-medium">
        {t('admin.list.status')}
      </label>
      <select id={id} className="field-input" value={value} onChange={(e) => onChange(e.target.value as S | '')}>
        <option value="">{t('admin.list.all_statuses')}</option>
        {statuses.map((status) => (
          <option key={status} value={status}>
            {labelOf(status)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "12 results", then previous/next when there is more than one page. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <p role="status" className="text-sm text-muted">
        {t('admin.list.results', { count: total })}
      </p>
      {pages > 1 && (
        <nav aria-label={t('admin.list.pagination')} className="flex items-center gap-2">
          <button type="button" className="btn-secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            {t('admin.list.previous')}
          </button>
          <span className="text-sm">{t('admin.list.page_of', { page, pages })}</span>
          <button type="button" className="btn-secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            {t('admin.list.next')}
          </button>
        </nav>
      )}
    </div>
  );
}

/** The translation key for a failed admin call: the admin screens' own messages first. */
export function adminErrorKey(error: unknown): string {
  if (error instanceof ApiError) {
    const own = adminMessageKey(error.message);
    if (own) return `admin.errors.${own}`;
  }
  return errorMessageKey(error);
}

export function SectionError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border border-danger p-4">
      <p className="font-medium text-danger">{t('admin.load_error')}</p>
      <p className="text-sm">{t(adminErrorKey(error))}</p>
      <button type="button" className="btn-secondary" onClick={onRetry}>
        {t('admin.retry')}
      </button>
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="rounded-xl border border-dashed border-border p-6 text-center text-muted">{children}</p>;
}

/**
 * A table that scrolls sideways on narrow screens. The region is focusable so keyboard users can
 * scroll it too.
 */
export function TableScroller({ label, busy, children }: { label: string; busy: boolean; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      aria-busy={busy}
      tabIndex={0}
      className={`overflow-x-auto rounded-xl border border-border bg-surface ${busy ? 'opacity-70' : ''}`}
    >
      {children}
    </div>
  );
}

export const th = 'px-3 py-2 text-left text-sm font-semibold whitespace-nowrap';
export const td = 'px-3 py-2 align-top text-sm';

const STATUS_TONE: Record<string, string> = {
  pending: 'border-amber-600 text-amber-800 dark:text-amber-300',
  approved: 'border-green-700 text-green-800 dark:text-green-300',
  accepted: 'border-green-700 text-green-800 dark:text-green-300',
  rejected: 'border-red-700 text-red-800 dark:text-red-300',
  suspended: 'border-border text-fg',
};

export function StatusBadge({ status, label }: { status: string; label: string }) {
  return (
    <span
      className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${STATUS_TONE[status] ?? 'border-border text-fg'}`}
    >
      {label}
    </span>
  );
}

/** Dates, numbers and country names in the reader's language. */
export function useFormats() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  return useMemo(() => {
    const date = dateTimeFormat(language, { dateStyle: 'medium' });
    const dateTime = dateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    const number = numberFormat(language);
    return {
      date: (iso: string) => date.format(new Date(iso)),
      dateTime: (iso: string) => dateTime.format(new Date(iso)),
      /** A calendar day (`YYYY-MM-DD`, UTC) as the reader writes it. */
      day: (day: string) => date.format(new Date(`${day}T12:00:00Z`)),
      number: (value: number) => number.format(value),
      country: countryNamer(language),
    };
  }, [language]);
}

const LIST_PAGE_SIZE = 20;

/** A searchable, status-filtered, paged list's state; a new search or filter goes back to the first page. */
export function useListFilters<S extends string>() {
  const [text, q, setText] = useDebouncedSearch();
  const [status, setStatus] = useState<S | ''>('');
  const [page, setPage] = useState(1);
  return {
    text,
    status,
    page,
    setPage,
    filtered: Boolean(q || status),
    search: (value: string) => {
      setText(value);
      setPage(1);
    },
    filter: (value: S | '') => {
      setStatus(value);
      setPage(1);
    },
    params: { q: q || undefined, status: status || undefined, page, page_size: LIST_PAGE_SIZE },
  };
}

interface ListQuery<T> {
  data?: { items: T[]; total: number };
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * An admin list section: its heading, a search box and a status filter above a paged table, with the
 * loading, error, empty and no-match states.
 */
export function FilteredListSection<S extends string, T>({
  id,
  title,
  searchLabel,
  statuses,
  statusLabel,
  filters,
  query,
  emptyText,
  noMatchText,
  headings,
  tableClassName,
  row,
}: {
  id: string;
  title: string;
  searchLabel: string;
  statuses: readonly S[];
  statusLabel: (status: S) => string;
  filters: ReturnType<typeof useListFilters<S>>;
  query: ListQuery<T>;
  emptyText: string;
  noMatchText: string;
  headings: string[];
  tableClassName: string;
  row: (item: T) => ReactNode;
}) {
  let body: ReactNode;
  if (query.isError) {
    body = <SectionError error={query.error} onRetry={() => void query.refetch()} />;
  } else if (!query.data) {
    body = <SkeletonTable rows={6} columns={headings.length} />;
  } else if (query.data.items.length === 0) {
    body = <EmptyState>{filters.filtered ? noMatchText : emptyText}</EmptyState>;
  } else {
    body = (
      <>
        <TableScroller label={title} busy={query.isFetching}>
          <table className={`w-full divide-y divide-border ${tableClassName}`}>
            <thead className="bg-surface-muted">
              <tr>
                {headings.map((heading) => (
                  <th key={heading} scope="col" className={th}>
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-border">{query.data.items.map(row)}</tbody>
          </table>
        </TableScroller>
        <Pager
          page={filters.page}
          pageSize={filters.params.page_size}
          total={query.data.total}
          onPage={filters.setPage}
        />
      </>
    );
  }

  return (
    <section aria-labelledby={id} className="flex flex-col gap-4">
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <SearchBox label={searchLabel} value={filters.text} onChange={filters.search} />
        <StatusFilter statuses={statuses} value={filters.status} labelOf={statusLabel} onChange={filters.filter} />
      </div>
      {body}
    </section>
  );
}
