import { LANGUAGES, type Language } from '@kaminuza/shared/constants';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Language names are written in their own language so anyone can find theirs. */
export const NATIVE_LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  fr: 'Français',
  rw: 'Kinyarwanda',
};
