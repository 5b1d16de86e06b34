import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { DevMailboxPage } from './dev-mailbox-page.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const ID = '3853016b-e35f-4475-83c0-15fd09d7d58f';
const LINK = 'http://localhost:3000/auth/verify-email?code=abc';
const summary = {
  id: ID,
  to: 'ada@example.com',
  from: '"Kaminuza" <no-reply@kaminuza.example>',
  subject: 'Verify your email address',
  created_at: '2026-01-02T10:00:00.000Z',
};
const message = {
  ...summary,
  html: '<p>Hello <script>parent.alert(1)</script></p>',
  text: `Hello Ada,\n\nVerify my email: ${LINK}.\n\nThe Kaminuza team`,
  headers: [{ name: 'Subject', value: 'Verify your email address' }],
};

/** The API as the browser sees it: envelope bodies by path. */
function serve(routes: Record<string, { status: number; body: unknown }>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const route = routes[input] ?? { status: 404, body: { error: { status: 'NOT_FOUND', message: 'Not found' } } };
      return new Response(JSON.stringify(route.body), {
        status: route.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: '/dev/mailbox', element: <DevMailboxPage /> }], {
    initialEntries: [url],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DevMailboxPage', () => {
  it('lists the messages', async () => {
    serve({ '/api/v1/dev/mailbox': { status: 200, body: { data: [summary] } } });
    renderAt('/dev/mailbox');
    const nav = await screen.findByRole('navigation', { name: 'Messages' });
    const link = await within(nav).findByRole('link', { name: /Verify your email address/ });
    expect(link.getAttribute('href')).toBe(`/dev/mailbox?id=${ID}`);
    screen.getByText('Choose an email to read it.');
  });

  it('says so when there is no mail', async () => {
    serve({ '/api/v1/dev/mailbox': { status: 200, body: { data: [] } } });
    renderAt('/dev/mailbox');
    expect(await screen.findByText(/No emails yet/)).toBeTruthy();
  });

  it('shows an error with a retry when the mailbox cannot be loaded', async () => {
    serve({});
    renderAt('/dev/mailbox');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The mailbox could not be loaded.');
    within(alert).getByRole('button', { name: 'Try again' });
  });

  it('shows the selected message in a sandboxed frame, with the text part linked', async () => {
    serve({
      '/api/v1/dev/mailbox': { status: 200, body: { data: [summary] } },
      [`/api/v1/dev/mailbox/${ID}`]: { status: 200, body: { data: message } },
    });
    renderAt(`/dev/mailbox?id=${ID}`);
    expect(await screen.findByRole('heading', { level: 2, name: 'Verify your email address' })).toBeTruthy();
    const frame = screen.getByTitle('Email preview: Verify your email address');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('src')).toBe(`/api/v1/dev/mailbox/${message.id}/html`);
    expect(screen.getByRole('link', { name: LINK }).getAttribute('href')).toBe(LINK);
    screen.getByRole('link', { name: 'Back to the list' });
  });
});
