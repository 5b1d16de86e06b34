import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { Cycle, SessionUser, StaffPermission } from '@kaminuza/shared';
import { MemoryRouter } from 'react-router';
import { SessionProvider } from '../../../lib/session.tsx';
import { CyclesPage } from './cycles-page.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

// jsdom has no modal dialogs: opening one only needs to set `open`, as browsers do.
HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
  this.open = false;
};

const PARTNER = '00000000-0000-4000-8000-00000000000a';
const stamp = '2026-01-01T00:00:00.000Z';
const cycle: Cycle = {
  id: '00000000-0000-4000-8000-000000000003',
  name: 'September intake',
  opens_on: '2026-09-01',
  closes_on: '2026-11-30',
  decision_release_on: null,
  status: 'open',
  program_ids: ['00000000-0000-4000-8000-000000000002'],
  current: false,
  accepting_applications: true,
  created_at: stamp,
  updated_at: stamp,
};

const placesRow = {
  program_id: '00000000-0000-4000-8000-000000000002',
  program_name: 'BSc Computer Science',
  campus_id: '00000000-0000-4000-8000-000000000004',
  campus_name: 'Gisenyi',
  places: null,
  accepted: 2,
  outstanding: 1,
  drafted: 4,
  left: null,
};

const waiting = [
  {
    submission_id: '00000000-0000-4000-8000-000000000021',
    reference: 'KZ-AAAA-0001',
    applicant_name: 'Aline Uwase',
    rank: null,
    score_average: 81.5,
    proposed_at: null,
  },
  {
    submission_id: '00000000-0000-4000-8000-000000000022',
    reference: 'KZ-AAAA-0002',
    applicant_name: 'Eric Mugisha',
    rank: null,
    score_average: null,
    proposed_at: '2026-08-01T10:00:00.000Z',
  },
];

function member(permissions: StaffPermission[]): SessionUser {
  return {
    id: '00000000-0000-4000-8000-00000000000b',
    email: 'registrar@example.com',
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
    staff_permissions: permissions,
    staff_active: true,
  };
}

/** The session, the cycles and the programs; making a cycle current answers `current` (the api's 404 for an unknown route by default). */
function serve(
  user: SessionUser,
  current: { status: number; body: unknown } = {
    status: 404,
    body: { error: { status: 'NOT_FOUND', message: 'Not found' } },
  },
) {
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://x').pathname;
    if (path === '/api/v1/auth/session') return json(200, { data: user });
    if (path.endsWith('/settings/current-cycle') && init?.method === 'PUT') return json(current.status, current.body);
    if (path.endsWith('/places') && init?.method === 'PUT') {
      const { places } = JSON.parse(String(init.body)) as { places: Array<{ places: number | null }> };
      return json(200, { data: [{ ...placesRow, places: places[0]!.places, left: places[0]!.places! - 3 }] });
    }
    if (path.endsWith('/places')) return json(200, { data: [placesRow] });
    if (path.endsWith('/waitlist') && init?.method === 'PUT') {
      const { submission_ids: ids } = JSON.parse(String(init.body)) as { submission_ids: string[] };
      return json(200, {
        data: ids.map((id, index) => ({ ...waiting.find((entry) => entry.submission_id === id)!, rank: index + 1 })),
      });
    }
    if (path.endsWith('/waitlist')) return json(200, { data: waiting });
    if (path.endsWith('/cycles')) return json(200, { data: [cycle] });
    if (path.endsWith('/programs')) return json(200, { data: [] });
    return json(404, { error: { status: 'NOT_FOUND', message: 'Not found' } });
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
          <MemoryRouter>
            <CyclesPage />
          </MemoryRouter>
        </SessionProvider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CyclesPage', () => {
  it('shows each cycle’s dates, state and open programs', async () => {
    serve(member(['review_applications']));
    renderPage();
    const card = within(await screen.findByRole('listitem'));
    card.getByRole('heading', { name: 'September intake' });
    card.getByText('Open');
    card.getByText('Accepting applications');
    card.getByText('Sep 1, 2026');
    card.getByText('Nov 30, 2026');
    card.getByText('Not set');
    card.getByText('1 program open');
    // A reader has nothing to press.
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('lets settings managers make a cycle current, but not edit cycles', async () => {
    serve(member(['manage_settings']), { status: 200, body: { data: {} } });
    renderPage();
    await screen.findByRole('listitem');
    expect(screen.queryByRole('button', { name: 'Add a cycle' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit September intake' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Make current: September intake' }));
    expect((await screen.findByRole('status')).textContent).toBe('The current cycle has changed.');
  });

  it('says plainly when the current cycle could not be changed', async () => {
    serve(member(['all']));
    renderPage();
    await screen.findByRole('listitem');
    screen.getByRole('button', { name: 'Add a cycle' });
    screen.getByRole('button', { name: 'Delete September intake' });
    fireEvent.click(screen.getByRole('button', { name: 'Make current: September intake' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The current cycle could not be changed. Not found');
  });

  it('sets the places of each program at each campus, with the offers holding them', async () => {
    const fetch = serve(member(['manage_programs']));
    renderPage();
    await screen.findByRole('listitem');
    fireEvent.click(screen.getByRole('button', { name: 'Places in September intake' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Places in September intake' }));
    const field = await dialog.findByLabelText('BSc Computer Science — Gisenyi');
    dialog.getByText('2 accepted, 1 awaiting an answer, 4 drafted.');
    expect((field as HTMLInputElement).placeholder).toBe('No limit');
    fireEvent.change(field, { target: { value: '40' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save places' }));
    expect(await dialog.findByText('Places saved.')).toBeTruthy();
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(JSON.parse(String(put[1]!.body))).toEqual({
      places: [{ program_id: placesRow.program_id, campus_id: placesRow.campus_id, places: 40 }],
    });
    dialog.getByText('2 accepted, 1 awaiting an answer, 4 drafted. 37 places left.');
  });

  it('orders a place’s waiting list for members who make decisions', async () => {
    const fetch = serve(member(['all']));
    renderPage();
    await screen.findByRole('listitem');
    fireEvent.click(screen.getByRole('button', { name: 'Places in September intake' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Places in September intake' }));
    fireEvent.click(await dialog.findByRole('button', { name: 'Waiting list' }));
    const list = within(await dialog.findByRole('list', { name: 'Waiting list: BSc Computer Science — Gisenyi' }));
    list.getByText('KZ-AAAA-0001 · score 81.5');
    list.getByText('Proposed: a place opened for this applicant.');
    expect((list.getByRole('button', { name: 'Move Aline Uwase up' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(list.getByRole('button', { name: 'Move Aline Uwase down' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Save the order' }));
    expect(await dialog.findByText('Order saved: the first is proposed when a place opens.')).toBeTruthy();
    const put = fetch.mock.calls.find(([url, init]) => String(url).endsWith('/waitlist') && init?.method === 'PUT')!;
    expect(JSON.parse(String(put[1]!.body)).submission_ids).toEqual([
      waiting[1]!.submission_id,
      waiting[0]!.submission_id,
    ]);
  });
});
