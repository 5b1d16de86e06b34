import {
  CAMPUS_SETTINGS,
  CATALOGUE_SORTS,
  DEADLINE_OPEN,
  INSTITUTION_SIZES,
  INSTITUTION_TYPES,
  isCountryCode,
  REGIONS,
  STUDY_FIELDS,
} from '@kaminuza/shared';

const DAY_MS = 86_400_000;

/** The multi-valued filters and their vocabulary group in the `catalogue` texts. */
export const MULTI_FILTERS = [
  { name: 'type', values: INSTITUTION_TYPES, group: 'types' },
  { name: 'field', values: STUDY_FIELDS, group: 'fields' },
  { name: 'region', values: REGIONS, group: 'regions' },
  { name: 'size', values: INSTITUTION_SIZES, group: 'sizes' },
  { name: 'setting', values: CAMPUS_SETTINGS, group: 'settings' },
] as const;

/** The page keeps "within N days" in its address, so a saved link stays relative to the day it is opened. */
export const DEADLINE_CHOICES = [
  { value: DEADLINE_OPEN, key: 'explore.deadline_open' },
  { value: '30', key: 'explore.deadline_30' },
  { value: '90', key: 'explore.deadline_90' },
] as const;

export const FILTER_NAMES = [
  'q',
  'type',
  'field',
  'region',
  'country',
  'size',
  'setting',
  'tuition_min',
  'tuition_max',
  'deadline',
  'eligible',
];

const isWhole = (value: string | null): value is string => value !== null && /^\d{1,9}$/.test(value);

/** Results a page holds in low-data mode: half the usual, so a page on 2G comes in half the time. */
export const LOW_DATA_PAGE_SIZE = 10;

/**
 * The API's query string from the page's address, keeping only values the API accepts; with a page
 * size when it is not the API's default (low-data mode).
 */
export function apiQuery(params: URLSearchParams, today: Date, pageSize?: number): string {
  const out = new URLSearchParams();
  const q = params.get('q')?.trim();
  if (q) out.set('q', q.slice(0, 100));
  for (const filter of MULTI_FILTERS) {
    for (const value of params.getAll(filter.name)) {
      if ((filter.values as readonly string[]).includes(value)) out.append(filter.name, value);
    }
  }
  const country = params.get('country')?.trim().toUpperCase();
  if (country && isCountryCode(country)) out.set('country', country);
  const min = params.get('tuition_min');
  const max = params.get('tuition_max');
  if (isWhole(min)) out.set('tuition_min', min);
  if (isWhole(max) && !(isWhole(min) && Number(min) > Number(max))) out.set('tuition_max', max);
  const deadline = params.get('deadline');
  if (deadline === DEADLINE_OPEN) out.set('deadline', DEADLINE_OPEN);
  else if (deadline === '30' || deadline === '90') {
    out.set('deadline', new Date(today.getTime() + Number(deadline) * DAY_MS).toISOString().slice(0, 10));
  }
  if (params.get('saved') === 'true') out.set('saved', 'true');
  if (params.get('eligible') === 'true') out.set('eligible', 'true');
  const sort = params.get('sort');
  if (sort && (CATALOGUE_SORTS as readonly string[]).includes(sort)) out.set('sort', sort);
  const page = params.get('page');
  if (isWhole(page) && Number(page) > 1) out.set('page', page);
  if (pageSize !== undefined) out.set('page_size', String(pageSize));
  return out.toString();
}
