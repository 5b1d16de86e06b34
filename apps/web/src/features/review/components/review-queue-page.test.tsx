import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { ReviewOptions, ReviewQueueRow, SessionUser } from '@kaminuza/shared';
import { SessionProvider } from '../../../lib/session.tsx';
import { ME, PARTNER, reviewOptions } from './review-fixtures.ts';
import { ReviewQueuePage } from './review-queue-page.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const member: SessionUser = {
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
  staff_permissions: ['review_applications', 'make_decisions'],
  staff_active: true,
};

const row = (n: number, overrides: Partial<ReviewQueueRow> = {}): ReviewQueueRow => ({
  id: `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`,
  reference: `KMZ-2026-0000${n}`,
  applicant_name: `Applicant ${n}`,
  program_name: 'Computer Science',
  campus_name: 'Kigali',
  cycle_name: 'September intake',
  submitted_at: '2026-03-02T09:30:00.000Z',
  status: 'under_review',
  stage_id: null,
  paid: true,
  submitted_by_staff: false,
  score_average: 80,
  score_count: 2,
  assigned_to: { id: ME, name: 'Diane Uwase' },
  decision: { state: 'accepted', released: false, automatic: true },
  ...overrides,
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The session, the options and the queue (`rows`, or a failure); a release answers `released`. */
function serve({
  rows = [row(1), row(2)],
  options = reviewOptions(),
  failQueue = false,
}: { rows?: ReviewQueueRow[]; options?: ReviewOptions; failQueue?: boolean } = {}) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://x').pathname;
    if (path === '/api/v1/auth/session') return json(200, { data: member });
    if (path.endsWith('/review/options')) return json(200, { data: options });
    if (path.endsWith('/review/submissions')) {
      if (failQueue) return json(500, { error: { status: 'INTERNAL', message: 'boom' } });
      return json(200, { data: { items: rows, total: rows.length, page: 1, page_size: 25 } });
    }
    if (path.endsWith('/decisions/release') && init?.method === 'POST') {
      return json(200, { data: { released: 1, scheduled: 0, skipped: 1 } });
    }
    return json(404, { error: { status: 'NOT_FOUND', message: 'Not found' } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderPage(url: string) {
  const router = createMemoryRouter([{ path: '/partner/applications', element: <ReviewQueuePage /> }], {
    initialEntries: [url],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <SessionProvider>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return router;
}

const queueCalls = (fetch: ReturnType<typeof serve>) =>
  fetch.mock.calls
    .map(([url]) => new URL(url, 'http://x'))
    .filter((url) => url.pathname.endsWith('/review/submissions'))
    .map((url) => url.search);

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

describe('ReviewQueuePage', () => {
  it('asks for the queue the address describes, and shows the sort on its column', async () => {
    const fetch = serve();
    renderPage('/partner/applications?paid=true&sort=name&order=asc');
    const table = await screen.findByRole('table', { name: 'Submitted applications' });
    expect(queueCalls(fetch)).toEqual(['?paid=true&sort=name&order=asc']);
    expect(
      within(table)
        .getByRole('columnheader', { name: /Applicant/ })
        .getAttribute('aria-sort'),
    ).toBe('ascending');
    expect(within(table).getByRole('columnheader', { name: /Score/ }).getAttribute('aria-sort')).toBe('none');
    expect((screen.getByLabelText('Fee paid') as HTMLSelectElement).value).toBe('true');
    screen.getByText('2 applications');
    const link = screen.getByRole('link', { name: 'Export CSV' });
    expect(link.getAttribute('href')).toBe(
      `/api/v1/partners/${PARTNER}/review/submissions.csv?paid=true&sort=name&order=asc`,
    );
  });

  it('keeps a new sort and a new filter in the address, back on the first page', async () => {
    const fetch = serve();
    const router = renderPage('/partner/applications?page=2');
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: /Sort by Score/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=score'));
    expect(screen.getByRole('columnheader', { name: /Score/ }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.change(screen.getByLabelText('Decision'), { target: { value: 'none' } });
    await waitFor(() => expect(router.state.location.search).toBe('?sort=score&decision=none'));
    await waitFor(() => expect(queueCalls(fetch).at(-1)).toBe('?decision=none&sort=score'));
  });

  it('hides the applicant column from blind reviewers and tells them to search by reference', async () => {
    serve({ options: reviewOptions({ blind: true, can_decide: false }), rows: [row(1, { applicant_name: null })] });
    renderPage('/partner/applications');
    const table = await screen.findByRole('table');
    await screen.findByText('Blind review is on: search by application reference only.');
    expect(within(table).queryByRole('columnheader', { name: /Applicant/ })).toBeNull();
  });

  it("counts each application's referees' letters, and marks those without referees", async () => {
    serve({ rows: [row(1, { letters: { received: 1, invited: 2 } }), row(2, { letters: null })] });
    renderPage('/partner/applications');
    const table = await screen.findByRole('table');
    const headings = within(table)
      .getAllByRole('columnheader')
      .map((heading) => heading.textContent);
    const column = headings.indexOf('Letters');
    expect(column).toBeGreaterThan(0);
    const cells = (n: number) => [...within(table).getAllByRole('row')[n]!.querySelectorAll<HTMLElement>('th, td')];
    const counted = cells(1)[column]!;
    expect(within(counted).getByText('1/2').getAttribute('aria-hidden')).toBe('true');
    expect(within(counted).getByText('1 of 2 letters received').className).toContain('sr-only');
    expect(cells(2)[column]!.textContent).toBe('—No referees');
  });

  it('says when nothing matches, and clears the filters', async () => {
    serve({ rows: [] });
    const router = renderPage('/partner/applications?stage=interview&page_size=50');
    expect(await screen.findByRole('heading', { name: 'No application matches' })).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    await waitFor(() => expect(router.state.location.search).toBe('?page_size=50'));
    expect(await screen.findByRole('heading', { name: 'No applications yet' })).toBeTruthy();
  });

  it('offers a retry when the queue cannot load', async () => {
    const fetch = serve({ failQueue: true });
    renderPage('/partner/applications');
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(queueCalls(fetch)).toHaveLength(2));
  });

  it('releases the selected decisions and says what happened to each', async () => {
    const fetch = serve();
    renderPage('/partner/applications');
    await screen.findByRole('table');
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select every application on this page' }));
    screen.getByText('2 applications selected');
    fireEvent.click(screen.getByRole('button', { name: 'Release decisions now' }));
    const dialog = await screen.findByRole('dialog');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Release decisions now' })));
    expect(await screen.findByText('Released: 1. Scheduled: 0. Skipped: 1.')).toBeTruthy();
    const release = fetch.mock.calls.find(([url]) => String(url).endsWith('/decisions/release'))!;
    expect(JSON.parse(String(release[1]?.body))).toEqual({
      submission_ids: [row(1).id, row(2).id],
      when: 'now',
      override_capacity: false,
    });
  });

  it('offers no release to reviewers who do not decide', async () => {
    serve({ options: reviewOptions({ can_decide: false }) });
    renderPage('/partner/applications');
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select application KMZ-2026-00001' }));
    expect(await screen.findByText('1 application selected')).toBeTruthy();
    screen.getByRole('button', { name: 'Move' });
    expect(screen.queryByRole('button', { name: 'Release decisions now' })).toBeNull();
  });
});
