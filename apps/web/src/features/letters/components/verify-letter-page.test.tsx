import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { LetterVerification } from '@kaminuza/shared';
import { normaliseCode, VerifyLetterPage } from './verify-letter-page.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const CODE = 'ABCD-EFGH-JKLM';
const verified: LetterVerification = {
  student_name: 'Aline Uwase',
  university_name: 'Lake Kivu Institute',
  program_name: 'BSc Computer Science',
  state: 'accepted',
  issued_on: '2026-07-15',
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

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: '/letters/:code', element: <VerifyLetterPage /> }], {
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

describe('normaliseCode', () => {
  it('reads a code as typed: any case, with or without its dashes', () => {
    expect(normaliseCode('abcd-efgh-jklm')).toBe(CODE);
    expect(normaliseCode(' ABCDEFGHJKLM ')).toBe(CODE);
    expect(normaliseCode('abcd efgh jklm')).toBe(CODE);
  });

  it('refuses codes outside the alphabet or of another length', () => {
    // I, O, 0 and 1 are never used: they look like other characters.
    expect(normaliseCode('ABCD-EFGH-IJKL')).toBeNull();
    expect(normaliseCode('ABCD-EFGH-JK0M')).toBeNull();
    expect(normaliseCode('ABCD-EFGH')).toBeNull();
    expect(normaliseCode('')).toBeNull();
  });
});

describe('VerifyLetterPage', () => {
  it('confirms a genuine letter with no more than the name, institution, program, decision and date', async () => {
    const fetch = serve({ [`/api/v1/letters/${CODE}`]: { status: 200, body: { data: verified } } });
    renderAt('/letters/abcd-efgh-jklm');
    expect(await screen.findByRole('heading', { name: /This letter is genuine/ })).toBeTruthy();
    screen.getByText('Aline Uwase');
    screen.getByText('Lake Kivu Institute');
    screen.getByText('BSc Computer Science');
    screen.getByText('Accepted');
    screen.getByText('July 15, 2026');
    expect(screen.getAllByRole('definition')).toHaveLength(5);
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0]?.[0]).toBe(`/api/v1/letters/${CODE}`);
  });

  it('says no letter matches an unknown code, and checks another one', async () => {
    serve({
      '/api/v1/letters/ABCD-EFGH-JKLN': failure(404, 'NOT_FOUND', 'No letter matches this verification code.'),
      [`/api/v1/letters/${CODE}`]: { status: 200, body: { data: verified } },
    });
    const router = renderAt('/letters/ABCD-EFGH-JKLN');
    expect(await screen.findByRole('heading', { name: 'Letter not found' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('No letter matches this verification code.');
    const input = screen.getByRole('textbox', { name: 'Verification code' });
    fireEvent.change(input, { target: { value: 'abcdefghjklm' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check the code' }));
    expect(await screen.findByRole('heading', { name: /This letter is genuine/ })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/letters/${CODE}`);
  });

  it('answers a malformed code without asking the server', async () => {
    const fetch = serve({});
    renderAt('/letters/not-a-code');
    expect(await screen.findByRole('heading', { name: 'Letter not found' })).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a failure with a retry, then the letter', async () => {
    let up = false;
    serve({
      [`/api/v1/letters/${CODE}`]: () =>
        up ? { status: 200, body: { data: verified } } : failure(503, 'UNAVAILABLE', 'unavailable'),
    });
    renderAt(`/letters/${CODE}`);
    expect(screen.getByRole('status').textContent).toBe('Loading');
    // One retry after a second before the failure shows.
    expect(await screen.findByRole('alert', {}, { timeout: 3000 })).toBeTruthy();
    up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: /This letter is genuine/ })).toBeTruthy();
  });
});
