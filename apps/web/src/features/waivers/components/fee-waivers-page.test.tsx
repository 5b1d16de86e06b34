import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { Cycle, SessionUser, StaffFeeWaiver, WaiverCode } from '@kaminuza/shared';
import { SessionProvider } from '../../../lib/session.tsx';
import { FeeWaiversPage } from './fee-waivers-page.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const PARTNER = '00000000-0000-4000-8000-00000000000a';
const BASE = `/api/v1/partners/${PARTNER}`;
const stamp = '2026-01-01T00:00:00.000Z';
const cycle: Cycle = {
  id: '00000000-0000-4000-8000-000000000003',
  name: 'September intake',
  opens_on: '2026-09-01',
  closes_on: '2026-11-30',
  decision_release_on: null,
  status: 'open',
  program_ids: [],
  current: true,
  accepting_applications: true,
  created_at: stamp,
  updated_at: stamp,
};
const code: WaiverCode = {
  id: '00000000-0000-4000-8000-000000000004',
  code: 'ABCD-EFGH-JKLM',
  label: 'Scholarship fair',
  cycle_id: cycle.id,
  cycle_name: cycle.name,
  max_uses: 5,
  used_count: 2,
  expires_on: '2026-12-31',
  revoked_at: null,
  state: 'usable',
  created_at: stamp,
};
const request: StaffFeeWaiver = {
  id: '00000000-0000-4000-8000-000000000005',
  application_id: '00000000-0000-4000-8000-000000000006',
  applicant_name: 'Aline Uwase',
  applicant_email: 'aline@example.com',
  program_name: 'Computer Science',
  kind: 'request',
  status: 'requested',
  reason: 'My family lost its income this year.',
  document: { id: '00000000-0000-4000-8000-000000000007', type: 'transcript', file_name: 'letter.pdf' },
  code: null,
  decline_reason: null,
  decided_at: null,
  created_at: stamp,
};

const user: SessionUser = {
  id: '00000000-0000-4000-8000-00000000000b',
  email: 'bursar@example.com',
  type: 'staff',
  first_name: 'Diane',
  preferred_name: null,
  language: 'en',
  contact_verified: true,
  partner_id: PARTNER,
  onboarding_complete: true,
  partner_name: 'Lake Kivu Institute',
  partner_status: 'approved',
  partner_review_reason: null,
  staff_approval_status: 'approved',
  staff_permissions: ['manage_finance'],
  staff_active: true,
};

type Answer = { status: number; body: unknown };
const json = ({ status, body }: Answer) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const notFound = { status: 404, body: { error: { status: 'NOT_FOUND', message: 'Not found' } } };

function serve(routes: Record<string, Answer>) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/v1/auth/session') return json({ status: 200, body: { data: user } });
    return json(routes[`${init?.method ?? 'GET'} ${url}`] ?? notFound);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <SessionProvider>
          <FeeWaiversPage />
        </SessionProvider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

const bodyOf = (fetch: ReturnType<typeof serve>, key: string) => {
  const call = fetch.mock.calls.find(([url, init]) => `${init?.method ?? 'GET'} ${url}` === key);
  return call?.[1]?.body === undefined ? undefined : JSON.parse(String(call[1].body));
};

