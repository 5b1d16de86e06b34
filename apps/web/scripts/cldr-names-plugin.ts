import { getCountries } from 'libphonenumber-js/min';
import type { Plugin } from 'vite';

const CLDR_NAMES = 'virtual:kaminuza-cldr-names/';
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** The names `language` has in the build's ICU (Node's, full CLDR) for `codes`, without any fallback. */
function namesOf(language: string, type: Intl.DisplayNamesType, codes: readonly string[]): Record<string, string> {
  const names = new Intl.DisplayNames([language], { type, fallback: 'none' });
  const found: Record<string, string> = {};
  for (const code of codes) {
    try {
      const name = names.of(code);
      if (name) found[code] = name;
    } catch {
      // Not a code this runtime accepts for the type: nothing to name.
    }
  }
  return found;
}

/**
 * `virtual:kaminuza-cldr-names/<lang>`: the country, currency and language names CLDR has in that
 * language, taken from the build's ICU. A browser whose own ICU lacks the language (Chromium has no
 * Kinyarwanda) loads them, so it names things exactly as the server did when it rendered the page (ADR 028).
 */
export function cldrNames(): Plugin {
  return {
    name: 'kaminuza-cldr-names',
    resolveId: (id) => (id.startsWith(CLDR_NAMES) ? `\0${id}` : undefined),
    load(id) {
      if (!id.startsWith(`\0${CLDR_NAMES}`)) return undefined;
      const language = id.slice(CLDR_NAMES.length + 1);
      if (!/^[a-z]{2,3}$/.test(language)) throw new Error(`Unknown language ${id}`);
      const twoLetters = [...LETTERS].flatMap((a) => [...LETTERS].map((b) => a + b));
      const names = {
        region: namesOf(language, 'region', getCountries()),
        currency: namesOf(language, 'currency', Intl.supportedValuesOf('currency')),
        language: namesOf(language, 'language', twoLetters),
      };
      return `export default ${JSON.stringify(names)};`;
    },
  };
}
