/**
 * Server rendering of public pages: used by the build to prerender them and by the API to render the
 * pages that show live data (ADR 002).
 */
import { StrictMode } from 'react';
import { readFile } from 'node:fs/promises';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { HYDRATED_PAGES, type CatalogueSummary, type Language } from '@kaminuza/shared';
import en from '@kaminuza/shared/locales/en.json';
import fr from '@kaminuza/shared/locales/fr.json';
import rw from '@kaminuza/shared/locales/rw.json';
import { AppProviders } from './app/providers.tsx';
import { routes } from './app/routes.tsx';
import { pageMeta } from './app/page-meta.ts';
import { catalogueSummaryQuery } from './features/landing/api/get-catalogue-summary.ts';
import { createServerI18n } from './lib/i18n.ts';
import { createQueryClient } from './lib/query-client.ts';

const resources = { en: { translation: en }, fr: { translation: fr }, rw: { translation: rw } };

/** The templates Vite built, copied beside this module by the prerender step. */
export const TEMPLATES = { app: 'templates/app.html', public: 'templates/public.html' } as const;

export interface RenderedPage {
  html: string;
  title: string;
  description: string;
}

/** Data the server already has, so a page renders with it instead of fetching in the browser. */
export interface PageData {
  catalogueSummary?: () => Promise<CatalogueSummary>;
}

export async function renderPage(url: string, lng: Language, data: PageData = {}): Promise<RenderedPage> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(url, 'http://localhost')));
  if (context instanceof Response) throw new Error(`${url} answered a redirect while rendering`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const i18n = await createServerI18n(lng, resources);
  const queryClient = createQueryClient();
  if (data.catalogueSummary) {
    // A failure is kept as the query's error state, so the page renders its error view.
    await queryClient.prefetchQuery({ ...catalogueSummaryQuery(), queryFn: data.catalogueSummary, retry: false });
  }
  const html = renderToString(
    <StrictMode>
      <AppProviders i18n={i18n} queryClient={queryClient}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  // Queries schedule garbage-collection timers that would keep a build process alive for minutes.
  queryClient.clear();
  const meta = pageMeta(context.matches.map((m) => m.route.handle));
  return { html, title: i18n.t(meta.title), description: i18n.t(meta.description) };
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Puts a rendered page (or, for the app shell, a loading placeholder) into a template. */
export function fillTemplate(template: string, lang: Language, page: RenderedPage | null): string {
  const head = page ? `<meta name="description" content="${escapeHtml(page.description)}" />` : '';
  let html = template.replace('<html lang="en">', `<html lang="${lang}">`).replace('<!--head-->', head);
  if (page) html = html.replace('<title>Kaminuza</title>', `<title>${escapeHtml(page.title)}</title>`);
  // Rendered pages are marked for hydration; the app shell shows a spinner until the app replaces it.
  return page
    ? html.replace('<div id="root">', '<div id="root" data-ssr>').replace('<!--app-->', page.html)
    : html.replace('<!--app-->', SHELL_PLACEHOLDER);
}

const SHELL_PLACEHOLDER =
  '<div role="status" aria-busy="true" class="flex min-h-dvh items-center justify-center">' +
  '<span aria-hidden="true" class="size-10 animate-spin rounded-full border-4 border-border border-t-brand"></span>' +
  '<span class="sr-only">Loading</span></div>';

const templates = new Map<string, Promise<string>>();
function template(name: keyof typeof TEMPLATES): Promise<string> {
  let loaded = templates.get(name);
  if (!loaded) {
    loaded = readFile(new URL(TEMPLATES[name], import.meta.url), 'utf8');
    templates.set(name, loaded);
  }
  return loaded;
}

/** The whole HTML document of a public page in `lng`. */
export async function renderDocument(url: string, lng: Language, data: PageData = {}): Promise<string> {
  const hydrated = (HYDRATED_PAGES as readonly string[]).includes(url);
  return fillTemplate(await template(hydrated ? 'app' : 'public'), lng, await renderPage(url, lng, data));
}
