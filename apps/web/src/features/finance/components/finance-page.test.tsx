import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import {
  FINANCE_MESSAGES,
  type FinanceDiscrepancy,
  type FinancePage,
  type FinancePayment,
  type SessionUser,
  type StaffPermission,
} from '@kaminuza/shared';
import { SessionProvider } from '../../../lib/session.tsx';
import { FinancePage as FinanceScreen } from './finance-page.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const PARTNER = '00000000-0000-4000-8000-0000000000aa';
const CYCLE = '00000000-0000-4000-8000-0000000000c1';

const member = (permissions: StaffPermission[]): SessionUser => ({
  id: '00000000-0000-4000-8000-00000000000b',
  email: 'bursar@example.com',
  type: 'staff',
  first_name: 'Eric',
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
});

const payment = (n: number, overrides: Partial<FinancePayment> = {}): FinancePayment => ({
  id: `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`,
  reference: `ref-${n}`,
  applicant: { name: `Applicant ${n}`, email: `applicant${n}@example.com` },
  program: { id: '00000000-0000-4000-8000-0000000000d1', name: 'Computer Science' },
  cycle: { id: CYCLE, name: 'September intake' },
  provider: 'mtn_momo',
  method: 'mobile_money',
  status: 'succeeded',
  amount: '5000.00',
  currency: 'RWF',
  failure_reason: null,
  refund_status: null,
  refund_note: null,
  refunded_at: null,
  refund_method: null,
  refund_requested_at: null,
  refund_error: null,
  provider_refund_available: false,
  provider_transaction_id: `tx-${n}`,
  paid_at: '2026-03-02T09:30:00.000Z',
  created_at: '2026-03-02T09:29:00.000Z',
  bank_reference: null,
  has_slip: false,
  reviewed_at: null,
  ...overrides,
});

