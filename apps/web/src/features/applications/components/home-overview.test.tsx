import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { ApplicationCard, ApplicationSummary, StudentDecision } from '@kaminuza/shared';
import { ApplicationsPage } from './applications-page.tsx';
import { HomeOverview } from './home-overview.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function card(n: number, name: string, application: Partial<ApplicationSummary> | null): ApplicationCard {
  return {
    partner_id: id(n),
    partner_name: name,
    partner_logo_url: null,
    city: null,
    country: null,
    state: application === null ? 'apply' : application.status === 'submitted' ? 'applied' : 'in_progress',
    application: application && {
      id: id(100 + n),
      partner_id: id(n),
      partner_name: name,
      partner_logo_url: null,
      cycle_id: id(50),
      cycle_name: 'September intake',
      program_id: id(60),
      program_name: `Program at ${name}`,
      campus_id: null,
      campus_name: null,
      status: 'in_progress',
      progress_percentage: 40,
      current_step: 0,
      current_section_index: 0,
      started_at: '2026-03-01T09:00:00.000Z',
      last_saved_at: null,
      submitted_at: null,
      reference: null,
      paid: false,
      under_review: false,
      ...application,
    },
  };
}

function decision(n: number, name: string, overrides: Partial<StudentDecision>): StudentDecision {
  return {
    id: id(200 + n),
    application_id: id(100 + n),
    partner_id: id(n),
    program_name: `Program at ${name}`,
    university_name: name,
    state: 'accepted',
    released_at: '2026-07-15T12:00:00.000Z',
    response: null,
    response_date: null,
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

type Reply = { status: number; body: unknown };

function serve(routes: Record<string, Reply>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const reply = routes[input] ?? { status: 404, body: { error: { status: 'NOT_FOUND', message: 'Not found' } } };
      return new Response(JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

function renderOverview(element = <HomeOverview />) {
  const router = createMemoryRouter([{ path: '/home', element }], { initialEntries: ['/home'] });
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

const cards = [
  card(1, 'Lake Kivu Institute', { progress_percentage: 40 }),
  card(2, 'Huye University', { status: 'submitted', reference: 'KZ-1' }),
  card(3, 'Kigali Polytechnic', { status: 'submitted', reference: 'KZ-2' }),
  card(4, 'Musanze College', { status: 'submitted', reference: 'KZ-3' }),
  card(5, 'Added only', null),
  card(6, 'Rubavu Institute', { status: 'submitted', reference: 'KZ-4', under_review: true }),
];
const decisions = [
  decision(3, 'Kigali Polytechnic', {
    state: 'accepted',
    response: 'accepted',
    response_date: '2026-07-20T12:00:00.000Z',
    released_at: '2026-07-10T12:00:00.000Z',
  }),
  decision(4, 'Musanze College', { state: 'rejected', has_letter: false, released_at: '2026-07-16T12:00:00.000Z' }),
];

describe('HomeOverview', () => {
  it('shows where each application stands, with the way to it', async () => {
    serve({
      '/api/v1/applications': { status: 200, body: { data: cards } },
      '/api/v1/decisions': { status: 200, body: { data: { items: decisions } } },
    });
    renderOverview();
    const list = within(await screen.findByRole('region', { name: 'Your applications' }));
    const item = (name: string) => within(list.getByRole('listitem', { name }));
    await list.findByText('Unsuccessful');

    const drafting = item('Lake Kivu Institute');
    drafting.getByText('In progress');
    drafting.getByText('40% complete');
    expect(drafting.getByRole('link', { name: 'Continue, Lake Kivu Institute' }).getAttribute('href')).toBe(
      `/application/form?partner=${id(1)}`,
    );

    const submitted = item('Huye University');
    submitted.getByText('Submitted');
    expect(submitted.getByRole('link', { name: 'View submission, Huye University' }).getAttribute('href')).toBe(
      `/application/submitted?partner=${id(2)}`,
    );

    const accepted = item('Kigali Polytechnic');
    accepted.getByText('Accepted');
    accepted.getByText('You accepted on Jul 20, 2026');
    expect(accepted.getByRole('link', { name: 'View decision, Kigali Polytechnic' }).getAttribute('href')).toBe(
      `/application/decision?partner=${id(3)}`,
    );

    item('Musanze College').getByText('Unsuccessful');
    // Read by the institution, no decision released yet.
    item('Rubavu Institute').getByText('Under review');
    // A university only added to the list has no application to show.
    expect(list.queryByText('Added only')).toBeNull();
  });

  it('lists the latest decisions, newest first, each linking to its decision view', async () => {
    serve({
      '/api/v1/applications': { status: 200, body: { data: cards } },
      '/api/v1/decisions': { status: 200, body: { data: { items: decisions } } },
    });
    renderOverview();
    const section = within(await screen.findByRole('region', { name: 'Latest decisions' }));
    const links = await section.findAllByRole('link', { name: /^View decision/ });
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      `/application/decision?partner=${id(4)}`,
      `/application/decision?partner=${id(3)}`,
    ]);
    section.getByText(/Released on Jul 16, 2026/);
  });

  it('invites a student without applications to explore, and says no decision is out yet', async () => {
    serve({
      '/api/v1/applications': { status: 200, body: { data: [card(5, 'Added only', null)] } },
      '/api/v1/decisions': { status: 200, body: { data: { items: [] } } },
    });
    renderOverview();
    expect(await screen.findByRole('heading', { name: 'No applications yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Explore universities' }).getAttribute('href')).toBe('/partners');
    expect(await screen.findByText('No decision has been released on your applications yet.')).toBeTruthy();
  });

  it('says when the applications cannot be loaded, with a retry', async () => {
    serve({ '/api/v1/decisions': { status: 200, body: { data: { items: [] } } } });
    renderOverview();
    const section = within(await screen.findByRole('region', { name: 'Your applications' }));
    expect(await section.findByRole('alert')).toBeTruthy();
    section.getByRole('button', { name: 'Try again' });
  });
});

describe('ApplicationsPage', () => {
  it('keeps Apply, In Progress and Applied, and adds the released decision to its card', async () => {
    serve({
      '/api/v1/applications': { status: 200, body: { data: cards } },
      '/api/v1/decisions': { status: 200, body: { data: { items: decisions } } },
    });
    renderOverview(<ApplicationsPage />);
    const item = (name: string) => within(screen.getByRole('listitem', { name }));
    expect(await screen.findByText('Decision: Accepted')).toBeTruthy();
    item('Kigali Polytechnic').getByText('Applied');
    expect(
      item('Kigali Polytechnic').getByRole('link', { name: 'View decision, Kigali Polytechnic' }).getAttribute('href'),
    ).toBe(`/application/decision?partner=${id(3)}`);
    item('Musanze College').getByText('Decision: Unsuccessful');
    expect(item('Huye University').queryByText(/^Decision:/)).toBeNull();
    expect(item('Huye University').queryByRole('link', { name: /View decision/ })).toBeNull();
    item('Lake Kivu Institute').getByText('In Progress');
    item('Added only').getByText('Apply', { selector: 'span' });
  });
});
