/**
 * Server rendering of the entry pages (ADR 044) with the same components and light modules their
 * script hydrates with, so the HTML and the browser's first render are one render. Used by the
 * prerender step.
 */
import { renderToString } from 'react-dom/server';
import type { Language } from '@kaminuza/shared/constants';
import en from '@kaminuza/shared/locales/en.json';
import fr from '@kaminuza/shared/locales/fr.json';
import rw from '@kaminuza/shared/locales/rw.json';
import { ACCOUNT_PAGES } from './account/pages.ts';
import { AccountDocument } from './account/account-document.tsx';
import { PageLocationContext } from './account/router.tsx';
import { translate } from './account/react-i18next.tsx';

const catalogues = { en, fr, rw };

export { ACCOUNT_PAGES };

export async function renderAccountPage(
  path: string,
  language: Language,
): Promise<{ html: string; title: string; description: string }> {
  const page = ACCOUNT_PAGES[path];
  if (!page) throw new Error(`${path} is not an entry page`);
  const Page = await page.load();
  const catalogue = catalogues[language];
  const html = renderToString(
    <PageLocationContext value={{ pathname: path, search: '', hash: '', state: null }}>
      <AccountDocument Page={Page} meta={page.meta} language={language} catalogue={catalogue} />
    </PageLocationContext>,
  );
  return {
    html,
    title: translate(language, catalogue, `meta.${page.meta}.title`),
    description: translate(language, catalogue, `meta.${page.meta}.description`),
  };
}
