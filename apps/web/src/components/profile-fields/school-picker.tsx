import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SCHOOL_LEVELS, type SchoolChoiceInput } from '@kaminuza/shared';
import { FieldFrame, SelectField, TextField } from '../form/field.tsx';
import { countryNamer, countryOptions } from '../../lib/countries.ts';
import { useSchoolSearch } from './search-schools.ts';
import { useDebounced } from './use-debounced.ts';

export const EMPTY_SCHOOL: SchoolChoiceInput = {
  id: null,
  name: '',
  city: '',
  state_province: '',
  country: '',
  levels_offered: [],
};

export interface SchoolErrors {
  name?: string | undefined;
  city?: string | undefined;
  country?: string | undefined;
  state_province?: string | undefined;
}

/**
 * The most recent school: picked from the list of known schools, or entered by hand (name, city,
 * state/province, country, levels offered) — saved for other students to find.
 */
export function SchoolPicker({
  value,
  onChange,
  errors,
  country,
}: {
  value: SchoolChoiceInput;
  onChange: (value: SchoolChoiceInput) => void;
  errors: SchoolErrors;
  /** The country a hand-entered school starts in (the student's country of residence). */
  country: string;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const language = i18n.resolvedLanguage ?? 'en';
  const countries = useMemo(() => countryOptions(language), [language]);
  const name = countryNamer(language);
  const [manual, setManual] = useState(!value.id && !!value.name);
  const [text, setText] = useState('');
  const query = useDebounced(text);
  const search = useSchoolSearch(query, '');
  const results = query.trim().length >= 2 ? (search.data?.items ?? []) : [];
  const firstError = errors.name ?? errors.city ?? errors.country;
  const typed = text.trim();
  const noneFound =
    query.trim().length >= 2 && search.isSuccess && !search.isFetching && results.length === 0 && typed.length >= 2;
  const set = (changes: Partial<SchoolChoiceInput>) => onChange({ ...value, id: null, ...changes });

  if (value.id) {
    return (
      <div className="flex flex-col gap-2 rounded-lg border border-border p-3">
        <p>
          <span className="font-medium">{t('schools.selected')}</span> {value.name} — {value.city},{' '}
          {name(value.country ?? '')}
        </p>
        <button type="button" className="btn-secondary self-start" onClick={() => onChange(EMPTY_SCHOOL)}>
          {t('schools.change')}
        </button>
      </div>
    );
  }

  if (manual) {
    return (
      <fieldset className="flex flex-col gap-4 rounded-lg border border-border p-3">
        <legend className="px-1 font-medium">{t('schools.manual_title')}</legend>
        <TextField
          label={t('schools.name')}
          value={value.name ?? ''}
          error={errors.name}
          onChange={(event) => set({ name: event.target.value })}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('schools.city')}
            value={value.city ?? ''}
            error={errors.city}
            onChange={(event) => set({ city: event.target.value })}
          />
          <TextField
            label={t('schools.state_province')}
            optional
            value={value.state_province ?? ''}
            error={errors.state_province}
            onChange={(event) => set({ state_province: event.target.value })}
          />
        </div>
        <SelectField
          label={t('schools.country')}
          placeholder={t('onboarding.choose')}
          options={countries}
          value={value.country ?? ''}
          error={errors.country}
          onChange={(event) => set({ country: event.target.value })}
        />
        <fieldset className="flex flex-col gap-2">
          <legend className="font-medium">{t('schools.levels_offered')}</legend>
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            {SCHOOL_LEVELS.map((level) => {
              const checked = (value.levels_offered ?? []).includes(level);
              return (
                <label key={level} className="flex min-h-11 items-center gap-2">
                  <input
                    type="checkbox"
                    className="size-5 accent-brand"
                    checked={checked}
                    onChange={() =>
                      set({
                        levels_offered: checked
                          ? (value.levels_offered ?? []).filter((l) => l !== level)
                          : [...(value.levels_offered ?? []), level],
                      })
                    }
                  />
                  {t(`schools.levels.${level}`)}
                </label>
              );
            })}
          </div>
        </fieldset>
        <button
          type="button"
          className="btn-secondary self-start"
          onClick={() => {
            setManual(false);
            onChange(EMPTY_SCHOOL);
          }}
        >
          {t('schools.search_instead')}
        </button>
      </fieldset>
    );
  }

  return (
    <div className="flex flex-col gap-3">
      <FieldFrame label={t('schools.search')} hint={t('schools.search_hint')} error={firstError}>
        {({ id: inputId, describedBy, invalid }) => (
          <input
            id={inputId}
            type="search"
            autoComplete="off"
            aria-invalid={invalid}
            aria-describedby={describedBy}
            aria-controls={results.length > 0 ? `${id}-results` : undefined}
            className="field-input aria-invalid:border-danger"
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        )}
      </FieldFrame>
      <p role="status" className="sr-only">
        {query.trim().length >= 2 && !search.isFetching ? t('schools.results', { count: results.length }) : ''}
      </p>
      {search.isError && <p className="text-sm text-danger">{t('schools.search_failed')}</p>}
      {results.length > 0 && (
        <ul id={`${id}-results`} aria-label={t('schools.results_label')} className="flex flex-col gap-2">
          {results.map((school) => (
            <li key={school.id}>
              <button
                type="button"
                className="flex min-h-11 w-full flex-col rounded-lg border border-border px-3 py-2 text-left hover:bg-surface-muted"
                onClick={() =>
                  onChange({
                    id: school.id,
                    name: school.name,
                    city: school.city,
                    state_province: school.state_province ?? '',
                    country: school.country,
                    levels_offered: school.levels_offered,
                  })
                }
              >
                <span className="font-medium">{school.name}</span>
                <span className="text-sm text-muted">
                  {school.city}, {name(school.country)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {noneFound && <p className="text-sm">{t('schools.none_found')}</p>}
      <button
        type="button"
        className="btn-secondary self-start"
        onClick={() => {
          setManual(true);
          set({ name: typed, country: value.country || country });
        }}
      >
        {noneFound ? t('schools.enter_typed', { text: typed }) : t('schools.enter_manually')}
      </button>
    </div>
  );
}
