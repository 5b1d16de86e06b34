import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { DECISION_MESSAGES as D, type ReviewApplication, type ReviewDeferral } from '@kaminuza/shared';
import { decision, ME, PARTNER, reviewApplication, SUBMISSION } from './review-fixtures.ts';
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

const DEFERRAL_URL = `/api/v1/partners/${PARTNER}/review/submissions/${SUBMISSION}/decision/deferral`;

function deferral(overrides: Partial<ReviewDeferral> = {}): ReviewDeferral {
  return {
    id: '00000000-0000-4000-8000-0000000000e1',
    status: 'pending',
    from_cycle: { id: '00000000-0000-4000-8000-0000000000d1', name: 'September intake' },
    to_cycle: { id: '00000000-0000-4000-8000-0000000000d2', name: 'September 2027 intake' },
    reason: 'A year of national service.',
    note: '',
    requested_at: '2026-07-22T10:00:00.000Z',
    closed_at: null,
    decided_by: null,
    places: { places: 40, accepted: 39, outstanding: 0, drafted: 0, left: 1 },
    ...overrides,
  };
}

const accepted = (overrides: Partial<ReviewDeferral> = {}) =>
  reviewApplication({
    decision: decision({
      released_at: '2026-07-15T12:00:00.000Z',
      response: 'accepted',
      response_date: '2026-07-20T12:00:00.000Z',
      verification_code: 'ABCD-EFGH-JKLM',
      deferral: deferral(overrides),
    }),
  });

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

const ok = (deferred: Partial<ReviewDeferral>) =>
  Response.json({ data: decision({ released_at: '2026-07-15T12:00:00.000Z', deferral: deferral(deferred) }) });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('A request to defer on the decision panel', () => {
  it('shows what was asked, why, and the places left in the cycle asked for', () => {
    renderPanel(accepted());
    screen.getByRole('heading', { name: 'Request to defer' });
    screen.getByText('Waiting for an answer');
    screen.getByText(
      /^The applicant asked on Jul 22, 2026.* to defer their place from September intake to September 2027 intake\.$/,
    );
    screen.getByText('A year of national service.');
    screen.getByText('Places in September 2027 intake: 1 of 40 left.');
    screen.getByRole('button', { name: 'Approve' });
    screen.getByRole('button', { name: 'Decline' });
  });

  it('approves with a note, after confirming what approval does', async () => {
    const fetch = vi.fn(async () =>
      ok({ status: 'approved', note: 'Enjoy the year.', decided_by: { id: ME, name: 'Diane Uwase' } }),
    );
    vi.stubGlobal('fetch', fetch);
    renderPanel(accepted());
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve deferring to September 2027 intake?' });
    within(dialog).getByText(/instead of September intake/);
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Note to the applicant/ }), {
      target: { value: 'Enjoy the year.' },
    });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' })));
    await screen.findByText('Deferral approved: the offer now holds a place in September 2027 intake.');
    expect(screen.queryByRole('dialog')).toBeNull();
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(DEFERRAL_URL);
    expect(JSON.parse(String(init.body))).toEqual({
      request_id: '00000000-0000-4000-8000-0000000000e1',
      outcome: 'approved',
      note: 'Enjoy the year.',
      override_capacity: false,
    });
  });

  it('offers to go beyond the places only once the api refused for want of them', async () => {
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
      .mockResolvedValueOnce(ok({ status: 'approved' }));
    vi.stubGlobal('fetch', fetch);
    renderPanel(accepted({ places: { places: 40, accepted: 40, outstanding: 0, drafted: 0, left: 0 } }));
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve deferring to September 2027 intake?' });
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' })));
    await within(dialog).findByText(en.decisions.errors.no_places_left);
    fireEvent.click(
      within(dialog).getByRole('checkbox', { name: 'Approve beyond the places set in September 2027 intake' }),
    );
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' })));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    const bodies = fetch.mock.calls.map(([, init]) => JSON.parse(String((init as RequestInit).body)));
    expect(bodies.map((body) => body.override_capacity)).toEqual([false, true]);
  });

  it('declines behind its own confirmation, and checks the note’s length first', async () => {
    const fetch = vi.fn(async () => ok({ status: 'declined' }));
    vi.stubGlobal('fetch', fetch);
    renderPanel(accepted());
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    const dialog = screen.getByRole('dialog', { name: 'Decline the request to defer?' });
    within(dialog).getByText(/cannot ask again/);
    const note = within(dialog).getByRole('textbox', { name: /Note to the applicant/ });
    fireEvent.change(note, { target: { value: 'x'.repeat(1001) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline' }));
    within(dialog).getByText(en.decisions.errors.deferral_note_too_long);
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.change(note, { target: { value: '' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Decline' })));
    await screen.findByText('Deferral declined.');
    expect(JSON.parse(String((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body))).toMatchObject({
      outcome: 'declined',
      note: '',
    });
  });

  it('shows an answered request as a line with the note sent, and no buttons', () => {
    renderPanel(
      accepted({
        status: 'approved',
        note: 'Enjoy the year.',
        closed_at: '2026-07-25T10:00:00.000Z',
        decided_by: { id: ME, name: 'Diane Uwase' },
        places: null,
      }),
    );
    screen.getByText('Approved');
    screen.getByText(/^Deferred to September 2027 intake on Jul 25, 2026/);
    screen.getByText('Enjoy the year.');
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Decline' })).toBeNull();
  });
});
