import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { AdmissionLetterIssued, ApplyContext, StudentDecision } from '@kaminuza/shared';
import { clearCachedAt } from '../../../lib/cached-at.ts';
import { CACHED_AT_HEADER } from '../../../lib/offline-reads.ts';
import { DecisionView } from './decision-view.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const PARTNER = '00000000-0000-4000-8000-00000000000a';
const APPLICATION = '00000000-0000-4000-8000-0000000000a1';
const CONTEXT_URL = `/api/v1/partners/${PARTNER}/application`;
const DECISION_URL = `/api/v1/applications/${APPLICATION}/decision`;
const RESPONSE_URL = `${DECISION_URL}/response`;
const LETTER_URL = `${DECISION_URL}/letter`;

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

const letter: AdmissionLetterIssued = {
  verification_code: 'ABCD-EFGH-JKLM',
  verify_url: 'https://kaminuza.example/letters/ABCD-EFGH-JKLM',
  issued_on: '2026-07-15',
  reference: 'KZ-2026-000123',
  student_name: 'Aline Uwase',
  university_name: 'Lake Kivu Institute',
  logo_url: null,
  program_name: 'BSc Computer Science',
  campus_name: 'Gisenyi campus',
  cycle_name: 'September intake',
  paragraphs: ['Dear Aline Uwase,', 'We are pleased to offer you a place in BSc Computer Science.'],
  signature_name: 'Dr. Jean Mugabo',
  signature_title: 'Registrar',
  signature_image: 'https://kaminuza.example/files/signature.png',
};

type Reply = { status: number; body: unknown; headers?: Record<string, string> };
const ok = (data: unknown): Reply => ({ status: 200, body: { data } });
const failure = (status: number, code: string, message: string): Reply => ({
  status,
  body: { error: { status: code, message } },
});
const notFound = failure(404, 'NOT_FOUND', 'Application data not found.');

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
const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

