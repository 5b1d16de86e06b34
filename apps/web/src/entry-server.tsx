import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { Language } from '@kaminuza/shared';
import en from '@kaminuza/shared/locales/en.json';
import fr from '@kaminuza/shared/locales/fr.json';
import rw from '@kaminuza/shared/locales/rw.json';
import { AppProviders } from './app/providers.tsx';
import { routes } from './app/routes.tsx';
import { pageMeta } from './app/page-meta.ts';
import { createServerI18n } from './lib/i18n.ts';
import { createQueryClient } from './lib/query-client.ts';

const resources = { en: { translation: en }, fr: { translation: fr }, rw: { translation: rw } };

export interface RenderedPage {
  html: string;
  title: string;
  description: string;
}

/** Renders a public page to HTML in `lng`, for the prerender step of the build. */
export async function render(url: string, lng: Language): Promise<RenderedPage> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(url, 'http://localhost')));
  if (context instanceof Response) throw new Error(`${url} answered a redirect while prerendering`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const i18n = await createServerI18n(lng, resources);
  const html = renderToString(
    <StrictMode>
      <AppProviders i18n={i18n} queryClient={createQueryClient()}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  const meta = pageMeta(context.matches.map((m) => m.route.handle));
  return { html, title: i18n.t(meta.title), description: i18n.t(meta.description) };
}
