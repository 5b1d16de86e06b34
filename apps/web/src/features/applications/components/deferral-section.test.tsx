import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { DECISION_MESSAGES as D, type ApplyContext, type Deferral, type StudentDecision } from '@kaminuza/shared';
import { clearCachedAt } from '../../../lib/cached-at.ts';
import { DecisionView } from './decision-view.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const PARTNER = '00000000-0000-4000-8000-00000000000a';
const APPLICATION = '00000000-0000-4000-8000-0000000000a1';
const CONTEXT_URL = `/api/v1/partners/${PARTNER}/application`;
const DECISION_URL = `/api/v1/applications/${APPLICATION}/decision`;
const DEFERRAL_URL = `${DECISION_URL}/deferral`;
const CYCLES_URL = `${DEFERRAL_URL}/cycles`;

const context: ApplyContext = {
  partner: { id: PARTNER, name: 'Lake Kivu Institute', logo_url: null, city: 'Gisenyi', country: 'RW', theme: null },
  cycle: {
    id: '00000000-0000-4000-8000-000000000003',
    name: 'September intake',
    opens_on: '2026-01-01',
    closes_on: '2026-06-30',
    decision_release_on: '2026-07-15',
    timezone: 'Africa/Kigali',
    accepting_applications: true,
  },
  programs: [],
  fee: { amount: 0, currency: 'USD' },
  application: {
    id: APPLICATION,
    partner_id: PARTNER,
    partner_name: 'Lake Kivu Institute',
    partner_logo_url: null,
    cycle_id: '00000000-0000-4000-8000-000000000003',
    cycle_name: 'September intake',
    program_id: '00000000-0000-4000-8000-000000000002',
    program_name: 'BSc Computer Science',
    campus_id: null,
    campus_name: null,
    status: 'submitted',
    progress_percentage: 100,
    current_step: 2,
    current_section_index: 0,
    started_at: '2026-03-01T09:00:00.000Z',
    last_saved_at: '2026-03-02T09:00:00.000Z',
    submitted_at: '2026-03-02T09:00:00.000Z',
    reference: 'KZ-2026-000123',
    paid: false,
    under_review: false,
  },
};

function decision(overrides: Partial<StudentDecision> = {}): StudentDecision {
  return {
    id: '00000000-0000-4000-8000-0000000000d1',
    application_id: APPLICATION,
    partner_id: PARTNER,
    program_name: 'BSc Computer Science',
    university_name: 'Lake Kivu Institute',
    state: 'accepted',
    released_at: '2026-07-15T12:00:00.000Z',
    // An offer the applicant accepted: the one they may ask to defer.
    response: 'accepted',
    response_date: '2026-07-20T12:00:00.000Z',
    has_letter: true,
    message: '',
    conditions: [],
    condition_views: [],
    conditions_status: null,
    conditions_decided_at: null,
    reply_by: null,
    reply_by_on: null,
    lapsed_at: null,
    deferral: null,
    ...overrides,
  };
}

type Reply = { status: number; body: unknown; headers?: Record<string, string> };
const ok = (data: unknown): Reply => ({ status: 200, body: { data } });
const failure = (status: number, code: string, message: string): Reply => ({
  status,
  body: { error: { status: code, message } },
});