describe('DecisionView', () => {
  it('marks a decision and its letter read from the copy saved on this device with the time of that copy', async () => {
    const saved = { [CACHED_AT_HEADER]: '2026-07-16T08:30:00.000Z' };
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: { ...ok(decision()), headers: saved },
      [`GET ${LETTER_URL}`]: { ...ok(letter), headers: saved },
    });
    renderView();
    const notice = await screen.findByTestId('cached-notice');
    expect(notice.textContent).toMatch(/^Saved copy, as of Jul 16, 2026/);
    fireEvent.click(screen.getByRole('button', { name: 'View letter' }));
    await screen.findByText('Dear Aline Uwase,');
    expect(screen.getAllByTestId('cached-notice')).toHaveLength(2);
  });

  it('shows no such mark on a decision fresh from the server', async () => {
    serve({ [`GET ${CONTEXT_URL}`]: ok(context), [`GET ${DECISION_URL}`]: ok(decision()) });
    renderView();
    await screen.findByText('Congratulations! Lake Kivu Institute offers you a place in BSc Computer Science.');
    expect(screen.queryByTestId('cached-notice')).toBeNull();
  });

  it('says the application is in and when decisions are planned while none is released', async () => {
    serve({ [`GET ${CONTEXT_URL}`]: ok(context), [`GET ${DECISION_URL}`]: notFound });
    renderView();
    expect(await screen.findByText('Submitted — no decision released yet')).toBeTruthy();
    screen.getByText('The university plans to release decisions on Jul 15, 2026.');
    screen.getByText('KZ-2026-000123');
    expect(screen.queryByRole('button', { name: 'Accept the offer' })).toBeNull();
  });

  it('lets the student accept an offer once, after confirming it cannot be undone', async () => {
    const fetch = serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision()),
      [`POST ${RESPONSE_URL}`]: () => ok(decision({ response: 'accepted', response_date: '2026-07-20T12:00:00.000Z' })),
    });
    renderView();
    expect(
      await screen.findByText('Congratulations! Lake Kivu Institute offers you a place in BSc Computer Science.'),
    ).toBeTruthy();
    expect(fact('Program')).toBe('BSc Computer Science');
    expect(fact('University')).toBe('Lake Kivu Institute');
    expect(fact('Decision')).toBe('Accepted');
    expect(fact('Released on')).toBe('Jul 15, 2026');
    expect(fact('Your answer')).toBe('Awaiting your answer');

    fireEvent.click(screen.getByRole('button', { name: 'Accept the offer' }));
    const dialog = screen.getByRole('dialog', { name: 'Accept this offer?' });
    within(dialog).getByText(/This action cannot be undone\./);
    // Cancelling sends nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Accept the offer' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, accept' }));
    expect((await screen.findByText('You accepted this offer on Jul 20, 2026.')).getAttribute('role')).toBe('status');
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(post?.[0]).toBe(RESPONSE_URL);
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ response: 'accepted' });
    expect(fact('Your answer')).toBe('Accepted on Jul 20, 2026');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Accept the offer' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Decline the offer' })).toBeNull();
  });

  it('declines behind its own confirmation, and shows a refusal in the dialog', async () => {
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision()),
      [`POST ${RESPONSE_URL}`]: failure(409, 'ABORTED', 'You have already responded to this offer.'),
    });
    renderView();
    fireEvent.click(await screen.findByRole('button', { name: 'Decline the offer' }));
    const dialog = screen.getByRole('dialog', { name: 'Decline this offer?' });
    within(dialog).getByText(/You are declining the offer of Lake Kivu Institute/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, decline' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('You have already responded to this offer.');
  });

  it('shows an answered offer with its date and no buttons', async () => {
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision({ response: 'declined', response_date: '2026-07-18T12:00:00.000Z' })),
    });
    renderView();
    expect(await screen.findByText('You declined this offer on Jul 18, 2026.')).toBeTruthy();
    expect(fact('Your answer')).toBe('Declined on Jul 18, 2026');
    expect(screen.queryByRole('button', { name: 'Accept the offer' })).toBeNull();
  });

  it('shows a conditional offer with its message, conditions, progress and deadline', async () => {
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(
        decision({
          message: 'We look forward to meeting you.',
          conditions: [
            { kind: 'text', text: 'Send your certified transcript' },
            { kind: 'exam', requirement: { exam: 'knec_kcse', subjects: [], min_class: 'B' } },
          ],
          condition_views: [null, { exam: 'KCSE', outcome: 'unmet', has_results: false, checks: [] }],
          conditions_status: 'pending',
          reply_by: '2099-02-01T00:00:00.000Z',
          reply_by_on: '2099-01-31',
        }),
      ),
    });
    renderView();
    await screen.findByText(/offers you a conditional place in BSc Computer Science/);
    screen.getByRole('heading', { name: 'Message from Lake Kivu Institute' });
    screen.getByText('We look forward to meeting you.');
    const conditions = screen.getByRole('list', { name: 'Conditions of this offer' });
    within(conditions).getByText('Send your certified transcript');
    within(conditions).getByText('You have not added KCSE results yet.');
    expect(within(conditions).getByRole('link', { name: 'Add examination results' }).getAttribute('href')).toBe(
      '/profile?tab=education',
    );
    screen.getByText('Conditions to meet');
    expect(fact('Reply by')).toBeTruthy();
    screen.getByText(/^Do you accept this offer\? Reply by /);
    screen.getByRole('button', { name: 'Accept the offer' });
  });

  it('says a lapsed offer can no longer be answered, and an ended one too', async () => {
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(
        decision({ reply_by: '2026-07-20T00:00:00.000Z', reply_by_on: '2026-07-19', has_letter: false }),
      ),
    });
    renderView();
    expect(
      await screen.findByText(/^The deadline to reply to this offer \(.+\) has passed, so it has lapsed\.$/),
    ).toBeTruthy();
    expect(fact('Your answer')).toBe('No answer before the deadline');
    expect(screen.queryByRole('button', { name: 'Accept the offer' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'View letter' })).toBeNull();
    cleanup();

    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(
        decision({
          conditions: [{ kind: 'text', text: 'Pass the final examinations' }],
          condition_views: [null],
          conditions_status: 'not_met',
          has_letter: false,
        }),
      ),
    });
    renderView();
    expect(
      await screen.findByText(
        'The conditions of this offer were not met, so it has ended and can no longer be accepted.',
      ),
    ).toBeTruthy();
    screen.getByText('Conditions not met: the offer has ended');
    expect(screen.queryByRole('button', { name: 'Decline the offer' })).toBeNull();
  });

  it('shows a conditional letter’s conditions and its reply-by day', async () => {
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision()),
      [`GET ${LETTER_URL}`]: ok({
        ...letter,
        conditions: ['KCSE: Total points (mean grade): B or better'],
        reply_by_on: '2026-08-31',
      }),
    });
    renderView();
    fireEvent.click(await screen.findByRole('button', { name: 'View letter' }));
    const article = await screen.findByRole('article', { name: 'Letter of admission' });
    within(article).getByText('This offer is conditional on the following:');
    within(article).getByText('KCSE: Total points (mean grade): B or better');
    within(article).getByText('Please accept or decline this offer by August 31, 2026.');
  });

  it('shows a rejection as Unsuccessful, with nothing to answer and no letter', async () => {
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision({ state: 'rejected', has_letter: false })),
    });
    renderView();
    expect(await screen.findByText('Unsuccessful')).toBeTruthy();
    expect(screen.queryByText('Rejected')).toBeNull();
    expect(screen.queryByText('Your answer')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Accept the offer' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Decline the offer' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'View letter' })).toBeNull();
  });

  it('tells a waitlisted student they remain under consideration and will be emailed', async () => {
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision({ state: 'waitlisted', has_letter: false })),
    });
    renderView();
    expect(await screen.findByText('Waitlisted')).toBeTruthy();
    expect(
      screen.getByText('You remain under consideration. If a space opens, you will be notified by email.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept the offer' })).toBeNull();
  });

  it('shows the letter with its QR code, and prints it', async () => {
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision()),
      [`GET ${LETTER_URL}`]: ok(letter),
    });
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderView();
    fireEvent.click(await screen.findByRole('button', { name: 'View letter' }));
    const article = await screen.findByRole('article', { name: 'Letter of admission' });
    const view = within(article);
    expect(article.hasAttribute('data-print-letter')).toBe(true);
    view.getByText('Lake Kivu Institute');
    view.getByText('July 15, 2026');
    view.getByText('KZ-2026-000123');
    view.getByText('We are pleased to offer you a place in BSc Computer Science.');
    expect(view.getByRole('img', { name: 'Signature of Dr. Jean Mugabo' }).getAttribute('src')).toBe(
      letter.signature_image,
    );
    view.getByText('Registrar');
    view.getByText('ABCD-EFGH-JKLM');
    const qr = view.getByRole('img', { name: 'QR code of the page that verifies this letter' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M4 4h1v1h-1z/);
    // The reader is taken to the letter they opened.
    expect(document.activeElement?.textContent).toBe('Your admission letter');

    fireEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();

    fireEvent.click(screen.getByRole('button', { name: 'Hide letter' }));
    expect(screen.queryByRole('article')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'View letter' }));
  });

  it('says the letter failed to load, and loads it on retry', async () => {
    let attempts = 0;
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: ok(decision()),
      [`GET ${LETTER_URL}`]: () =>
        ++attempts === 1 ? failure(500, 'INTERNAL', 'Failed to load decision letter') : ok(letter),
    });
    renderView();
    fireEvent.click(await screen.findByRole('button', { name: 'View letter' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load decision letter');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Letter of admission' })).toBeTruthy();
  });

  it('says Application data not found. when the student has no application to this institution', async () => {
    serve({ [`GET ${CONTEXT_URL}`]: ok({ ...context, application: null }) });
    renderView();
    expect((await screen.findByRole('alert')).textContent).toBe('Application data not found.');
  });

  it('says Application data not found. for an unknown institution', async () => {
    serve({ [`GET ${CONTEXT_URL}`]: failure(404, 'NOT_FOUND', 'Not found') });
    renderView();
    expect((await screen.findByRole('alert')).textContent).toBe('Application data not found.');
  });

  it('says Failed to load application data when the decision cannot be read, and retries', async () => {
    let up = false;
    serve({
      [`GET ${CONTEXT_URL}`]: ok(context),
      [`GET ${DECISION_URL}`]: () =>
        up ? ok(decision({ state: 'waitlisted' })) : failure(503, 'UNAVAILABLE', 'unavailable'),
    });
    renderView();
    // The query asks twice (one retry after a second) before it gives up.
    expect((await screen.findByRole('alert', {}, { timeout: 3000 })).textContent).toBe(
      'Failed to load application data',
    );
    up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Waitlisted')).toBeTruthy();
  });

  it('sends an application still being written to its form', async () => {
    serve({
      [`GET ${CONTEXT_URL}`]: ok({ ...context, application: { ...context.application!, status: 'in_progress' } }),
    });
    renderView();
    expect(await screen.findByText('The form')).toBeTruthy();
  });
});
