import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { PAYMENT_MESSAGES, type BankAccount, type CheckoutStarted } from '@kaminuza/shared';
import type * as UploadModule from '../../../lib/upload.ts';
import { BankSlipForm, slipReferenceOf } from './bank-slip-form.tsx';

/*
 * The upload itself (tus over XHR) is the upload library's and tested there; here it stands in as a
 * finished upload answering the file id the server gave, so the form's own behaviour is what runs.
 */
const uploads = vi.hoisted(() => ({ fileId: 'file-1' as string | null, fail: false }));
vi.mock('../../../lib/upload.ts', async (original) => {
  const actual = await original<typeof UploadModule>();
  return {
    ...actual,
    startUpload: ({ file, onProgress }: { file: File; onProgress: (p: { sent: number; total: number }) => void }) => {
      queueMicrotask(() => onProgress({ sent: file.size, total: file.size }));
      return {
        done: uploads.fail
          ? Promise.reject(new actual.UploadError('file_type_not_allowed'))
          : Promise.resolve(uploads.fileId),
        cancel: async () => undefined,
      };
    },
  };
});

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const APPLICATION = '4f7a2b9c-0000-4000-8000-000000000001';
const FILE_ID = '00000000-0000-4000-8000-0000000000f1';
const ACCOUNT: BankAccount = {
  currency: 'RWF',
  bank_name: 'Bank of Kigali',
  account_name: 'University Admissions',
  account_number: '000-123-456789',
  branch: 'Kigali Main',
  swift: null,
  instructions: 'Deposits are accepted at every branch.',
};

const CHECKOUT: CheckoutStarted = {
  payment: {
    id: '00000000-0000-4000-8000-0000000000a1',
    provider: 'bank_slip',
    reference: 'slip_abc',
    amount: 20000,
    currency: 'RWF',
    status: 'pending',
    method: 'bank_transfer',
    failure_reason: null,
    paid_at: null,
    created_at: '2026-03-02T09:29:00.000Z',
  },
  checkout_url: '/partners/x/application/form',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function serve(answer: () => Response = () => json(201, { data: CHECKOUT })) {
  const fetch = vi.fn(async () => answer());
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderForm(bankAccounts: BankAccount[] = [ACCOUNT]) {
  const onSubmitted = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <BankSlipForm
          applicationId={APPLICATION}
          currency="RWF"
          amount={20000}
          bankAccounts={bankAccounts}
          onSubmitted={onSubmitted}
        />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return onSubmitted;
}

const chooseSlip = async () => {
  const input = screen.getByLabelText('Choose the slip (photo or PDF)');
  await act(async () =>
    fireEvent.change(input, { target: { files: [new File(['slip'], 'slip.png', { type: 'image/png' })] } }),
  );
};

beforeEach(() => {
  uploads.fileId = FILE_ID;
  uploads.fail = false;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('BankSlipForm', () => {
  it('shows the account to pay to, the amount and the reference to write, each copyable', async () => {
    serve();
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderForm();
    screen.getByText('Bank of Kigali');
    screen.getByText('000-123-456789');
    screen.getByText('Kigali Main');
    screen.getByText('Deposits are accepted at every branch.');
    expect(screen.getByText(/20,000/).textContent).toMatch(/RWF|RF/);
    const reference = slipReferenceOf(APPLICATION);
    expect(reference).toBe('KZ-4F7A2B9C');
    screen.getByText(reference);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy Account number' })));
    expect(writeText).toHaveBeenCalledWith('000-123-456789');
    expect(screen.getAllByText('Copied')).toHaveLength(1);
  });

  it('asks for the slip and the bank reference before sending, then sends them', async () => {
    const fetch = serve();
    const onSubmitted = renderForm();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send the slip for verification' })));
    screen.getByText(en.payments.errors.slip_file_required);
    screen.getByText(en.payments.errors.bank_reference_invalid);
    expect(fetch).not.toHaveBeenCalled();

    await chooseSlip();
    await screen.findByText('Slip uploaded.');
    fireEvent.change(screen.getByLabelText('Bank reference on the slip'), { target: { value: ' FT26331ABCD ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send the slip for verification' })));
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledWith(CHECKOUT));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(`/api/v1/applications/${APPLICATION}/payment`);
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(String(init.body))).toEqual({
      channel: 'bank_slip',
      currency: 'RWF',
      bank_reference: 'FT26331ABCD',
      slip_file_id: FILE_ID,
    });
  });

  it('shows an upload refused and the server refusing the slip', async () => {
    serve(() =>
      json(400, {
        error: { status: 'INVALID_ARGUMENT', message: PAYMENT_MESSAGES.slip_file_invalid, details: {} },
      }),
    );
    const onSubmitted = renderForm();
    uploads.fail = true;
    await chooseSlip();
    await screen.findByText(en.upload.errors.file_type_not_allowed);
    uploads.fail = false;
    await chooseSlip();
    await screen.findByText('Slip uploaded.');
    fireEvent.change(screen.getByLabelText('Bank reference on the slip'), { target: { value: 'FT1' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send the slip for verification' })));
    await screen.findByText(en.payments.errors.slip_file_invalid);
    expect(onSubmitted).not.toHaveBeenCalled();
  });

  it('says so when another payment of the application is still waiting, keeping the slip to send later', async () => {
    const fetch = serve(() =>
      json(409, {
        error: { status: 'ABORTED', message: PAYMENT_MESSAGES.other_payment_pending, reason: 'payment_pending' },
      }),
    );
    const onSubmitted = renderForm();
    await chooseSlip();
    await screen.findByText('Slip uploaded.');
    fireEvent.change(screen.getByLabelText('Bank reference on the slip'), { target: { value: 'FT1' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send the slip for verification' })));
    await screen.findByText(en.payments.errors.other_payment_pending);
    expect(onSubmitted).not.toHaveBeenCalled();
    // The slip and the reference stay: once the other payment ends, the same slip is sent again.
    screen.getByText('Slip uploaded.');
    expect((screen.getByLabelText('Bank reference on the slip') as HTMLInputElement).value).toBe('FT1');
    fetch.mockImplementation(async () => json(201, { data: CHECKOUT }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send the slip for verification' })));
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledWith(CHECKOUT));
  });

  it('says when the institution has no account in the currency', () => {
    serve();
    renderForm([{ ...ACCOUNT, currency: 'USD' }]);
    screen.getByText(en.payments.bank_slip.no_account);
    expect(screen.queryByRole('button', { name: 'Send the slip for verification' })).toBeNull();
  });
});
