import { render } from '@testing-library/react';
import { vi } from 'vitest';
import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import fr from '@kaminuza/shared/locales/fr.json';
import rw from '@kaminuza/shared/locales/rw.json';

/*
 * What the tests of the verification pages share: the api as the browser sees it, and a page rendered at
 * an address in a language, as the QR code of a printed document opens it.
 */

export type Reply = { status: number; body: unknown };

export const failure = (status: number, code: string, message: string): Reply => ({
  status,
  body: { error: { status: code, message } },
});

/** The API as the browser sees it: envelope bodies by path; any other path is not found. */
export function serve(routes: Record<string, Reply | (() => Reply)>) {
  const fetch = vi.fn(async (input: string) => {
    const route = routes[input];
    const reply = typeof route === 'function' ? route() : (route ?? failure(404, 'NOT_FOUND', 'Not found'));
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** `page` at `url`, under its route `path`, in a fresh query cache that never retries by itself. */
export async function renderPage(path: string, page: ReactElement, url: string, lng: 'en' | 'fr' | 'rw' = 'en') {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    resources: { en: { translation: en }, fr: { translation: fr }, rw: { translation: rw } },
    initAsync: false,
  });
  const router = createMemoryRouter([{ path, element: page }], { initialEntries: [url] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return router;
}
