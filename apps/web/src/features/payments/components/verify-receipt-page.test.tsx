import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReceiptVerification } from '@kaminuza/shared';
import { failure, renderPage, serve } from '../../../components/verification-page.testing.tsx';
import { normaliseReceiptCode, VerifyReceiptPage } from './verify-receipt-page.tsx';

const CODE = 'ABCD-EFGH-JKLM';
const verified: ReceiptVerification = {
  valid: true,
  receipt_number: 'KZ-R-2026-4F7K2Q',
  institution: 'Lake Kivu Institute',
  payer_initials: 'A. U.',
  amount: 10000,
  currency: 'RWF',
  paid_at: '2026-07-15T09:30:00.000Z',
  method: 'mobile_money',
  provider: 'mtn_momo',
};

const renderAt = (url: string, lng?: 'en' | 'fr' | 'rw') =>
  renderPage('/verify/receipt/:code', <VerifyReceiptPage />, url, lng);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('normaliseReceiptCode', () => {
  it('reads a code as typed: any case, with or without its dashes', () => {
    expect(normaliseReceiptCode('abcd-efgh-jklm')).toBe(CODE);
    expect(normaliseReceiptCode(' ABCDEFGHJKLM ')).toBe(CODE);
  });

  it('refuses codes outside the alphabet or of another length', () => {
    expect(normaliseReceiptCode('ABCD-EFGH-IJKL')).toBeNull();
    expect(normaliseReceiptCode('ABCD-EFGH')).toBeNull();
    expect(normaliseReceiptCode('')).toBeNull();
  });
});

describe('VerifyReceiptPage', () => {
  it('confirms a genuine receipt with the payer by initials', async () => {
    const fetch = serve({ [`/api/v1/receipts/verify/${CODE}`]: { status: 200, body: { data: verified } } });
    await renderAt('/verify/receipt/abcd-efgh-jklm');
    expect(await screen.findByRole('heading', { name: /This receipt is genuine/ })).toBeTruthy();
    screen.getByText('KZ-R-2026-4F7K2Q');
    screen.getByText('Lake Kivu Institute');
    screen.getByText('A. U.');
    screen.getByText(/RWF\s10,000/);
    screen.getByText('July 15, 2026');
    screen.getByText('Mobile money — MTN MoMo');
    expect(screen.getAllByRole('definition')).toHaveLength(6);
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0]?.[0]).toBe(`/api/v1/receipts/verify/${CODE}`);
  });

  it('speaks French and Kinyarwanda', async () => {
    serve({ [`/api/v1/receipts/verify/${CODE}`]: { status: 200, body: { data: verified } } });
    await renderAt(`/verify/receipt/${CODE}`, 'fr');
    expect(await screen.findByRole('heading', { name: /Ce reçu est authentique/ })).toBeTruthy();
    screen.getByRole('heading', { name: 'Vérifier un reçu' });
    cleanup();
    await renderAt(`/verify/receipt/${CODE}`, 'rw');
    expect(await screen.findByRole('heading', { name: /Iyi nyemezabwishyu ni iy’ukuri/ })).toBeTruthy();
  });

  it('says no receipt matches an unknown code, and checks another one', async () => {
    serve({
      '/api/v1/receipts/verify/ABCD-EFGH-JKLN': failure(404, 'NOT_FOUND', 'No receipt has this verification code.'),
      [`/api/v1/receipts/verify/${CODE}`]: { status: 200, body: { data: verified } },
    });
    const router = await renderAt('/verify/receipt/ABCD-EFGH-JKLN');
    expect(await screen.findByRole('heading', { name: 'Receipt not found' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'No receipt has this verification code. Check the code and try again.',
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Verification code' }), {
      target: { value: 'abcdefghjklm' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByRole('heading', { name: /This receipt is genuine/ })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/verify/receipt/${CODE}`);
  });

  it('answers a malformed code without asking the server', async () => {
    const fetch = serve({});
    await renderAt('/verify/receipt/not-a-code');
    expect(await screen.findByRole('heading', { name: 'Receipt not found' })).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a failure with a retry while offline, then the receipt', async () => {
    let up = false;
    serve({
      [`/api/v1/receipts/verify/${CODE}`]: () =>
        up ? { status: 200, body: { data: verified } } : failure(503, 'UNAVAILABLE', 'unavailable'),
    });
    await renderAt(`/verify/receipt/${CODE}`);
    expect(screen.getByRole('status').textContent).toBe('Loading');
    // One retry after a second before the failure shows.
    expect(await screen.findByRole('alert', {}, { timeout: 3000 })).toBeTruthy();
    up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: /This receipt is genuine/ })).toBeTruthy();
  });
});