// jsdom has no modal dialogs: opening one only needs to set `open`, as browsers do.
HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
  this.open = false;
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('FeeWaiversPage', () => {
  it('lists waiting requests with their reason and document, and approves one', async () => {
    const fetch = serve({
      [`GET ${BASE}/fee-waivers?status=requested`]: { status: 200, body: { data: [request] } },
      [`POST ${BASE}/fee-waivers/${request.id}/approve`]: {
        status: 200,
        body: { data: { ...request, status: 'approved' } },
      },
    });
    renderPage();
    const item = within(await screen.findByRole('listitem'));
    item.getByRole('heading', { name: 'Aline Uwase' });
    item.getByText('My family lost its income this year.');
    const link = item.getByRole('link', { name: /letter\.pdf/ });
    expect(link.getAttribute('href')).toBe(`${BASE}/fee-waivers/${request.id}/document`);
    fireEvent.click(item.getByRole('button', { name: 'Approve the request of Aline Uwase' }));
    await vi.waitFor(() =>
      expect(fetch.mock.calls.some(([url]) => url === `${BASE}/fee-waivers/${request.id}/approve`)).toBe(true),
    );
  });

  it('declines with a reason, which it asks for first', async () => {
    const fetch = serve({
      [`GET ${BASE}/fee-waivers?status=requested`]: { status: 200, body: { data: [request] } },
      [`POST ${BASE}/fee-waivers/${request.id}/decline`]: {
        status: 200,
        body: { data: { ...request, status: 'declined', decline_reason: 'Attach a letter.' } },
      },
    });
    renderPage();
    const item = within(await screen.findByRole('listitem'));
    fireEvent.click(item.getByRole('button', { name: 'Decline the request of Aline Uwase' }));
    fireEvent.click(item.getByRole('button', { name: 'Decline request' }));
    expect(await item.findByText(en.waivers.errors.decline_reason_required)).toBeTruthy();
    fireEvent.change(item.getByLabelText('Reason for declining'), { target: { value: 'Attach a letter.' } });
    fireEvent.click(item.getByRole('button', { name: 'Decline request' }));
    await vi.waitFor(() =>
      expect(bodyOf(fetch, `POST ${BASE}/fee-waivers/${request.id}/decline`)).toEqual({ reason: 'Attach a letter.' }),
    );
  });

  it('says when there are no requests, and when they cannot be loaded', async () => {
    serve({ [`GET ${BASE}/fee-waivers?status=requested`]: { status: 200, body: { data: [] } } });
    renderPage();
    expect(await screen.findByText('No requests here')).toBeTruthy();
    cleanup();
    serve({});
    renderPage();
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('lists codes with their usage, creates one for the current cycle and revokes one', async () => {
    const fetch = serve({
      [`GET ${BASE}/fee-waivers?status=requested`]: { status: 200, body: { data: [] } },
      [`GET ${BASE}/waiver-codes`]: { status: 200, body: { data: [code] } },
      [`GET ${BASE}/cycles`]: { status: 200, body: { data: [cycle] } },
      [`POST ${BASE}/waiver-codes`]: {
        status: 201,
        body: { data: { ...code, id: request.id, code: 'MNPQ-RSTU-VWXY' } },
      },
      [`POST ${BASE}/waiver-codes/${code.id}/revoke`]: { status: 200, body: { data: { ...code, state: 'revoked' } } },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('tab', { name: 'Waiver codes' }));
    const list = within(await screen.findByRole('list', { name: 'Waiver codes' }));
    list.getByText('ABCD-EFGH-JKLM');
    list.getByText('2 of 5');
    list.getByText('Usable');

    const form = within(screen.getByRole('form', { name: 'New waiver code' }));
    await form.findByRole('option', { name: 'September intake' });
    fireEvent.change(form.getByLabelText('Number of uses'), { target: { value: '0' } });
    fireEvent.click(form.getByRole('button', { name: 'Create code' }));
    expect(await form.findByText(en.waivers.errors.max_uses_invalid)).toBeTruthy();
    expect(form.getByText(en.waivers.errors.expires_invalid)).toBeTruthy();
    fireEvent.change(form.getByLabelText('Number of uses'), { target: { value: '20' } });
    fireEvent.change(form.getByLabelText('Expires on'), { target: { value: '2026-12-31' } });
    fireEvent.click(form.getByRole('button', { name: 'Create code' }));
    expect(await form.findByText('Code MNPQ-RSTU-VWXY created.')).toBeTruthy();
    expect(bodyOf(fetch, `POST ${BASE}/waiver-codes`)).toEqual({
      cycle_id: cycle.id,
      max_uses: 20,
      expires_on: '2026-12-31',
      label: null,
    });

    fireEvent.click(list.getByRole('button', { name: 'Revoke code ABCD-EFGH-JKLM' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('button', { name: 'Revoke' }));
    await vi.waitFor(() =>
      expect(fetch.mock.calls.some(([url]) => url === `${BASE}/waiver-codes/${code.id}/revoke`)).toBe(true),
    );
  });
});
