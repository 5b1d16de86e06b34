import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '@kaminuza/shared';
import en from '@kaminuza/shared/locales/en.json';
import fr from '@kaminuza/shared/locales/fr.json';
import rw from '@kaminuza/shared/locales/rw.json';
import { translate, type Catalogue } from './react-i18next.tsx';

const catalogues: Record<Language, Catalogue> = { en, fr, rw };
const PLURAL = /_(zero|one|two|few|many|other)$/;

function leaves(catalogue: Catalogue, prefix = ''): Array<[string, string]> {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : leaves(value, `${prefix}${key}.`),
  );
}

describe('the entry pages’ translate', () => {
  it.each(LANGUAGES)('gives what i18next gives for every text in %s', async (language) => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: language,
      resources: { [language]: { translation: catalogues[language] } },
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    const checked = leaves(catalogues[language]).flatMap(([key, text]) => {
      const names = [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!);
      const base = key.replace(PLURAL, '');
      const counts = PLURAL.test(key) || names.includes('count') ? [0, 1, 2, 5, 21, 1_000_000] : [undefined];
      return counts.map((count) => {
        const values: Record<string, unknown> = Object.fromEntries(names.map((name) => [name, `<${name}>`]));
        if (count !== undefined) values.count = count;
        return [base, values] as const;
      });
    });
    for (const [key, values] of checked) {
      expect(translate(language, catalogues[language], key, values), key).toBe(i18n.t(key, values));
    }
    expect(checked.length).toBeGreaterThan(1000);
  });

  it('answers a missing key with the key, as i18next does', () => {
    expect(translate('fr', fr, 'auth.no_such_text')).toBe('auth.no_such_text');
  });
});
