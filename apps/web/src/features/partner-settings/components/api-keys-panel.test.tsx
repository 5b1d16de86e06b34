import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { COPIED_FEEDBACK_MS, type PartnerApiKey } from '@kaminuza/shared';
import { ApiKeysPanel } from './api-keys-panel.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const PARTNER = '00000000-0000-4000-8000-000000000001';
const KEY = `kz_abcd1234_${'x'.repeat(43)}`;
const apiKey: PartnerApiKey = {
  id: '00000000-0000-4000-8000-000000000002',
  name: 'Student information system',
  scopes: ['submissions:read'],
  prefix: 'kz_abcd1234',
  created_at: '2026-11-01T10:00:00.000Z',
  last_used_at: null,
  revoked_at: null,
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The list is empty until the key is made; creating answers the key once. */
function serveKeys() {
  let keys: PartnerApiKey[] = [];
  const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
    if (init?.method === 'POST') {
      keys = [apiKey];
      return json({ data: { key: KEY, api_key: apiKey } }, 201);
    }
    return json({ data: keys });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

// jsdom has no modal dialogs: opening one only needs to set `open`, as browsers do.
HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
  this.open = false;
};

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('ApiKeysPanel', () => {
  it('shows a new key once, copies it with Copied! for 2 seconds, and lists it by its prefix only', async () => {
    const fetch = serveKeys();
    const writeText = vi.fn(async () => {});
    Object.assign(navigator, { clipboard: { writeText } });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <ApiKeysPanel partnerId={PARTNER} />
        </QueryClientProvider>
      </I18nextProvider>,
    );
    expect(await screen.findByText('No API keys yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: /API documentation/ }).getAttribute('href')).toBe('/api/docs');

    fireEvent.click(screen.getByRole('button', { name: 'Create an API key' }));
    const dialog = screen.getByRole('dialog');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' })));
    expect(await within(dialog).findByText('Choose at least one scope')).toBeTruthy();
    within(dialog).getByText('Name is required');

    fireEvent.change(within(dialog).getByLabelText('Key name'), { target: { value: 'Student information system' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Read applications/ }));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' })));
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      name: 'Student information system',
      scopes: ['submissions:read'],
    });

    expect(await screen.findByText(KEY)).toBeTruthy();
    screen.getByText('Copy this key now and keep it somewhere safe. It will not be shown again.');
    const list = await screen.findByRole('list', { name: 'Your API keys' });
    within(list).getByText('kz_abcd1234…');
    expect(within(list).queryByText(KEY)).toBeNull();

    vi.useFakeTimers();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy' })));
    expect(writeText).toHaveBeenCalledWith(KEY);
    screen.getByRole('button', { name: 'Copied!' });
    await act(async () => vi.advanceTimersByTime(COPIED_FEEDBACK_MS - 1));
    screen.getByRole('button', { name: 'Copied!' });
    await act(async () => vi.advanceTimersByTime(1));
    screen.getByRole('button', { name: 'Copy' });

    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(KEY)).toBeNull();
  });
});
