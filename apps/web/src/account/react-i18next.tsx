/*
 * What the entry pages' components use of react-i18next, for the entry pages' own bundle (ADR 044):
 * `t` over one language's catalogue, with the catalogues' two features — `{{name}}` values and plural
 * forms chosen by the language's rules (`key_one`, `key_other`, …, ADR 032). i18next and its React
 * binding weigh 18 KB compressed, a fifth of those pages' budget. The build resolves `react-i18next` to
 * this module for those pages only; the app keeps i18next.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { Language } from '@kaminuza/shared/constants';

export type Catalogue = { readonly [key: string]: string | Catalogue };
type Values = Record<string, unknown> & { count?: number };

export interface Texts {
  language: Language;
  catalogue: Catalogue;
  /** Switches the page's texts to another language (loads its catalogue). */
  changeLanguage: (language: Language) => Promise<void>;
}

const TextsContext = createContext<Texts | null>(null);

export function TextsProvider({ texts, children }: { texts: Texts; children: ReactNode }) {
  return <TextsContext value={texts}>{children}</TextsContext>;
}

function lookup(catalogue: Catalogue, key: string): string | undefined {
  let node: string | Catalogue | undefined = catalogue;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** The text of `key` in `language` (the key itself when missing, as i18next answers). */
export function translate(language: Language, catalogue: Catalogue, key: string, values: Values = {}): string {
  const plural =
    typeof values.count === 'number'
      ? (lookup(catalogue, `${key}_${new Intl.PluralRules(language).select(values.count)}`) ??
        lookup(catalogue, `${key}_other`))
      : undefined;
  const text = plural ?? lookup(catalogue, key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export function useTranslation() {
  const texts = useContext(TextsContext);
  if (!texts) throw new Error('useTranslation needs a TextsProvider');
  return useMemo(
    () => ({
      t: (key: string, values?: Values) => translate(texts.language, texts.catalogue, key, values),
      i18n: { language: texts.language, resolvedLanguage: texts.language, changeLanguage: texts.changeLanguage },
    }),
    [texts],
  );
}
