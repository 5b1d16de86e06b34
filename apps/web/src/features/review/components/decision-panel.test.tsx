import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { DECISION_MESSAGES as D, type ReviewApplication } from '@kaminuza/shared';
import { decision, PARTNER, reviewApplication, SUBMISSION } from './review-fixtures.ts';
import { DecisionPanel } from './decision-panel.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

// jsdom has no modal dialogs: opening one only needs to set `open`, as browsers do.
HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
  this.open = false;
};

function serve() {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://x').pathname;
    if (path.endsWith('/decision') && init?.method === 'PUT') {
      const { state } = JSON.parse(String(init.body)) as { state: 'accepted' };
      const body = { data: decision({ state, released_at: '2026-03-04T08:00:00.000Z' }) };
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    }
    return new Response(JSON.stringify({ error: { status: 'NOT_FOUND', message: 'Not found' } }), { status: 404 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderPanel(application: ReviewApplication) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <DecisionPanel partnerId={PARTNER} application={application} timezone="Africa/Kigali" />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

const button = (name: string) => screen.queryByRole('button', { name });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DecisionPanel', () => {
  it('shows nothing to members who do not make decisions', () => {
    const { container } = renderPanel(reviewApplication({ can_decide: false, decision: decision() }));
    expect(container.textContent).toBe('');
  });

  it('offers the three drafts when there is no decision yet, and says how applicants read a rejection', () => {
    renderPanel(reviewApplication());
    screen.getByText('No decision yet.');
    for (const name of ['Draft: accept', 'Draft: reject', 'Draft: waitlist']) expect(button(name)).toBeTruthy();
    screen.getByText(/Applicants see a rejection as "Unsuccessful"/);
    expect(button('Release now')).toBeNull();
    expect(button('Withdraw draft')).toBeNull();
  });

  it('shows an automatic draft as such, with change, release, schedule and withdraw', () => {
    renderPanel(reviewApplication({ decision: decision({ automatic: true, decided_by: null, state: 'rejected' }) }));
    screen.getByText('Automatic');
    screen.getByText('Drafted automatically from the average score');
    screen.getByText('Rejected');
    expect(button('Draft: reject')).toBeNull();
    expect(button('Draft: accept')).toBeTruthy();
    expect(button('Release now')).toBeTruthy();
    expect(button('Release on the decision date')?.hasAttribute('disabled')).toBe(false);
    expect(button('Withdraw draft')).toBeTruthy();
  });

  it('cannot schedule a draft when the cycle has no decision release date, and says why', () => {
    const application = reviewApplication({ decision: decision() });
    renderPanel({ ...application, cycle: { ...application.cycle!, decision_release_on: null } });
    expect(button('Release on the decision date')?.hasAttribute('disabled')).toBe(true);
    screen.getByText('This cycle has no decision release date. Set one, or release now.');
  });

  it('shows a released offer with its answer and verification code, and nothing to change', () => {
    renderPanel(
      reviewApplication({
        status: 'accepted',
        decision: decision({
          released_at: '2026-03-04T08:00:00.000Z',
          response: 'accepted',
          response_date: '2026-03-05T08:00:00.000Z',
          verification_code: 'ABCD-EFGH-JKLM',
        }),
      }),
    );
    screen.getByText('Released', { selector: 'span' });
    screen.getByText(/^Accepted the offer on /);
    screen.getByText('ABCD-EFGH-JKLM');
    screen.getByText('A released decision is final.');
    for (const name of ['Draft: accept', 'Release now', 'Withdraw draft', 'Offer a place', 'Reject']) {
      expect(button(name)).toBeNull();
    }
  });

  it('lets a released waitlisted decision become an offer, after a confirmation', async () => {
    const fetch = serve();
    renderPanel(
      reviewApplication({
        status: 'waitlisted',
        decision: decision({ state: 'waitlisted', released_at: '2026-03-04T08:00:00.000Z' }),
      }),
    );
    screen.getByText('No response expected');
    expect(button('Reject')).toBeTruthy();
    fireEvent.click(button('Offer a place')!);
    const dialog = await screen.findByRole('dialog', { name: 'Offer this applicant a place?' });
    expect(fetch).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Offer a place' })));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`/api/v1/partners/${PARTNER}/review/submissions/${SUBMISSION}/decision`);
    expect(JSON.parse(String(init?.body))).toEqual({
      state: 'accepted',
      message: '',
      conditions: [],
      reply_by: null,
      override_capacity: false,
    });
    expect(await screen.findByText('Decision changed to Accepted and released.')).toBeTruthy();
  });

  it('saves a drafted offer’s message, conditions and reply deadline', async () => {
    const fetch = serve();
    renderPanel(reviewApplication({ decision: decision({ message: 'Welcome' }) }));
    screen.getByRole('heading', { name: 'Message and terms of the offer' });
    expect((screen.getByLabelText(/^Message to the applicant/) as HTMLTextAreaElement).value).toBe('Welcome');
    fireEvent.click(button('Add a written condition')!);
    fireEvent.change(screen.getByLabelText('Condition 1'), { target: { value: 'Send your final transcript' } });
    fireEvent.click(button('Add an examination result')!);
    fireEvent.change(screen.getByLabelText('Condition 2: examination'), { target: { value: 'knec_kcse' } });
    fireEvent.change(screen.getByLabelText('Total points (mean grade): at least'), { target: { value: 'B' } });
    fireEvent.change(screen.getByLabelText(/^Reply by/), { target: { value: '2099-01-31' } });
    await act(async () => fireEvent.click(button('Save the message and terms')!));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetch.mock.calls[0]![1]?.body))).toEqual({
      state: 'accepted',
      message: 'Welcome',
      conditions: [
        { kind: 'text', text: 'Send your final transcript' },
        { kind: 'exam', requirement: { exam: 'knec_kcse', subjects: [], min_class: 'B' } },
      ],
      reply_by: '2099-01-31',
    });
  });

  it('keeps the message but not an offer’s terms when a draft changes to a rejection', async () => {
    const fetch = serve();
    renderPanel(
      reviewApplication({
        decision: decision({
          message: 'Thank you',
          conditions: [{ kind: 'text', text: 'Pay the deposit' }],
          condition_views: [null],
          conditions_status: 'pending',
          reply_by_on: '2099-01-31',
        }),
      }),
    );
    await act(async () => fireEvent.click(button('Draft: reject')!));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetch.mock.calls[0]![1]?.body))).toEqual({
      state: 'rejected',
      message: 'Thank you',
      conditions: [],
      reply_by: null,
    });
  });

  it('shows a released conditional offer with its conditions, and says they were met after a confirmation', async () => {
    const fetch = vi.fn(async () =>
      Response.json({ data: decision({ released_at: '2026-03-04T08:00:00.000Z', conditions_status: 'met' }) }),
    );
    vi.stubGlobal('fetch', fetch);
    renderPanel(
      reviewApplication({
        status: 'accepted',
        decision: decision({
          released_at: '2026-03-04T08:00:00.000Z',
          verification_code: 'ABCD-EFGH-JKLM',
          message: 'See you in September',
          conditions: [
            { kind: 'text', text: 'Pay the deposit' },
            { kind: 'exam', requirement: { exam: 'knec_kcse', subjects: [], min_class: 'B' } },
          ],
          condition_views: [
            null,
            {
              exam: 'KCSE',
              outcome: 'unmet',
              has_results: true,
              checks: [
                { rule: 'class', outcome: 'unmet', label: 'Total points (mean grade)', needed: 'B', have: 'C+' },
              ],
            },
          ],
          conditions_status: 'pending',
          reply_by: '2099-02-01T00:00:00.000Z',
          reply_by_on: '2099-01-31',
        }),
      }),
    );
    screen.getByText('See you in September');
    screen.getByText('Conditions pending');
    screen.getByText('Pay the deposit');
    screen.getByText(/Total points \(mean grade\): B or better needed, the applicant has C\+/);
    screen.getByText('Reply by');
    fireEvent.click(button('Conditions met')!);
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the conditions were met?' });
    expect(fetch).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Conditions met' })));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0]! as unknown as [string, RequestInit];
    expect(url).toBe(`/api/v1/partners/${PARTNER}/review/submissions/${SUBMISSION}/decision/conditions`);
    expect(JSON.parse(String(init.body))).toEqual({ outcome: 'met' });
    expect(await screen.findByText('The offer is now unconditional. The applicant has been told.')).toBeTruthy();
  });

  it('schedules the release for a day and time on the institution’s clock', async () => {
    const fetch = vi.fn(async () => Response.json({ data: { released: 0, scheduled: 1, skipped: 0 } }));
    vi.stubGlobal('fetch', fetch);
    renderPanel(reviewApplication({ decision: decision() }));
    fireEvent.click(button('Release at a set time')!);
    const dialog = await screen.findByRole('dialog', { name: 'Release this decision at a set time?' });
    within(dialog).getByText('Day and time in your institution’s time zone (Africa/Kigali).');
    fireEvent.change(within(dialog).getByLabelText(/^Release on/), { target: { value: '2099-07-01T09:00' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Release at a set time' })));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0]! as unknown as [string, RequestInit];
    expect(url).toBe(`/api/v1/partners/${PARTNER}/decisions/release`);
    expect(JSON.parse(String(init.body))).toEqual({
      submission_ids: [SUBMISSION],
      when: 'at',
      at: '2099-07-01T09:00',
      override_capacity: false,
    });
    expect(await screen.findByText('Decision scheduled for release at the time you set.')).toBeTruthy();
  });

  it('offers to go beyond the places set when a release would take more than are left', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(
        Response.json(
          {
            error: { status: 'ABORTED', message: D.no_places_left, details: { places: [] }, reason: 'no_places_left' },
          },
          { status: 409 },
        ),
      )
      .mockResolvedValueOnce(Response.json({ data: { released: 1, scheduled: 0, skipped: 0 } }));
    vi.stubGlobal('fetch', fetch);
    renderPanel(
      reviewApplication({
        decision: decision(),
        places: { places: 40, accepted: 38, outstanding: 2, drafted: 3, left: 0 },
      }),
    );
    screen.getByText(
      'Places for this program at this campus: 0 of 40 left (38 accepted, 2 awaiting an answer, 3 drafted).',
    );
    fireEvent.click(button('Release now')!);
    const dialog = await screen.findByRole('dialog', { name: 'Release this decision now?' });
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Release now' })));
    await within(dialog).findByText(
      'Not enough places are left for these offers. Release them anyway, or change the places.',
    );
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Make these offers beyond the places set' }));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Release now' })));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    const bodies = fetch.mock.calls.map(([, init]) => JSON.parse(String((init as RequestInit).body)));
    expect(bodies.map((body) => body.override_capacity)).toEqual([false, true]);
  });
});
