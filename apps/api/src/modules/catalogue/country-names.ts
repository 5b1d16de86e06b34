import { COUNTRY_CODES, isCountryCode } from '@kaminuza/shared';

/**
 * The languages whose country names a search understands: the platform's own. A name missing from the
 * runtime's data for a language (most of them in Kinyarwanda) is simply not indexed for it; the English
 * and French names still are.
 */
const LANGUAGES = ['en', 'fr', 'rw'] as const;

/** A word shorter than this never matches a country by prefix ("uni" is not yet "United …"). */
const PREFIX_MIN = 4;
/** Nor by whole word: "of", "de", "la", "u" belong to too many names. */
const WORD_MIN = 3;

/** Lower case, accents dropped, as the catalogue's search folds its text (f_unaccent(lower(…))). */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The words of a text, folded; only letters and digits survive. */
export function words(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

const add = (map: Map<string, Set<string>>, key: string, code: string) => {
  const codes = map.get(key) ?? new Set<string>();
  codes.add(code);
  map.set(key, codes);
};
const frozen = (map: Map<string, Set<string>>): ReadonlyMap<string, readonly string[]> =>
  new Map([...map].map(([key, codes]) => [key, [...codes].sort()]));

/**
 * Each word of a country's names, in every language, with the countries whose names contain it; and
 * each full name, its words joined by a space.
 */
const [WORD_COUNTRIES, NAME_COUNTRIES] = (() => {
  const byWord = new Map<string, Set<string>>();
  const byName = new Map<string, Set<string>>();
  for (const language of LANGUAGES) {
    let names: Intl.DisplayNames;
    try {
      names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
    } catch {
      continue;
    }
    for (const code of COUNTRY_CODES) {
      let name: string | undefined;
      try {
        name = names.of(code);
      } catch {
        name = undefined;
      }
      if (!name) continue;
      add(byName, words(name).join(' '), code);
      for (const word of words(name)) if (word.length >= WORD_MIN) add(byWord, word, code);
    }
  }
  return [frozen(byWord), frozen(byName)];
})();

/**
 * The countries a search word names: a whole word of a country's name in English, French or
 * Kinyarwanda ("rwanda", "ethiopie"), or the beginning of one when the word is long enough ("ethio").
 * Sorted codes; none for most words.
 */
export function countriesNamedBy(word: string): string[] {
  const folded = fold(word);
  if (folded.length < WORD_MIN) return [];
  const found = new Set(WORD_COUNTRIES.get(folded) ?? []);
  if (folded.length >= PREFIX_MIN) {
    for (const [candidate, codes] of WORD_COUNTRIES) {
      if (candidate.startsWith(folded)) for (const code of codes) found.add(code);
    }
  }
  return [...found].sort();
}

/**
 * The countries a whole search names: one of a country's full names ("u rwanda", "united states"), or
 * its code alone ("RW", "ke" — a two-letter word inside a longer search is too often a word of its own).
 */
export function countriesNamedByAll(search: string): string[] {
  const code = search.trim().toUpperCase();
  if (/^[A-Z]{2}$/.test(code)) return isCountryCode(code) ? [code] : [];
  return [...(NAME_COUNTRIES.get(words(search).join(' ')) ?? [])];
}
