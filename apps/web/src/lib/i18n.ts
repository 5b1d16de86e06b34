import i18next, { type i18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import resourcesToBackend from 'i18next-resources-to-backend';
import { isLanguage } from './languages.ts';
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_COOKIE,
  LANGUAGE_STORAGE_KEY,
  LANGUAGES,
  type Language,
} from '@kaminuza/shared/constants';

const ONE_YEAR_MINUTES = 525_600;

/**
 * Detection order of the spec: stored choice (local storage, or its mirror in a cookie, which is what
 * the server reads to send pages already in that language), then browser, then page tag.
 */
export const detection = {
  order: ['localStorage', 'cookie', 'navigator', 'htmlTag'],
  lookupLocalStorage: LANGUAGE_STORAGE_KEY,
  lookupCookie: LANGUAGE_COOKIE,
  caches: ['localStorage', 'cookie'],
  cookieMinutes: ONE_YEAR_MINUTES,
  cookieOptions: { path: '/', sameSite: 'lax' as const },
};

const baseOptions = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  load: 'languageOnly' as const,
  nonExplicitSupportedLngs: true,
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: false },
};

/** Each language's catalogue is its own chunk: a visitor downloads only the languages in use. */
const catalogues: Record<Language, () => Promise<{ default: Resource[string] }>> = {
  en: () => import('@kaminuza/shared/locales/en.json'),
  fr: () => import('@kaminuza/shared/locales/fr.json'),
  rw: () => import('@kaminuza/shared/locales/rw.json'),
};

export function detectLanguage(): Language {
  const detector = new LanguageDetector(undefined, detection);
  const found = detector.detect();
  const candidates = Array.isArray(found) ? found : [found];
  for (const candidate of candidates) {
    const base = candidate?.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

/** Browser instance: loads only the catalogue of `lng` (and the English fallback). */
export async function createClientI18n(lng: Language): Promise<i18n> {
  const instance = i18next.createInstance();
  instance.on('languageChanged', (next) => {
    document.documentElement.lang = next;
  });
  await instance
    .use(LanguageDetector)
    .use(resourcesToBackend((language: string) => catalogues[isLanguage(language) ? language : DEFAULT_LANGUAGE]()))
    .use(initReactI18next)
    .init({ ...baseOptions, lng, detection });
  return instance;
}

/** Server (prerender) instance: every catalogue is present synchronously. */
export async function createServerI18n(lng: Language, resources: Resource): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({ ...baseOptions, lng, resources, initAsync: false });
  return instance;
}
