import {
  FINANCE_DEFAULT_PAGE_SIZE,
  FinanceQuerySchema,
  type FinanceQuery,
  type FinanceQueryInput,
} from '@kaminuza/shared';

/** The finance view's filters, named in the page's address as the API names them. */
export const FINANCE_FILTER_KEYS = [
  'q',
  'cycle_id',
  'provider',
  'method',
  'status',
  'currency',
  'needs_refund',
] as const satisfies ReadonlyArray<keyof FinanceQueryInput>;
export type FinanceFilterKey = (typeof FINANCE_FILTER_KEYS)[number];

const QUERY_KEYS = [...FINANCE_FILTER_KEYS, 'page', 'limit'] as const;
type QueryKey = (typeof QUERY_KEYS)[number];

/**
 * The query from the page's address. Each value is checked on its own against the API's schema and a
 * value it would refuse is dropped, so a tampered or outdated link still shows the payments.
 */
export function readFinanceQuery(params: URLSearchParams): FinanceQuery {
  const shape = FinanceQuerySchema.shape;
  const valid: Record<string, string> = {};
  for (const key of QUERY_KEYS) {
    const value = params.get(key);
    if (value === null || value.trim() === '') continue;
    if (shape[key].safeParse(value).success) valid[key] = value;
  }
  return FinanceQuerySchema.parse(valid);
}

/**
 * The query string the API takes for `query`, without the defaults (so equal lists share one cache
 * entry). The CSV export takes every matching row: no page, no limit.
 */
export function financeQueryString(query: FinanceQuery, { forExport = false } = {}): string {
  const out = new URLSearchParams();
  for (const key of FINANCE_FILTER_KEYS) {
    const value = query[key];
    if (value !== undefined && value !== '') out.set(key, String(value));
  }
  if (!forExport) {
    if (query.page !== 1) out.set('page', String(query.page));
    if (query.limit !== FINANCE_DEFAULT_PAGE_SIZE) out.set('limit', String(query.limit));
  }
  return out.toString();
}

/** The address with one value changed; any change but the page's own goes back to the first page. */
export function withFinanceParam(params: URLSearchParams, key: QueryKey, value: string | undefined): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value === undefined || value === '') next.delete(key);
  else next.set(key, value);
  if (key !== 'page') next.delete('page');
  return next;
}

export function withoutFinanceFilters(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of [...FINANCE_FILTER_KEYS, 'page']) next.delete(key);
  return next;
}

export const isFinanceFiltered = (query: FinanceQuery) =>
  FINANCE_FILTER_KEYS.some((key) => query[key] !== undefined && query[key] !== '');
