import { LANGUAGES, type Language } from '@kaminuza/shared/constants';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
