import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { CitySuggestion } from '@kaminuza/shared';
import { countryNamer } from '../../lib/countries.ts';
import { useCitySearch } from './search-cities.ts';
import { useDebounced } from './use-debounced.ts';

/** Where a place is, under its name: its kind (district, sector), province and country. */
function placeLine(t: TFunction, place: CitySuggestion, countryName: string): string {
  const parts = [
    place.kind === 'district' ? t('onboarding.address.kinds.district') : null,
    place.kind === 'sector' && place.district
      ? t('onboarding.address.kinds.sector', { district: place.district })
      : null,
    place.province ? t(`onboarding.address.provinces.${place.province}`, { defaultValue: '' }) || null : null,
    countryName,
  ];
  return parts.filter(Boolean).join(', ');
}

/**
 * Place search for the address step (ARIA combobox with a list box): type two letters, pick a place
 * with the arrows and Enter or by tapping it. Suggestions come from the offline place data. When none
 * matches, the student can keep what they typed as their city.
 */
export function CityCombobox({
  country,
  onPick,
  onEnter,
}: {
  country: string;
  onPick: (city: CitySuggestion) => void;
  /** Takes the text as typed when the search finds no place. */
  onEnter: (typed: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // Leaving the field closes the list a moment later, so a tap on an option still lands; coming back
  // (or typing) before then must not be undone by that late close.
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const keepOpen = () => clearTimeout(closing.current);
  useEffect(() => keepOpen, []);
  const query = useDebounced(text);
  const search = useCitySearch(query, country);
  const results = query.trim().length >= 2 ? (search.data ?? []) : [];
  const name = countryNamer(i18n.resolvedLanguage ?? 'en');
  const listId = `${id}-list`;
  const expanded = open && results.length > 0;
  const typed = text.trim();
  const noneFound =
    query.trim().length >= 2 && search.isSuccess && !search.isFetching && results.length === 0 && typed.length >= 2;

  const pick = (city: CitySuggestion) => {
    onPick(city);
    setText(`${city.name}, ${name(city.country)}`);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && results.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % results.length);
    } else if (event.key === 'ArrowUp' && results.length > 0) {
      event.preventDefault();
      setActive((index) => (index <= 0 ? results.length - 1 : index - 1));
    } else if (event.key === 'Enter' && expanded && active >= 0) {
      event.preventDefault();
      const city = results[active];
      if (city) pick(city);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };

  const status =
    query.trim().length < 2
      ? ''
      : search.isError
        ? t('onboarding.address.search_failed')
        : search.isFetching
          ? t('loading.loading')
          : t('onboarding.address.results', { count: results.length });

  return (
    <div className="relative flex flex-col gap-1.5">
      <label htmlFor={id} className="font-medium">
        {t('onboarding.address.search')}
      </label>
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={`${id}-hint`}
        className="field-input"
        value={text}
        onChange={(event) => {
          keepOpen();
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onFocus={keepOpen}
        onBlur={() => {
          closing.current = setTimeout(() => setOpen(false), 150);
        }}
      />
      <p id={`${id}-hint`} className="text-sm text-muted">
        {t('onboarding.address.search_hint')}
      </p>
      <p role="status" className="sr-only">
        {status}
      </p>
      <ul
        id={listId}
        role="listbox"
        aria-label={t('onboarding.address.suggestions')}
        hidden={!expanded}
        className="absolute inset-x-0 top-full z-30 max-h-64 overflow-auto rounded-lg border border-border bg-surface shadow-lg"
      >
        {results.map((city, index) => (
          <li
            key={`${city.kind}-${city.name}-${city.country}-${city.district}-${city.lat}-${city.lng}`}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={`flex min-h-11 cursor-pointer flex-col justify-center px-3 py-1 ${index === active ? 'bg-surface-muted' : ''}`}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(city)}
          >
            <span className="font-medium">{city.name}</span>{' '}
            <span className="text-sm text-muted">{placeLine(t, city, name(city.country))}</span>
          </li>
        ))}
      </ul>
      {noneFound && (
        <div className="flex flex-col gap-2 rounded-lg border border-border p-3">
          <p className="text-sm">{t('onboarding.address.none_found')}</p>
          <button type="button" className="btn-secondary self-start" onClick={() => onEnter(typed)}>
            {t('onboarding.address.use_typed', { text: typed })}
          </button>
        </div>
      )}
    </div>
  );
}
