/**
 * The entry pages' script (ADR 044): hydrates the prerendered sign-up, sign-in and password pages with
 * React alone — no router, query cache, i18next or form library — so they load within 100 KB.
 */
import './styles.css';
import { hydrateRoot } from 'react-dom/client';
import { LANGUAGE_STORAGE_KEY, type Language } from '@kaminuza/shared/constants';
import { ACCOUNT_PAGES } from './account/pages.ts';
import { AccountDocument } from './account/account-document.tsx';
import type { Catalogue } from './account/react-i18next.tsx';
import { isLanguage } from './lib/languages.ts';
import { storeLanguage } from './lib/language-preference.ts';
import { applyTheme, readTheme } from './lib/theme.ts';
import { scheduleRenderEvent } from './lib/render-event.ts';

const catalogues: Record<Language, () => Promise<{ default: Catalogue }>> = {
  en: () => import('virtual:kaminuza-locale/en/core'),
  fr: () => import('virtual:kaminuza-locale/fr/core'),
  rw: () => import('virtual:kaminuza-locale/rw/core'),
};
const loadCatalogue = async (language: Language) => (await catalogues[language]()).default;

function storedLanguage(): Language | null {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null;
  }
}

async function start() {
  const container = document.getElementById('root');
  const page = ACCOUNT_PAGES[window.location.pathname.replace(/\/+$/, '')];
  if (!container || !page) throw new Error(`${window.location.pathname} is not an entry page`);
  // Hydrate in the language the HTML was rendered in, then switch if the visitor chose another.
  const language = isLanguage(document.documentElement.lang) ? document.documentElement.lang : 'en';
  const [catalogue, Page] = await Promise.all([loadCatalogue(language), page.load()]);
  hydrateRoot(
    container,
    <AccountDocument
      Page={Page}
      meta={page.meta}
      language={language}
      catalogue={catalogue}
      loadCatalogue={loadCatalogue}
      onLanguageChanged={storeLanguage}
      preferred={storedLanguage()}
    />,
  );
  applyTheme(readTheme());
  scheduleRenderEvent();
}

void start();
