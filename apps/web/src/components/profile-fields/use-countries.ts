import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { countryOptions } from '../../lib/countries.ts';

/** The country options in the interface's language, computed again only when it changes. */
export function useCountries() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  return useMemo(() => countryOptions(language), [language]);
}
