import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { FINANCE_MESSAGES, type FinancePayment, type SessionUser, type StaffPermission } from '@kaminuza/shared';
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

const SLIP = payment(3, {
  provider: 'bank_slip',
  method: 'bank_transfer',
  status: 'pending',
  paid_at: null,
  provider_transaction_id: null,
  bank_reference: 'FT26331ABCD',
  has_slip: true,
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function serve({ permissions = ['manage_finance'] as StaffPermission[], verify = 'ok' as 'ok' | 'conflict' } = {}) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://x').pathname;
    if (path === '/api/v1/auth/session') return json(200, { data: member(permissions) });
    if (path.endsWith('/cycles')) return json(200, { data: [] });
    if (path.endsWith('/finance/payments')) {
      return json(200, { data: { items: [payment(1), SLIP], total: 2, page: 1, limit: 25, totals: [] } });
    }
    if (path.endsWith('/slip')) {
      return new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), {
        status: 200,
        headers: { 'content-type': 'image/png' },
      });
    }
    if (path.endsWith('/verify') && init?.method === 'POST') {
      if (verify === 'conflict') {
        return json(409, { error: { status: 'ABORTED', message: FINANCE_MESSAGES.slip_not_pending } });
      }
      const body = JSON.parse(String(init.body)) as { decision: string; reason?: string };
      return json(200, {
        data: {
          ...SLIP,
          status: body.decision === 'approve' ? 'succeeded' : 'failed',
          failure_reason: body.reason ?? null,
          reviewed_at: '2026-03-03T10:00:00.000Z',
        },
      });
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

// jsdom has no modal dialogs: opening one only needs to set `open`, as browsers do.
HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
  this.open = false;
};

URL.createObjectURL ??= () => 'blob:slip';
URL.revokeObjectURL ??= () => undefined;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const verifyCall = (fetch: ReturnType<typeof serve>) => {
  const post = fetch.mock.calls.find(([url, init]) => init?.method === 'POST' && String(url).endsWith('/verify'));
  return post && { path: new URL(post[0], 'http://x').pathname, body: JSON.parse(String(post[1]!.body)) as unknown };
};

describe('verifying bank slips in the finance view', () => {
  it('offers Verify only on pending bank slips, and approves one after showing the slip', async () => {
    const fetch = serve();
    renderPage();
    const table = await screen.findByRole('table', { name: 'Payments' });
    expect(within(table).getAllByRole('button', { name: /^Verify bank slip/ })).toHaveLength(1);
    within(table).getByText('Bank reference: FT26331ABCD');
    fireEvent.click(within(table).getByRole('button', { name: 'Verify bank slip FT26331ABCD' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verify bank slip FT26331ABCD' });
    await within(dialog).findByRole('img', { name: 'Bank slip FT26331ABCD' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await screen.findByText('Bank slip FT26331ABCD is approved: the fee is paid.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(verifyCall(fetch)).toEqual({
      path: `/api/v1/partners/${PARTNER}/finance/payments/${SLIP.id}/verify`,
      body: { decision: 'approve' },
    });
  });

  it('rejects with a reason, which it asks for first', async () => {
    const fetch = serve({ permissions: ['all'] });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Payments' });
    fireEvent.click(within(table).getByRole('button', { name: 'Verify bank slip FT26331ABCD' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject the slip' }));
    within(dialog).getByText(FINANCE_MESSAGES.slip_reason_required);
    fireEvent.change(within(dialog).getByLabelText('Why is the slip rejected?'), {
      target: { value: 'The amount is short by 1,000 RWF.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject the slip' }));
    await screen.findByText('Bank slip FT26331ABCD is rejected: the applicant was told why.');
    expect(verifyCall(fetch)?.body).toEqual({ decision: 'reject', reason: 'The amount is short by 1,000 RWF.' });
  });

  it('shows a slip decided meanwhile in the dialog', async () => {
    serve({ verify: 'conflict' });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Payments' });
    fireEvent.click(within(table).getByRole('button', { name: 'Verify bank slip FT26331ABCD' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await within(dialog).findByText(en.finance.errors.slip_not_pending);
  });

  it('gives view_payments no Verify action', async () => {
    serve({ permissions: ['view_payments'] });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Payments' });
    expect(within(table).queryByRole('button', { name: /^Verify bank slip/ })).toBeNull();
  });
});
