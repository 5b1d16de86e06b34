import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type CatalogueSummary } from '@kaminuza/shared';
import { useCatalogueSummary } from '../api/get-catalogue-summary.ts';
import { countryNamer } from '../../../lib/countries.ts';
import { numberFormat as numbersIn } from '../../../lib/intl.ts';

type Featured = CatalogueSummary['featured'][number];

const SKELETON_CARDS = 6;

function Stat({ value, label }: { value: string; label: string }) {
  return (
    <li className="min-w-0">
      <span className="block text-3xl font-extrabold sm:text-4xl">{value}</span>
      <span className="block text-sm break-words">{label}</span>
    </li>
  );
}

function StatSkeleton() {
  return (
    <li aria-hidden="true" className="min-w-0">
      <span className="block h-9 w-16 animate-pulse rounded bg-on-brand/20 sm:h-10" />
      <span className="mt-1 block h-4 w-20 max-w-full animate-pulse rounded bg-on-brand/20" />
    </li>
  );
}

function FeaturedCard({ university, country }: { university: Featured; country: string }) {
  const { t } = useTranslation();
  return (
    <li className="flex min-w-0 gap-3 rounded-xl border border-border bg-surface p-4">
      <span
        aria-hidden="true"
        className="grid size-11 shrink-0 place-items-center rounded-lg bg-surface-muted text-lg font-bold text-brand"
      >
        {university.name.charAt(0)}
      </span>
      <div className="min-w-0">
        <h3 className="font-semibold break-words">{university.name}</h3>
        <p className="text-sm text-muted">{t(`landing.featured.types.${university.institution_type}`)}</p>
        <p className="flex items-center gap-1 text-sm text-muted">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 fill-current">
            <path d="M10 2a6 6 0 0 0-6 6c0 4.5 6 10 6 10s6-5.5 6-10a6 6 0 0 0-6-6Zm0 8.2A2.2 2.2 0 1 1 10 5.8a2.2 2.2 0 0 1 0 4.4Z" />
          </svg>
          <span className="min-w-0 break-words">
            {t('landing.featured.location', { city: university.address.city, country })}
          </span>
        </p>
      </div>
    </li>
  );
}

/** The catalogue in numbers and the featured universities, both from one summary request. */
export function CatalogueSection() {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const { data, isPending, isFetching, refetch } = useCatalogueSummary();
  const numberFormat = useMemo(() => numbersIn(lang), [lang]);
  const countryName = useMemo(() => countryNamer(lang), [lang]);

  return (
    <>
      <section aria-busy={isPending} className="bg-brand text-on-brand">
        <div className="container-page py-8">
          <h2 className="text-sm font-semibold uppercase tracking-wide">{t('landing.numbers.title')}</h2>
          <ul className="mt-4 grid grid-cols-3 gap-4">
            {data ? (
              <>
                <Stat
                  value={numberFormat.format(data.universities)}
                  label={t('landing.numbers.universities', { count: data.universities })}
                />
                <Stat
                  value={numberFormat.format(data.countries)}
                  label={t('landing.numbers.countries', { count: data.countries })}
                />
              </>
            ) : (
              isPending && (
                <>
                  <StatSkeleton />
                  <StatSkeleton />
                </>
              )
            )}
            <Stat
              value={numberFormat.format(LANGUAGES.length)}
              label={t('landing.numbers.languages', { count: LANGUAGES.length })}
            />
          </ul>
        </div>
      </section>

      <section aria-busy={isPending} className="container-page py-12">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <h2 className="text-2xl font-bold tracking-tight">{t('landing.featured.title')}</h2>
          {data && data.featured.length > 0 && (
            <span className="rounded-full border border-border px-2.5 py-0.5 text-xs font-medium text-muted">
              {t('landing.featured.demo')}
            </span>
          )}
        </div>
        <div className="mt-6">
          {data ? (
            data.featured.length > 0 ? (
              <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {data.featured.map((university) => (
                  <FeaturedCard
                    key={university.id}
                    university={university}
                    country={countryName(university.address.country)}
                  />
                ))}
              </ul>
            ) : (
              <p className="rounded-xl border border-dashed border-border p-6 text-muted">
                {t('landing.featured.empty')}
              </p>
            )
          ) : isPending ? (
            <div role="status">
              <span className="sr-only">{t('loading.loading')}</span>
              <ul aria-hidden="true" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {Array.from({ length: SKELETON_CARDS }, (_, i) => (
                  <li key={i} className="flex gap-3 rounded-xl border border-border bg-surface p-4">
                    <span className="size-11 shrink-0 animate-pulse rounded-lg bg-surface-muted" />
                    <span className="flex-1 space-y-2">
                      <span className="block h-4 w-3/4 animate-pulse rounded bg-surface-muted" />
                      <span className="block h-3 w-1/2 animate-pulse rounded bg-surface-muted" />
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <div
              role="alert"
              className="flex flex-wrap items-center gap-3 rounded-xl border border-border bg-surface p-6"
            >
              <p className="min-w-0 flex-1">{t('landing.featured.error')}</p>
              <button
                type="button"
                className="btn-secondary"
                disabled={isFetching}
                onClick={() => void refetch()}
                data-enhance="reload"
              >
                {t('landing.featured.retry')}
              </button>
            </div>
          )}
        </div>
      </section>
    </>
  );
}
