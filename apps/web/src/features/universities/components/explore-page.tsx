import { Fragment, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CATALOGUE_PAGE_SIZE_DEFAULT, CATALOGUE_SORTS } from '@kaminuza/shared';
import { useUniversities } from '../api/search-universities.ts';
import { UniversityCard } from './university-card.tsx';
import { apiQuery, DEADLINE_CHOICES, FILTER_NAMES, LOW_DATA_PAGE_SIZE, MULTI_FILTERS } from './explore-query.ts';
import { SkeletonCards } from '../../../components/list-states.tsx';
import { countryOptions } from '../../../lib/countries.ts';
import { useLowData } from '../../../lib/low-data.ts';

const SEARCH_DEBOUNCE_MS = 300;

/** A text kept in the address after the visitor pauses typing; the address wins when it changes (back, reload). */
function useDebouncedParam(name: string): [string, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const current = params.get(name) ?? '';
  const [text, setText] = useState(current);
  const [synced, setSynced] = useState(current);
  if (current !== synced) {
    setSynced(current);
    // Only a change made elsewhere replaces the text: a committed "kigali " keeps its trailing space.
    if (current !== text.trim()) setText(current);
  }
  useEffect(() => {
    if (text.trim() === current.trim()) return;
    const timer = setTimeout(() => {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          if (text.trim()) next.set(name, text.trim());
          else next.delete(name);
          next.delete('page');
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, current, name, setParams]);
  return [text, setText];
}

function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0 border-t border-border pt-3">
      <legend className="pr-2 text-sm font-semibold">{legend}</legend>
      <div className="mt-2 flex flex-col gap-1">{children}</div>
    </fieldset>
  );
}

/** One country, named in the visitor's language; the address keeps its code so a shared link keeps it. */
function CountryFilter({ value, onChange }: { value: string; onChange: (code: string) => void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const options = useMemo(() => countryOptions(lang), [lang]);
  return (
    <div className="flex min-w-0 flex-col gap-2 border-t border-border pt-3">
      <label htmlFor={id} className="text-sm font-semibold">
        {t('explore.country')}
      </label>
      <select id={id} className="field-input" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t('explore.country_any')}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Filters({ id, hidden }: { id: string; hidden: boolean }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [minText, setMin] = useDebouncedParam('tuition_min');
  const [maxText, setMax] = useDebouncedParam('tuition_max');
  const update = (change: (next: URLSearchParams) => void) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      change(next);
      next.delete('page');
      return next;
    });
  const toggle = (name: string, value: string, on: boolean) =>
    update((next) => {
      const values = next.getAll(name).filter((v) => v !== value);
      next.delete(name);
      for (const v of on ? [...values, value] : values) next.append(name, v);
    });
  const digits = (text: string) => text.replace(/\D/g, '').slice(0, 9);

  return (
    <div id={id} className={`${hidden ? 'hidden' : 'flex'} flex-col gap-4 md:flex`}>
      {/* Read on the examination results in the student's profile (issue 25). */}
      <label className="flex min-h-8 items-start gap-2 text-sm font-medium">
        <input
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 accent-brand"
          aria-describedby={`${id}-eligible-hint`}
          checked={params.get('eligible') === 'true'}
          onChange={(event) => {
            // Read now: the update runs after React has put the controlled box back.
            const on = event.target.checked;
            update((next) => {
              if (on) next.set('eligible', 'true');
              else next.delete('eligible');
            });
          }}
        />
        <span className="flex min-w-0 flex-col">
          <span className="break-words">{t('explore.eligible')}</span>
          <span id={`${id}-eligible-hint`} className="font-normal text-muted">
            {t('explore.eligible_hint')}
          </span>
        </span>
      </label>
      {MULTI_FILTERS.map((filter) => (
        <Fragment key={filter.name}>
          <Fieldset legend={t(`explore.${filter.name}`)}>
            {filter.values.map((value) => (
              <label key={value} className="flex min-h-8 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 shrink-0 accent-brand"
                  checked={params.getAll(filter.name).includes(value)}
                  onChange={(event) => toggle(filter.name, value, event.target.checked)}
                />
                <span className="min-w-0 break-words">{t(`catalogue.${filter.group}.${value}`)}</span>
              </label>
            ))}
          </Fieldset>
          {/* Region is the continent; the country comes right after it. */}
          {filter.name === 'region' && (
            <CountryFilter
              value={params.get('country')?.toUpperCase() ?? ''}
              onChange={(code) => update((next) => (code ? next.set('country', code) : next.delete('country')))}
            />
          )}
        </Fragment>
      ))}
      <Fieldset legend={t('explore.tuition')}>
        <div className="grid grid-cols-2 gap-2">
          <label className="flex min-w-0 flex-col gap-1 text-sm">
            {t('explore.tuition_min')}
            <input
              className="field-input"
              inputMode="numeric"
              value={minText}
              onChange={(event) => setMin(digits(event.target.value))}
            />
          </label>
          <label className="flex min-w-0 flex-col gap-1 text-sm">
            {t('explore.tuition_max')}
            <input
              className="field-input"
              inputMode="numeric"
              value={maxText}
              onChange={(event) => setMax(digits(event.target.value))}
            />
          </label>
        </div>
      </Fieldset>
      <Fieldset legend={t('explore.deadline')}>
        {[{ value: '', key: 'explore.deadline_any' }, ...DEADLINE_CHOICES].map((choice) => (
          <label key={choice.value} className="flex min-h-8 items-center gap-2 text-sm">
            <input
              type="radio"
              name="deadline"
              className="size-4 shrink-0 accent-brand"
              checked={(params.get('deadline') ?? '') === choice.value}
              onChange={() =>
                update((next) => (choice.value ? next.set('deadline', choice.value) : next.delete('deadline')))
              }
            />
            {t(choice.key)}
          </label>
        ))}
      </Fieldset>
    </div>
  );
}

