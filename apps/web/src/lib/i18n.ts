import i18next, { type i18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import resourcesToBackend from 'i18next-resources-to-backend';
import { isLanguage } from './languages.ts';
import { loadFormats } from './intl.ts';
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

type CatalogueLoader = () => Promise<{ default: Resource[string] }>;

/**
 * Each language's catalogue is split into chunks (see vite.config.ts): the texts every screen uses, and
 * the page texts of the public information pages, a namespace of their own loaded on demand. A visitor
 * downloads only the languages in use.
 */
const PAGES_NAMESPACE = 'pages';
/** The feature screens' texts (APP_TEXT_GROUPS), loaded with the first of those screens. */
const APP_NAMESPACE = 'app';
/** The admissions setup screens' texts (STAFF_TEXT_GROUPS), which only institution staff download. */
const STAFF_NAMESPACE = 'staff';
type Part = 'core' | 'pages' | 'app' | 'staff';
const catalogues: Record<Language, Record<Part, CatalogueLoader>> = {
  en: {
    core: () => import('virtual:kaminuza-locale/en/core'),
    pages: () => import('virtual:kaminuza-locale/en/pages'),
    app: () => import('virtual:kaminuza-locale/en/app'),
    staff: () => import('virtual:kaminuza-locale/en/staff'),
  },
  fr: {
    core: () => import('virtual:kaminuza-locale/fr/core'),
    pages: () => import('virtual:kaminuza-locale/fr/pages'),
    app: () => import('virtual:kaminuza-locale/fr/app'),
    staff: () => import('virtual:kaminuza-locale/fr/staff'),
  },
  rw: {
    core: () => import('virtual:kaminuza-locale/rw/core'),
    pages: () => import('virtual:kaminuza-locale/rw/pages'),
    app: () => import('virtual:kaminuza-locale/rw/app'),
    staff: () => import('virtual:kaminuza-locale/rw/staff'),
  },
};
const NAMESPACE_PARTS: Record<string, Part> = {
  [PAGES_NAMESPACE]: 'pages',
  [APP_NAMESPACE]: 'app',
  [STAFF_NAMESPACE]: 'staff',
};
const partOf = (namespace: string): Part => NAMESPACE_PARTS[namespace] ?? 'core';

let browserInstance: Promise<i18n> | null = null;

/**
 * Makes the page texts available before a public information page renders in the app. Once loaded,
 * i18next keeps the namespace in step with every later language change. Nothing to do on the server,
 * where every text is present.
 */
export async function loadPageTexts(): Promise<void> {
  if (browserInstance) await (await browserInstance).loadNamespaces(PAGES_NAMESPACE);
}

/** The same for the feature screens' texts, before a feature screen renders. */
export async function loadAppTexts(): Promise<void> {
  if (browserInstance) await (await browserInstance).loadNamespaces(APP_NAMESPACE);
}

/**
 * The same for the admissions setup screens: their own texts, the dashboard's (page texts) and the
 * feature texts (the form preview shows questions as applicants see them).
 */
export async function loadStaffTexts(): Promise<void> {
  if (browserInstance) {
    await (await browserInstance).loadNamespaces([STAFF_NAMESPACE, PAGES_NAMESPACE, APP_NAMESPACE]);
  }
}

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

/** Browser instance: loads the texts of `lng` (and of the English fallback) that screens ask for. */
export function createClientI18n(lng: Language): Promise<i18n> {
  const instance = i18next.createInstance();
  instance.on('languageChanged', (next) => {
    document.documentElement.lang = next;
  });
  // A language's dates and numbers arrive with its texts: nothing renders in it before both are there.
  // Should its formats fail to download, the texts still show, with the browser's own formats.
  const load = async (language: string, namespace: string) => {
    const [catalogue] = await Promise.all([
      catalogues[isLanguage(language) ? language : DEFAULT_LANGUAGE][partOf(namespace)](),
      loadFormats(language).catch(() => undefined),
    ]);
    return catalogue;
  };
  browserInstance = instance
    .use(LanguageDetector)
    .use(resourcesToBackend(load))
    .use(initReactI18next)
    // Page and feature texts are looked up after the common ones, so their keys stay `public.…`, `explore.…`.
    .init({
      ...baseOptions,
      lng,
      detection,
      ns: ['translation'],
      fallbackNS: [PAGES_NAMESPACE, APP_NAMESPACE, STAFF_NAMESPACE],
    })
    .then(() => instance);
  return browserInstance;
}

/** Server (prerender) instance: every catalogue is present synchronously. */
export async function createServerI18n(lng: Language, resources: Resource): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({ ...baseOptions, lng, resources, initAsync: false });
  return instance;
}
