import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import fr from '@kaminuza/shared/locales/fr.json';
import rw from '@kaminuza/shared/locales/rw.json';
import type { ReceiptVerification } from '@kaminuza/shared';
import { normaliseReceiptCode, VerifyReceiptPage } from './verify-receipt-page.tsx';

const CODE = 'ABCD-EFGH-JKLM';
const verified: ReceiptVerification = {
  valid: true,
  receipt_number: 'KZ-R-2026-4F7K2Q',
  institution: 'Lake Kivu Institute',
  payer_initials: 'A. U.',
  amount: 10000,
  currency: 'RWF',
  paid_at: '2026-07-15T09:30:00.000Z',
  method: 'mobile_money',
  provider: 'mtn_momo',
};

type Reply = { status: number; body: unknown };
const failure = (status: number, code: string, message: string): Reply => ({
  status,
  body: { error: { status: code, message } },
});

/** The API as the browser sees it: envelope bodies by path. */
function serve(routes: Record<string, Reply | (() => Reply)>) {
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

async function renderAt(url: string, lng: 'en' | 'fr' | 'rw' = 'en') {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    resources: { en: { translation: en }, fr: { translation: fr }, rw: { translation: rw } },
    initAsync: false,
  });
  const router = createMemoryRouter([{ path: '/verify/receipt/:code', element: <VerifyReceiptPage /> }], {
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
  return router;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('normaliseReceiptCode', () => {
  it('reads a code as typed: any case, with or without its dashes', () => {
    expect(normaliseReceiptCode('abcd-efgh-jklm')).toBe(CODE);
    expect(normaliseReceiptCode(' ABCDEFGHJKLM ')).toBe(CODE);
  });

  it('refuses codes outside the alphabet or of another length', () => {
    expect(normaliseReceiptCode('ABCD-EFGH-IJKL')).toBeNull();
    expect(normaliseReceiptCode('ABCD-EFGH')).toBeNull();
    expect(normaliseReceiptCode('')).toBeNull();
  });
});

describe('VerifyReceiptPage', () => {
  it('confirms a genuine receipt with the payer by initials', async () => {
    const fetch = serve({ [`/api/v1/receipts/verify/${CODE}`]: { status: 200, body: { data: verified } } });
    await renderAt('/verify/receipt/abcd-efgh-jklm');
    expect(await screen.findByRole('heading', { name: /This receipt is genuine/ })).toBeTruthy();
    screen.getByText('KZ-R-2026-4F7K2Q');
    screen.getByText('Lake Kivu Institute');
    screen.getByText('A. U.');
    screen.getByText(/RWF\s10,000/);
    screen.getByText('July 15, 2026');
    screen.getByText('Mobile money — MTN MoMo');
    expect(screen.getAllByRole('definition')).toHaveLength(6);
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0]?.[0]).toBe(`/api/v1/receipts/verify/${CODE}`);
  });

  it('speaks French and Kinyarwanda', async () => {
    serve({ [`/api/v1/receipts/verify/${CODE}`]: { status: 200, body: { data: verified } } });
    await renderAt(`/verify/receipt/${CODE}`, 'fr');
    expect(await screen.findByRole('heading', { name: /Ce reçu est authentique/ })).toBeTruthy();
    screen.getByRole('heading', { name: 'Vérifier un reçu' });
    cleanup();
    await renderAt(`/verify/receipt/${CODE}`, 'rw');
    expect(await screen.findByRole('heading', { name: /Iyi nyemezabwishyu ni iy’ukuri/ })).toBeTruthy();
  });

  it('says no receipt matches an unknown code, and checks another one', async () => {
    serve({
      '/api/v1/receipts/verify/ABCD-EFGH-JKLN': failure(404, 'NOT_FOUND', 'No receipt has this verification code.'),
      [`/api/v1/receipts/verify/${CODE}`]: { status: 200, body: { data: verified } },
    });
    const router = await renderAt('/verify/receipt/ABCD-EFGH-JKLN');
    expect(await screen.findByRole('heading', { name: 'Receipt not found' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'No receipt has this verification code. Check the code and try again.',
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Verification code' }), {
      target: { value: 'abcdefghjklm' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByRole('heading', { name: /This receipt is genuine/ })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/verify/receipt/${CODE}`);
  });

  it('answers a malformed code without asking the server', async () => {
    const fetch = serve({});
    await renderAt('/verify/receipt/not-a-code');
    expect(await screen.findByRole('heading', { name: 'Receipt not found' })).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a failure with a retry while offline, then the receipt', async () => {
    let up = false;
    serve({
      [`/api/v1/receipts/verify/${CODE}`]: () =>
        up ? { status: 200, body: { data: verified } } : failure(503, 'UNAVAILABLE', 'unavailable'),
    });
    await renderAt(`/verify/receipt/${CODE}`);
    expect(screen.getByRole('status').textContent).toBe('Loading');
    // One retry after a second before the failure shows.
    expect(await screen.findByRole('alert', {}, { timeout: 3000 })).toBeTruthy();
    up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: /This receipt is genuine/ })).toBeTruthy();
  });
});