/** Explore Universities: search, filters, the student's list, results page by page. State lives in the address. */
/** `conversations`: the student's conversations with universities, shown above the search when given. */
export function ExplorePage({ conversations }: { conversations?: ReactNode }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useDebouncedParam('q');
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const searchId = useId();
  const sortId = useId();
  const today = useMemo(() => new Date(), []);
  const lowData = useLowData();
  const query = apiQuery(params, today, lowData.active ? LOW_DATA_PAGE_SIZE : undefined);
  const { data, isPending, isError, isFetching, refetch } = useUniversities(query);

  const savedOnly = params.get('saved') === 'true';
  const hasFilters = FILTER_NAMES.some((name) => params.has(name));
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pages = data ? Math.max(1, Math.ceil(data.total / (data.page_size || CATALOGUE_PAGE_SIZE_DEFAULT))) : 1;
  const set = (name: string, value: string | null, keepPage = false) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (value === null) next.delete(name);
      else next.set(name, value);
      if (!keepPage) next.delete('page');
      return next;
    });
  const clearFilters = () =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      for (const name of [...FILTER_NAMES, 'page']) next.delete(name);
      return next;
    });
  const goTo = (target: number) => {
    set('page', target > 1 ? String(target) : null, true);
    document.getElementById('main')?.scrollTo?.({ top: 0 });
    window.scrollTo({ top: 0 });
  };

  return (
    <section className="mx-auto flex max-w-6xl flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold tracking-tight">{t('explore.title')}</h1>
        <p className="mt-1 text-muted">{t('explore.lead')}</p>
      </header>

      {conversations}

      <div role="search" className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <label htmlFor={searchId} className="font-medium">
            {t('explore.search_label')}
          </label>
          <input
            id={searchId}
            type="search"
            className="field-input"
            placeholder={t('explore.search_placeholder')}
            value={search}
            maxLength={100}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <div className="flex flex-wrap gap-2" role="group" aria-label={t('explore.view')}>
          <button
            type="button"
            className={savedOnly ? 'btn-secondary' : 'btn-primary'}
            aria-pressed={!savedOnly}
            onClick={() => set('saved', null)}
          >
            {t('explore.view_all')}
          </button>
          <button
            type="button"
            className={savedOnly ? 'btn-primary' : 'btn-secondary'}
            aria-pressed={savedOnly}
            onClick={() => set('saved', 'true')}
          >
            {t('explore.view_saved')}
          </button>
        </div>
      </div>

      <div className="grid gap-6 md:grid-cols-[15rem_minmax(0,1fr)]">
        <aside aria-label={t('explore.filters')} className="flex min-w-0 flex-col gap-3">
          <button
            type="button"
            className="btn-secondary md:hidden"
            aria-expanded={filtersOpen}
            aria-controls={filtersId}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            {t(filtersOpen ? 'explore.hide_filters' : 'explore.show_filters')}
          </button>
          <h2 className="hidden text-lg font-semibold md:block">{t('explore.filters')}</h2>
          <Filters id={filtersId} hidden={!filtersOpen} />
          {hasFilters && (
            <button type="button" className="btn-secondary" onClick={clearFilters}>
              {t('explore.clear_filters')}
            </button>
          )}
        </aside>

        <div className="flex min-w-0 flex-col gap-4" aria-busy={isPending || isFetching}>
          <div className="flex flex-wrap items-end justify-between gap-3">
            <p role="status" className="text-lg font-semibold">
              {data ? t('explore.results', { count: data.total }) : ''}
            </p>
            <div className="flex items-center gap-2">
              <label htmlFor={sortId} className="text-sm font-medium">
                {t('explore.sort')}
              </label>
              <select
                id={sortId}
                className="field-input w-auto"
                value={params.get('sort') ?? ''}
                onChange={(event) => set('sort', event.target.value || null)}
              >
                <option value="">{t(params.get('q') ? 'explore.sort_relevance' : 'explore.sort_name')}</option>
                {CATALOGUE_SORTS.filter((sort) => sort !== 'relevance').map((sort) => (
                  <option key={sort} value={sort}>
                    {t(`explore.sort_${sort}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>

          {data ? (
            data.items.length > 0 ? (
              <>
                <ul className="grid gap-4 lg:grid-cols-2">
                  {data.items.map((university) => (
                    <UniversityCard key={university.id} university={university} />
                  ))}
                </ul>
                {pages > 1 && (
                  <nav
                    aria-label={t('explore.pagination')}
                    className="flex flex-wrap items-center justify-between gap-3"
                  >
                    <button type="button" className="btn-secondary" disabled={page <= 1} onClick={() => goTo(page - 1)}>
                      {t('explore.previous')}
                    </button>
                    <span className="text-sm text-muted">{t('explore.page_of', { page, pages })}</span>
                    <button
                      type="button"
                      className="btn-secondary"
                      disabled={page >= pages}
                      onClick={() => goTo(page + 1)}
                    >
                      {t('explore.next')}
                    </button>
                  </nav>
                )}
              </>
            ) : (
              <div className="flex flex-col items-start gap-3 rounded-xl border border-dashed border-border p-6">
                <h2 className="text-lg font-semibold">
                  {t(savedOnly && !hasFilters ? 'explore.empty_list_title' : 'explore.empty_title')}
                </h2>
                <p className="text-muted">
                  {t(savedOnly && !hasFilters ? 'explore.empty_list_text' : 'explore.empty_text')}
                </p>
                {hasFilters && (
                  <button type="button" className="btn-secondary" onClick={clearFilters}>
                    {t('explore.clear_filters')}
                  </button>
                )}
              </div>
            )
          ) : isPending ? (
            <SkeletonCards count={6} />
          ) : (
            isError && (
              <div
                role="alert"
                className="flex flex-wrap items-center gap-3 rounded-xl border border-border bg-surface p-6"
              >
                <p className="min-w-0 flex-1">{t('explore.error')}</p>
                <button type="button" className="btn-secondary" disabled={isFetching} onClick={() => void refetch()}>
                  {t('explore.retry')}
                </button>
                {hasFilters && (
                  <button type="button" className="btn-secondary" onClick={clearFilters}>
                    {t('explore.clear_filters')}
                  </button>
                )}
              </div>
            )
          )}
        </div>
      </div>
    </section>
  );
}
