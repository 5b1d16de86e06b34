import { getCountries } from 'libphonenumber-js/min';

/**
 * Countries (ISO 3166-1 alpha-2) named in `language`, sorted for that language. Names missing from the
 * browser's data for a language (often Kinyarwanda) fall back to English, then to the code.
 */
export function countryOptions(language: string): Array<{ value: string; label: string }> {
  const name = countryNamer(language);
  const collator = new Intl.Collator(language);
  return getCountries()
    .map((code) => ({ value: code, label: name(code) }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

/** A country's name in `language`, else in English, else its code. */
export function countryNamer(language: string): (code: string) => string {
  const local = displayNames(language);
  const english = displayNames('en');
  return (code) => local?.(code) ?? english?.(code) ?? code;
}

function displayNames(language: string): ((code: string) => string | undefined) | null {
  try {
    const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
    return (code) => {
      try {
        return names.of(code);
      } catch {
        return undefined;
      }
    };
  } catch {
    return null;
  }
}
