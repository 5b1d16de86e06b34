import { getCountries } from 'libphonenumber-js/min';
import { displayName } from './intl.ts';

/**
 * Countries (ISO 3166-1 alpha-2) named in `language`, sorted for that language. Names CLDR lacks in the
 * language (most, in Kinyarwanda) are English.
 */
export function countryOptions(language: string): Array<{ value: string; label: string }> {
  const name = countryNamer(language);
  const collator = new Intl.Collator(language);
  return getCountries()
    .map((code) => ({ value: code, label: name(code) }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

/** A country's name in `language`, else in English (CLDR names few countries in Kinyarwanda), else its code. */
export function countryNamer(language: string): (code: string) => string {
  return (code) => displayName(language, 'region', code);
}