const TOTALS: FinancePage['totals'] = [
  {
    currency: 'RWF',
    collected: '10000.00',
    count_succeeded: 2,
    pending_count: 1,
    refunds_needed: { amount: '5000.00', count: 1 },
  },
  {
    currency: 'USD',
    collected: '12.50',
    count_succeeded: 1,
    pending_count: 0,
    refunds_needed: { amount: '0.00', count: 0 },
  },
];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function serve({
  permissions = ['view_payments'] as StaffPermission[],
  items = [payment(1), payment(2, { refund_status: 'needed' })],
  totals = TOTALS,
  fail = false,
  refund = 'ok' as 'ok' | 'conflict',
  differences = [] as FinanceDiscrepancy[],
  /** What the list answers once a refund through the provider was asked. */
  afterRefund = null as FinancePayment[] | null,
} = {}) {
  let open = [...differences];
  let refunded = false;
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://x').pathname;
    if (path === '/api/v1/auth/session') return json(200, { data: member(permissions) });
    if (path.endsWith('/cycles')) {
      return json(200, {
        data: [
          {
            id: CYCLE,
            name: 'September intake',
            opens_on: '2026-01-01',
            closes_on: '2026-06-30',
            decision_release_on: null,
            status: 'open',
            program_ids: [],
            current: true,
            accepting_applications: true,
            created_at: '2026-01-01T00:00:00.000Z',
            updated_at: '2026-01-01T00:00:00.000Z',
          },
        ],
      });
    }
    if (path.endsWith('/finance/payments')) {
      if (fail) return json(500, { error: { status: 'INTERNAL', message: 'boom' } });
      const shown = refunded ? (afterRefund ?? items) : items;
      return json(200, { data: { items: shown, total: shown.length, page: 1, limit: 25, totals } });
    }
    if (path.endsWith('/finance/discrepancies')) return json(200, { data: { items: open } });
    if (path.endsWith('/resolve') && init?.method === 'POST') {
      const id = path.split('/').at(-2);
      const body = JSON.parse(String(init.body)) as { note: string };
      const resolved = open.find((item) => item.id === id)!;
      open = open.filter((item) => item.id !== id);
      return json(200, { data: { ...resolved, resolved_at: '2026-03-04T08:00:00.000Z', note: body.note } });
    }
    if (path.endsWith('/provider-refund') && init?.method === 'POST') {
      refunded = true;
      return json(200, {
        data: payment(3, { refund_status: 'processing', refund_requested_at: '2026-03-04T08:00:00.000Z' }),
      });
    }
    if (path.endsWith('/refund') && init?.method === 'POST') {
      if (refund === 'conflict') {
        return json(409, { error: { status: 'ABORTED', message: FINANCE_MESSAGES.refund_not_needed } });
      }
      const body = JSON.parse(String(init.body)) as { note: string };
      return json(200, { data: payment(2, { refund_status: 'refunded', refund_note: body.note }) });
    }
    return json(404, { error: { status: 'NOT_FOUND', message: 'Not found' } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderPage(url = '/partner/finance') {
  const router = createMemoryRouter([{ path: '/partner/finance', element: <FinanceScreen /> }], {
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

const listCalls = (fetch: ReturnType<typeof serve>) =>
  fetch.mock.calls
    .map(([url]) => new URL(url, 'http://x'))
    .filter((url) => url.pathname.endsWith('/finance/payments'))
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

describe('FinancePage', () => {
  it('asks for the payments the address describes, and shows totals per currency and the rows', async () => {
    const fetch = serve();
    renderPage('/partner/finance?status=succeeded&needs_refund=true&provider=nope');
    const table = await screen.findByRole('table', { name: 'Payments' });
    // A value the API would refuse is dropped from the address's query.
    expect(listCalls(fetch)).toEqual(['?status=succeeded&needs_refund=true']);
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('succeeded');
    expect((screen.getByLabelText('Refund owed') as HTMLSelectElement).value).toBe('true');
    screen.getByText('2 payments');

    const rwf = screen.getByRole('listitem', { name: 'RWF' });
    expect(rwf.textContent).toContain('RWF');
    expect(rwf.textContent).toMatch(/10,000/);
    expect(rwf.textContent).toContain('2 paid');
    expect(rwf.textContent).toContain('1 pending');
    expect(rwf.textContent).toContain('Refunds owed');
    const usd = screen.getByRole('listitem', { name: 'USD' });
    expect(usd.textContent).toContain('$12.50');
    expect(usd.textContent).not.toContain('Refunds owed');

    expect(within(table).getByText('Applicant 1')).toBeTruthy();
    expect(within(table).getAllByText('MTN MoMo')).toHaveLength(2);
    expect(within(table).getAllByText('Refund owed')).toHaveLength(1);
    // view_payments reads, but may not record refunds.
    expect(screen.queryByRole('button', { name: /Mark payment .* refunded/ })).toBeNull();

    const link = screen.getByRole('link', { name: 'Export CSV' });
    expect(link.getAttribute('href')).toBe(
      `/api/v1/partners/${PARTNER}/finance/payments.csv?status=succeeded&needs_refund=true`,
    );
  });

  it('writes a filter change to the address and asks again from the first page', async () => {
    const fetch = serve();
    const router = renderPage('/partner/finance?page=2');
    await screen.findByRole('table', { name: 'Payments' });
    await screen.findByRole('option', { name: 'September intake' });
    fireEvent.change(screen.getByLabelText('Cycle'), { target: { value: CYCLE } });
    await waitFor(() => expect(router.state.location.search).toBe(`?cycle_id=${CYCLE}`));
    fireEvent.change(screen.getByLabelText('Currency'), { target: { value: 'usd' } });
    fireEvent.blur(screen.getByLabelText('Currency'));
    await waitFor(() => expect(listCalls(fetch)).toContain(`?cycle_id=${CYCLE}&currency=USD`));
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect((screen.getByLabelText('Currency') as HTMLInputElement).value).toBe('');
  });

  it('records a refund by hand with a note, for manage_finance', async () => {
    const fetch = serve({ permissions: ['manage_finance'] });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Payments' });
    fireEvent.click(within(table).getByRole('button', { name: 'Mark payment ref-2 refunded' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund ref-2' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark refunded' }));
    within(dialog).getByText(FINANCE_MESSAGES.note_required);
    fireEvent.change(within(dialog).getByLabelText('How was it refunded?'), {
      target: { value: 'Sent back on MoMo' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark refunded' }));
    await screen.findByText('Payment ref-2 is marked refunded.');
    expect(screen.queryByRole('dialog')).toBeNull();
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(new URL(post![0], 'http://x').pathname).toBe(
      `/api/v1/partners/${PARTNER}/finance/payments/${payment(2).id}/refund`,
    );
    expect(JSON.parse(String(post![1]!.body))).toEqual({ note: 'Sent back on MoMo' });
    // The list and totals are asked again.
    await waitFor(() => expect(listCalls(fetch).length).toBeGreaterThan(1));
  });

  it('refunds through the provider where it can, and watches the refund until the provider answers', async () => {
    const owed = payment(3, { refund_status: 'needed', provider_refund_available: true, provider: 'airtel_money' });
    const fetch = serve({
      permissions: ['manage_finance'],
      items: [owed],
      afterRefund: [
        payment(3, {
          provider: 'airtel_money',
          refund_status: 'processing',
          refund_requested_at: '2026-03-04T08:00:00.000Z',
        }),
      ],
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Payments' });
    fireEvent.click(within(table).getByRole('button', { name: 'Refund payment ref-3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund ref-3' });
    within(dialog).getByText(/Airtel Money can give RWF\s5,000 back to the payer's account\./);
    fireEvent.click(within(dialog).getByRole('button', { name: /Refund RWF\s5,000 through Airtel Money/ }));
    await screen.findByText(
      'The refund of ref-3 was sent to the provider. This list shows its answer as soon as it comes.',
    );
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(new URL(post![0], 'http://x').pathname).toBe(
      `/api/v1/partners/${PARTNER}/finance/payments/${owed.id}/provider-refund`,
    );
    // The row now says the refund is under way, and may still be recorded by hand.
    const row = await within(table).findByText('Refund under way');
    expect(row).toBeTruthy();
    within(table).getByText(/Refund asked of Airtel Money on/);
    within(table).getByRole('button', { name: 'Mark payment ref-3 refunded' });
  });

  it('shows a refund the provider refused, with its code', async () => {
    serve({
      permissions: ['manage_finance'],
      items: [
        payment(4, {
          provider: 'mtn_momo',
          refund_status: 'needed',
          refund_error: 'NOT_ENOUGH_FUNDS',
          provider_refund_available: true,
        }),
      ],
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Payments' });
    within(table).getByText(/MTN MoMo refused the refund \(NOT_ENOUGH_FUNDS\)/);
    within(table).getByRole('button', { name: 'Refund payment ref-4' });
  });

  it('shows the server refusing a refund in the dialog', async () => {
    serve({ permissions: ['all'], refund: 'conflict' });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Payments' });
    fireEvent.click(within(table).getByRole('button', { name: 'Mark payment ref-2 refunded' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('How was it refunded?'), { target: { value: 'Cash' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark refunded' }));
    await within(dialog).findByText(en.finance.errors.refund_not_needed);
  });

  it('shows the empty, filtered-empty and failed states', async () => {
    serve({ items: [], totals: [] });
    renderPage();
    await screen.findByText('No payments yet');
    cleanup();

    serve({ items: [], totals: [] });
    renderPage('/partner/finance?status=failed');
    await screen.findByText('No payment matches');
    cleanup();

    const fetch = serve({ fail: true });
    renderPage();
    const retry = await screen.findByRole('button', { name: 'Try again' });
    fireEvent.click(retry);
    await waitFor(() => expect(listCalls(fetch)).toHaveLength(2));
  });

  it('tells a member without a finance permission, and asks nothing', async () => {
    const fetch = serve({ permissions: ['review_applications'] });
    renderPage();
    await screen.findByText('You cannot see payments');
    expect(listCalls(fetch)).toEqual([]);
  });
});

const difference = (n: number, overrides: Partial<FinanceDiscrepancy> = {}): FinanceDiscrepancy => ({
  id: `00000000-0000-4000-8000-0000000002${String(n).padStart(2, '0')}`,
  kind: 'status_mismatch',
  payment: { id: payment(n).id, reference: `ref-${n}`, provider: 'mtn_momo', applicant_name: `Applicant ${n}` },
  ours: { status: 'succeeded', amount: 5000, currency: 'RWF', transaction_id: `tx-${n}` },
  theirs: { status: 'failed', amount: 5000, currency: 'RWF', transaction_id: null },
  found_at: '2026-03-03T00:30:00.000Z',
  resolved_at: null,
  note: null,
  ...overrides,
});

describe('the differences with the providers', () => {
  it('lists the open differences, ours beside the provider’s, without actions for a viewer', async () => {
    serve({
      differences: [
        difference(1),
        difference(2, {
          kind: 'amount_mismatch',
          theirs: { status: 'succeeded', amount: 5001, currency: 'RWF', transaction_id: 'tx-2' },
        }),
        difference(3, {
          kind: 'missing_at_provider',
          theirs: { status: null, amount: null, currency: null, transaction_id: null },
        }),
      ],
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Open differences' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    within(rows[0]!).getByText('Another outcome');
    within(rows[0]!).getByText('Failed');
    within(rows[0]!).getByText('tx-1');
    within(rows[1]!).getByText('Another amount');
    within(rows[1]!).getByText(/5,001/);
    within(rows[2]!).getByText('Unknown to the provider');
    within(rows[2]!).getByText('—');
    expect(within(table).queryByRole('button')).toBeNull();
  });

  it('shows nothing when there is no open difference', async () => {
    serve();
    renderPage();
    await screen.findByRole('table', { name: 'Payments' });
    expect(screen.queryByRole('heading', { name: 'Differences with the providers' })).toBeNull();
  });

  it('resolves one with a note for a finance manager, and the list is read again', async () => {
    const fetch = serve({ permissions: ['manage_finance'], differences: [difference(1)] });
    renderPage();
    await screen.findByRole('table', { name: 'Open differences' });
    fireEvent.click(screen.getByRole('button', { name: 'Resolve the difference of ref-1' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    await within(dialog).findByText(FINANCE_MESSAGES.discrepancy_note_required);
    fireEvent.change(within(dialog).getByLabelText('What was found and done?'), {
      target: { value: 'MoMo confirmed the failure.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    await screen.findByText('The difference of ref-1 is resolved.');
    const resolveCall = fetch.mock.calls.find(([url]) => String(url).endsWith('/resolve'));
    expect(JSON.parse(String(resolveCall![1]!.body))).toEqual({ note: 'MoMo confirmed the failure.' });
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Open differences' })).toBeNull());
    screen.getByText('No open differences: every payment checked matches the provider’s records.'.replace('’', "'"));
  });
});
