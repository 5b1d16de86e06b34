import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InstitutionDirectoryEntry } from '@kaminuza/shared';
import { FormAlert } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useInstitutionSearch } from '../api/search-institutions.ts';

const SEARCH_DELAY_MS = 300;

/** Search approved institutions by name and choose one to join. */
export function InstitutionPicker({
  selected,
  onSelect,
}: {
  selected: InstitutionDirectoryEntry | null;
  onSelect: (entry: InstitutionDirectoryEntry) => void;
}) {
  const { t } = useTranslation(undefined, { keyPrefix: 'partner_signup.join' });
  const { t: tRoot } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  // Searches once typing pauses rather than on every keystroke.
  useEffect(() => {
    const timer = setTimeout(() => setQ(query.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query]);
  const search = useInstitutionSearch(q, page, q.length >= 2);
  const results = search.data?.items ?? [];

  return (
    <div className="flex flex-col gap-3">
      <label htmlFor={id} className="font-medium">
        {t('search_label')}
      </label>
      <input
        id={id}
        type="search"
        className="field-input"
        value={query}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          setQuery(event.target.value);
          setPage(1);
        }}
      />
      <p id={`${id}-hint`} className="text-sm text-muted">
        {t('search_hint')}
      </p>
      {q.length >= 2 && search.isPending && <Spinner />}
      {search.isError && <FormAlert>{tRoot(errorMessageKey(search.error))}</FormAlert>}
      {q.length >= 2 && search.isSuccess && results.length === 0 && <p className="text-muted">{t('no_results')}</p>}
      {results.length > 0 && (
        <fieldset className="flex flex-col gap-2">
          <legend className="sr-only">{t('results_label')}</legend>
          {results.map((entry) => (
            <label
              key={entry.id}
              className="flex min-h-12 cursor-pointer items-center gap-3 rounded-lg border border-border p-3 has-checked:border-brand"
            >
              <input
                type="radio"
                name={`${id}-institution`}
                className="size-5 shrink-0 accent-brand"
                checked={selected?.id === entry.id}
                onChange={() => onSelect(entry)}
              />
              <span className="min-w-0 break-words">
                <span className="font-medium">{entry.name}</span>
                <span className="text-muted"> — {entry.city}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {(page > 1 || search.data?.has_more) && (
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-secondary" disabled={page === 1} onClick={() => setPage(page - 1)}>
            {t('previous')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={!search.data?.has_more}
            onClick={() => setPage(page + 1)}
          >
            {t('next')}
          </button>
        </div>
      )}
      {selected && (
        <p role="status" className="rounded-lg border border-border bg-surface-muted p-3 text-sm">
          {t('selected', { name: selected.name, city: selected.city })}
        </p>
      )}
    </div>
  );
}