/** The API as the browser sees it: one reply (or a function of the request) per method and path. */
function serve(routes: Record<string, Reply | ((init?: RequestInit) => Reply)>) {
  const fetch = vi.fn(async (input: string, init?: RequestInit) => {
    const route = routes[`${init?.method ?? 'GET'} ${input}`];
    const reply = typeof route === 'function' ? route(init) : (route ?? failure(404, 'NOT_FOUND', 'Not found'));
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderView() {
  const router = createMemoryRouter(
    [
      { path: '/application/decision', element: <DecisionView area="area" partnerId={PARTNER} /> },
      { path: '/application/form', element: <p>The form</p> },
    ],
    { initialEntries: [`/application/decision?partner=${PARTNER}`] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
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
  vi.unstubAllGlobals();
  clearCachedAt();
});

/** A term's value in the decision's facts. */
const fact = (term: string) => screen.queryByText(term, { selector: 'dt' })?.nextElementSibling?.textContent;

const NEXT = { id: '00000000-0000-4000-8000-000000000013', name: 'September 2027 intake' };
const LATER = { id: '00000000-0000-4000-8000-000000000014', name: 'September 2028 intake' };
const cycles = [
  { ...NEXT, opens_on: '2027-01-01', closes_on: '2027-06-30' },
  { ...LATER, opens_on: '2028-01-01', closes_on: '2028-06-30' },
];

function deferral(overrides: Partial<Deferral> = {}): Deferral {
  return {
    id: '00000000-0000-4000-8000-0000000000e1',
    status: 'pending',
    from_cycle: { id: context.cycle!.id, name: 'September intake' },
    to_cycle: NEXT,
    reason: 'A year of national service.',
    note: '',
    requested_at: '2026-07-22T10:00:00.000Z',
    closed_at: null,
    ...overrides,
  };
}

const section = () => screen.getByRole('region', { name: 'Defer your place' });

describe('Deferring an accepted offer', () => {
  it('asks for a later intake with a reason, checked before sending, then shows the request waiting', async () => {
    const fetch = serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision()),
      [`GET ${CYCLES_URL}`]: ok({ items: cycles }),
      [`POST ${DEFERRAL_URL}`]: () => ({ status: 201, body: { data: decision({ deferral: deferral() }) } }),
    });
    renderView();
    fireEvent.click(await screen.findByRole('button', { name: 'Ask to defer' }));
    within(section()).getByText(/You can ask Lake Kivu Institute to hold your place in BSc Computer Science/);
    const dialog = screen.getByRole('dialog', { name: 'Ask to defer your place' });
    const select = within(dialog).getByRole('combobox', { name: 'Intake' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose an intake', 'September 2027 intake', 'September 2028 intake']);

    // Nothing chosen, nothing written: each field says what it needs, and nothing is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send the request' }));
    within(dialog).getByText(en.decisions.errors.deferral_cycle_required);
    within(dialog).getByText(en.decisions.errors.deferral_reason_required);
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    fireEvent.change(select, { target: { value: NEXT.id } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Why do you want to defer\?/ }), {
      target: { value: 'A year of national service.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send the request' }));
    expect((await screen.findByText('Your request to defer was sent.')).getAttribute('role')).toBe('status');
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(post?.[0]).toBe(DEFERRAL_URL);
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ cycle_id: NEXT.id, reason: 'A year of national service.' });
    expect(screen.queryByRole('dialog')).toBeNull();
    within(section()).getByText(
      'You asked on Jul 22, 2026 to defer your place to September 2027 intake. Lake Kivu Institute has not answered yet.',
    );
    within(section()).getByText('A year of national service.');
    expect(screen.queryByRole('button', { name: 'Ask to defer' })).toBeNull();
  });

  it('shows the api’s refusal in the dialog', async () => {
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision()),
      [`GET ${CYCLES_URL}`]: ok({ items: cycles }),
      [`POST ${DEFERRAL_URL}`]: failure(409, 'ABORTED', D.deferral_no_cycle),
    });
    renderView();
    fireEvent.click(await screen.findByRole('button', { name: 'Ask to defer' }));
    const dialog = screen.getByRole('dialog', { name: 'Ask to defer your place' });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Intake' }), { target: { value: LATER.id } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Why do you want to defer\?/ }), {
      target: { value: 'Work' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send the request' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(en.decisions.errors.deferral_no_cycle);
  });

  it('withdraws a waiting request behind a confirmation', async () => {
    const fetch = serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision({ deferral: deferral() })),
      [`GET ${CYCLES_URL}`]: ok({ items: cycles }),
      [`DELETE ${DEFERRAL_URL}`]: () =>
        ok(decision({ deferral: deferral({ status: 'withdrawn', closed_at: '2026-07-23T10:00:00.000Z' }) })),
    });
    renderView();
    fireEvent.click(await screen.findByRole('button', { name: 'Withdraw the request' }));
    const dialog = screen.getByRole('dialog', { name: 'Withdraw your request to defer?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, withdraw' }));
    expect((await screen.findByText('Your request to defer was withdrawn.')).getAttribute('role')).toBe('status');
    expect(fetch.mock.calls.some(([url, init]) => url === DEFERRAL_URL && init?.method === 'DELETE')).toBe(true);
    within(section()).getByText('You withdrew your request to defer on Jul 23, 2026.');
    // The applicant may ask again.
    await screen.findByRole('button', { name: 'Ask to defer' });
  });

  it('shows an approved deferral with the intake and the university’s note', async () => {
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(
        decision({
          deferral: deferral({ status: 'approved', note: 'See you next year.', closed_at: '2026-07-25T10:00:00.000Z' }),
        }),
      ),
    });
    renderView();
    await screen.findByText(
      'Your place is deferred to September 2027 intake: Lake Kivu Institute approved your request on Jul 25, 2026.',
    );
    expect(fact('Deferred to')).toBe('September 2027 intake');
    within(section()).getByRole('heading', { name: 'Note from Lake Kivu Institute' });
    within(section()).getByText('See you next year.');
    expect(screen.queryByRole('button', { name: 'Ask to defer' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Withdraw the request' })).toBeNull();
  });

  it('shows a declined request with the note, and offers nothing more', async () => {
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(
        decision({
          deferral: deferral({
            status: 'declined',
            note: 'We cannot hold places.',
            closed_at: '2026-07-25T10:00:00.000Z',
          }),
        }),
      ),
    });
    renderView();
    await screen.findByText(
      'Lake Kivu Institute declined your request to defer to September 2027 intake on Jul 25, 2026. Your place stays in the intake you accepted.',
    );
    screen.getByText('We cannot hold places.');
    expect(fact('Deferred to')).toBeUndefined();
    expect(screen.queryByRole('button', { name: 'Ask to defer' })).toBeNull();
  });

  it('offers nothing where no later intake offers the program, or the offer is not accepted yet', async () => {
    const fetch = serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision()),
      [`GET ${CYCLES_URL}`]: ok({ items: [] }),
    });
    renderView();
    await screen.findByText('You accepted this offer on Jul 20, 2026.');
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => url === CYCLES_URL)).toBe(true));
    expect(screen.queryByRole('region', { name: 'Defer your place' })).toBeNull();
    cleanup();

    const unanswered = serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision({ response: null, response_date: null })),
    });
    renderView();
    await screen.findByRole('button', { name: 'Accept the offer' });
    expect(screen.queryByRole('button', { name: 'Ask to defer' })).toBeNull();
    expect(unanswered.mock.calls.some(([url]) => url === CYCLES_URL)).toBe(false);
  });
});
