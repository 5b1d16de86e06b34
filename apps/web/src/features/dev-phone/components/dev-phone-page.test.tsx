import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { DevPhonePage } from './dev-phone-page.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const LIST = '/api/v1/dev/phone/prompts';
const momo = {
  provider: 'mtn_momo',
  id: '6f1b6a4e-2d5c-4e8a-9b1f-0c2d3e4f5a6b',
  msisdn: '250788123450',
  amount: 30000,
  currency: 'RWF',
  status: 'pending',
  created_at: '2026-01-02T10:00:00.000Z',
};
const mpesa = {
  provider: 'mpesa',
  id: 'ws_CO_020120261000001',
  msisdn: '254712345670',
  amount: 300000,
  currency: 'KES',
  status: 'succeeded',
  created_at: '2026-01-02T09:00:00.000Z',
};

type Route = { status: number; body?: unknown };

/** The API as the browser sees it, by method and path; records the calls. */
function serve(routes: Record<string, Route | (() => Route)>) {
  const calls: string[] = [];
  const fetch = vi.fn(async (input: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${input}`;
    calls.push(key);
    const found = routes[key];
    const route = (typeof found === 'function' ? found() : found) ?? {
      status: 404,
      body: { error: { status: 'NOT_FOUND', message: 'Not found' } },
    };
    return route.body === undefined
      ? new Response(null, { status: route.status })
      : new Response(JSON.stringify(route.body), {
          status: route.status,
          headers: { 'content-type': 'application/json' },
        });
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

function renderPage() {
  const router = createMemoryRouter([{ path: '/dev/phone', element: <DevPhonePage /> }], {
    initialEntries: ['/dev/phone'],
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
  vi.useRealTimers();
});

describe('DevPhonePage', () => {
  it('lists the pending prompts with their network, number and amount, and the answered ones apart', async () => {
    serve({ [`GET ${LIST}`]: { status: 200, body: { data: [momo, mpesa] } } });
    renderPage();
    const pending = await screen.findByRole('region', { name: 'Waiting for the payer' });
    const card = within(pending).getByRole('listitem');
    within(card).getByRole('heading', { name: /MTN MoMo: RWF\s30,000/ });
    within(card).getByText('250788123450');
    within(card).getByRole('button', { name: 'Approve' });
    const answered = screen.getByRole('region', { name: 'Answered' });
    within(answered).getByRole('heading', { name: /M-Pesa: KES\s3,000\.00/ });
    within(answered).getByText('Approved');
    expect(within(answered).queryByRole('button', { name: 'Approve' })).toBeNull();
    // The scripted numbers, as help.
    screen.getByText('…222');
    screen.getByText('Declined at once');
  });

  it('approves a prompt as the phone would, and shows it answered', async () => {
    let approved = false;
    const calls = serve({
      [`GET ${LIST}`]: () => ({
        status: 200,
        body: { data: [approved ? { ...momo, status: 'succeeded' } : momo] },
      }),
      [`POST ${LIST}/mtn_momo/${momo.id}/approve`]: () => {
        approved = true;
        return { status: 204 };
      },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    await screen.findByRole('region', { name: 'Answered' });
    expect(calls).toContain(`POST ${LIST}/mtn_momo/${momo.id}/approve`);
    screen.getByText(/No payment prompts yet/);
  });

  it('says so when a prompt was already answered', async () => {
    serve({
      [`GET ${LIST}`]: { status: 200, body: { data: [momo] } },
      [`POST ${LIST}/mtn_momo/${momo.id}/decline`]: {
        status: 409,
        body: { error: { status: 'ABORTED', message: 'aborted' } },
      },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This prompt was already answered.');
  });

  it('shows the empty state', async () => {
    serve({ [`GET ${LIST}`]: { status: 200, body: { data: [] } } });
    renderPage();
    await screen.findByText('No payment prompts yet. Pay an application fee by mobile money to see one here.');
  });

  it('shows an error with a retry when the prompts cannot be loaded', async () => {
    const calls = serve({});
    renderPage();
    const alert = await screen.findByRole('alert');
    within(alert).getByText(/could not be loaded/);
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.filter((call) => call === `GET ${LIST}`).length).toBeGreaterThan(1));
  });

  it('says when the browser is offline', async () => {
    serve({ [`GET ${LIST}`]: { status: 200, body: { data: [] } } });
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderPage();
    await screen.findByText(/You are offline/);
    vi.restoreAllMocks();
  });

  it('refreshes the list every two seconds', async () => {
    const calls = serve({ [`GET ${LIST}`]: { status: 200, body: { data: [] } } });
    renderPage();
    await screen.findByText(/No payment prompts yet/);
    const before = calls.length;
    await waitFor(() => expect(calls.length).toBeGreaterThan(before), { timeout: 3_500 });
  });
});
