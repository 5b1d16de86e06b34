import {
  QUEUE_DEFAULT_PAGE_SIZE,
  ReviewQueueQuerySchema,
  type ReviewQueueQuery,
  type ReviewQueueQueryInput,
} from '@kaminuza/shared';

/** The queue's filters, named in the page's address as the API names them. */
export const FILTER_KEYS = [
  'q',
  'cycle_id',
  'program_id',
  'campus_id',
  'stage',
  'decision',
  'release',
  'paid',
  'submitted_by_staff',
  'submitted_from',
  'submitted_to',
  'score_min',
  'score_max',
  'assigned_to',
  'eligibility',
] as const satisfies ReadonlyArray<keyof ReviewQueueQueryInput>;
export type FilterKey = (typeof FILTER_KEYS)[number];

const QUERY_KEYS = [...FILTER_KEYS, 'sort', 'order', 'page', 'page_size'] as const;
type QueryKey = (typeof QUERY_KEYS)[number];

const DEFAULTS: Partial<Record<QueryKey, string>> = {
  sort: 'submitted_at',
  order: 'desc',
  page: '1',
  page_size: String(QUEUE_DEFAULT_PAGE_SIZE),
};

/**
 * The queue's query from the page's address. Each value is checked on its own against the API's schema and
 * a value it would refuse is dropped, so a tampered or outdated link still shows a queue.
 */
export function readQueue(params: URLSearchParams): ReviewQueueQuery {
  const shape = ReviewQueueQuerySchema.shape;
  const valid: Record<string, string> = {};
  for (const key of QUERY_KEYS) {
    const value = params.get(key);
    if (value === null || value.trim() === '') continue;
    if (shape[key].safeParse(value).success) valid[key] = value;
  }
  return ReviewQueueQuerySchema.parse(valid);
}

/** A query value as the address and the API write it. */
function written(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

/**
 * The query string the API takes for `query`, without the defaults (so equal queues share one cache
 * entry). The CSV export takes every matching row: no page, no page size.
 */
export function queueQueryString(query: ReviewQueueQuery, { forExport = false } = {}): string {
  const out = new URLSearchParams();
  for (const key of QUERY_KEYS) {
    if (forExport && (key === 'page' || key === 'page_size')) continue;
    const value = written(query[key]);
    if (value !== undefined && value !== DEFAULTS[key]) out.set(key, value);
  }
  return out.toString();
}

/**
 * The address after setting (or, with undefined, clearing) one value. Any change but the page's
 * itself goes back to the first page: the old page number means nothing in a new list.
 */
export function withQueueParam(params: URLSearchParams, key: QueryKey, value: string | undefined): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value === undefined || value === '' || value === DEFAULTS[key]) next.delete(key);
  else next.set(key, value);
  if (key !== 'page') next.delete('page');
  return next;
}

/** The address after choosing a column to sort by: the same column again turns the order around. */
export function withSort(params: URLSearchParams, sort: ReviewQueueQuery['sort']): URLSearchParams {
  const current = readQueue(params);
  // Dates and scores read best newest and highest first; names and references from A.
  const firstOrder = sort === 'name' || sort === 'reference' ? 'asc' : 'desc';
  const order = current.sort === sort ? (current.order === 'asc' ? 'desc' : 'asc') : firstOrder;
  return withQueueParam(withQueueParam(params, 'sort', sort), 'order', order);
}

/** Whether any filter or search narrows the queue (its empty state then says nothing matches). */
export function isFiltered(query: ReviewQueueQuery): boolean {
  return FILTER_KEYS.some((key) => written(query[key]) !== undefined);
}

/** The address without any filter, keeping the sort and the page size. */
export function withoutFilters(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of [...FILTER_KEYS, 'page']) next.delete(key);
  return next;
}
