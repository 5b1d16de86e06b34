import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { PAYMENT_MESSAGES, defaultPartnerSettings, type PartnerAdmissionsSettings } from '@kaminuza/shared';
import { AdmissionsSettingsForm } from './admissions-settings-form.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const PARTNER = '00000000-0000-4000-8000-000000000001';

const ACCOUNT = {
  currency: 'RWF',
  bank_name: 'Bank of Kigali',
  account_name: 'University Admissions',
  account_number: '000-123-456789',
  branch: null,
  swift: null,
  instructions: null,
};

function admissions(bankAccounts: PartnerAdmissionsSettings['bank_accounts'] = []): PartnerAdmissionsSettings {
  return { ...defaultPartnerSettings().admissions, bank_accounts: bankAccounts };
}

/** Answers the save with the settings it was sent, as the api does. */
function serveSave() {
  const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
    const sent = JSON.parse(String(init?.body)) as PartnerAdmissionsSettings;
    const settings = { ...defaultPartnerSettings(), admissions: { ...admissions(), ...sent } };
    return new Response(JSON.stringify({ data: settings }), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderForm(settings: PartnerAdmissionsSettings, canEdit = true) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <AdmissionsSettingsForm partnerId={PARTNER} canEdit={canEdit} admissions={settings} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

const sentBody = (fetch: ReturnType<typeof serveSave>) =>
  JSON.parse(String(fetch.mock.calls[0]![1]?.body)) as { bank_accounts: unknown[] };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the bank accounts of the admissions settings', () => {
  it('adds an account, asks for its required details, and saves it with empty options as null', async () => {
    const fetch = serveSave();
    renderForm(admissions());
    screen.getByText('No bank account yet.');
    fireEvent.click(screen.getByRole('button', { name: 'Add a bank account' }));
    const list = screen.getByRole('list', { name: 'Bank accounts for deposits' });
    const account = within(list).getByRole('group', { name: 'Account in USD' });
    // The new account starts in the fee's currency; the institution sets it.
    fireEvent.change(within(account).getByLabelText('Currency'), { target: { value: 'rwf' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    expect(within(account).getAllByText(PAYMENT_MESSAGES.bank_field_required)).toHaveLength(3);
    expect(fetch).not.toHaveBeenCalled();

    fireEvent.change(within(account).getByLabelText('Bank'), { target: { value: ' Bank of Kigali ' } });
    fireEvent.change(within(account).getByLabelText('Account name'), { target: { value: 'University Admissions' } });
    fireEvent.change(within(account).getByLabelText('Account number'), { target: { value: '000-123-456789' } });
    fireEvent.change(within(account).getByLabelText(/SWIFT/), { target: { value: 'bkigrwrw' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(sentBody(fetch).bank_accounts).toEqual([{ ...ACCOUNT, swift: 'BKIGRWRW' }]);
  });

  it('refuses a SWIFT code of the wrong length and a second account in the same currency', async () => {
    const fetch = serveSave();
    renderForm(admissions([ACCOUNT]));
    const list = screen.getByRole('list', { name: 'Bank accounts for deposits' });
    fireEvent.change(within(list).getByLabelText(/SWIFT/), { target: { value: 'BKIG' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a bank account' }));
    const second = within(list).getAllByRole('listitem')[1]!;
    fireEvent.change(within(second).getByLabelText('Bank'), { target: { value: 'Equity' } });
    fireEvent.change(within(second).getByLabelText('Account name'), { target: { value: 'Admissions' } });
    fireEvent.change(within(second).getByLabelText('Account number'), { target: { value: '42' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    await screen.findByText(PAYMENT_MESSAGES.swift_invalid);
    fireEvent.change(within(list).getAllByLabelText(/SWIFT/)[0]!, { target: { value: 'BKIGRWRW' } });
    fireEvent.change(within(second).getByLabelText('Currency'), { target: { value: 'RWF' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    await screen.findByText(PAYMENT_MESSAGES.bank_account_currencies_unique);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('removes an account', async () => {
    const fetch = serveSave();
    renderForm(admissions([ACCOUNT]));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Account in RWF' }));
    screen.getByText('No bank account yet.');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(sentBody(fetch).bank_accounts).toEqual([]);
  });

  it('is read-only without manage_settings', () => {
    renderForm(admissions([ACCOUNT]), false);
    expect(screen.getByDisplayValue('Bank of Kigali').matches(':disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Add a bank account' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Account in RWF' })).toBeNull();
  });
});
