import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import { defaultPartnerSettings, type PartnerAdmissionsSettings } from '@kaminuza/shared';
import { AdmissionsSettingsForm } from './admissions-settings-form.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const PARTNER = '00000000-0000-4000-8000-000000000001';

function admissions(): PartnerAdmissionsSettings {
  return {
    ...defaultPartnerSettings().admissions,
    custom_stages: [
      { id: 'documents', name: 'Document check', order: 0 },
      { id: 'interview', name: 'Interview', order: 1 },
    ],
  };
}

/** Answers the save with the settings it was sent, as the api does. */
function serveSave() {
  const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
    const sent = JSON.parse(String(init?.body)) as PartnerAdmissionsSettings & { custom_stages: { id: string }[] };
    const settings = {
      ...defaultPartnerSettings(),
      admissions: { ...sent, custom_stages: sent.custom_stages.map((stage, order) => ({ ...stage, order })) },
    };
    return new Response(JSON.stringify({ data: settings }), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderForm(canEdit = true) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <AdmissionsSettingsForm partnerId={PARTNER} canEdit={canEdit} admissions={admissions()} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AdmissionsSettingsForm', () => {
  it('refuses crossed thresholds before sending anything', async () => {
    const fetch = serveSave();
    renderForm();
    fireEvent.click(screen.getByRole('switch', { name: 'Accept automatically' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Reject automatically' }));
    fireEvent.change(screen.getByLabelText('Auto-accept threshold (0–100)'), { target: { value: '40' } });
    fireEvent.change(screen.getByLabelText('Auto-reject threshold (0–100)'), { target: { value: '60' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    expect(await screen.findByText('The auto-reject threshold must be below the auto-accept threshold')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('moves, renames, adds and removes stages, and saves them in list order', async () => {
    const fetch = serveSave();
    renderForm();
    expect(screen.getByRole('button', { name: 'Move Document check up' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Move Interview up' }));
    expect((screen.getByLabelText('Stage 1 name') as HTMLInputElement).value).toBe('Interview');
    fireEvent.click(screen.getByRole('button', { name: 'Add a stage' }));
    fireEvent.change(screen.getByLabelText('Stage 3 name'), { target: { value: 'Final review' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove Document check' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));

    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`/api/v1/partners/${PARTNER}/settings/admissions`);
    expect(init?.method).toBe('PUT');
    const sent = JSON.parse(String(init?.body)) as { custom_stages: { id: string; name: string }[] };
    expect(sent.custom_stages.map((stage) => stage.name)).toEqual(['Interview', 'Final review']);
    expect(sent.custom_stages[0]?.id).toBe('interview');
    expect(await screen.findByText('Changes saved.')).toBeTruthy();
  });

  it('is read-only without manage_settings: fields disabled, no save, no adding stages', () => {
    renderForm(false);
    // A disabled fieldset disables every control in it.
    expect(screen.getByLabelText('Fee in USD').matches(':disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add a stage' })).toBeNull();
  });

  it('sets the fee per currency in the currency’s units and sends it in minor units with its ways to pay', async () => {
    const fetch = serveSave();
    renderForm();
    // The default fee (100 USD) reads as one currency, by card.
    expect((screen.getByLabelText('Fee in USD') as HTMLInputElement).value).toBe('100');
    fireEvent.change(screen.getByLabelText('Fee in USD'), { target: { value: '100.50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a currency' }));
    fireEvent.change(screen.getByLabelText('Currency 2'), { target: { value: 'RWF' } });
    fireEvent.change(screen.getByLabelText('Fee in RWF'), { target: { value: '130000' } });
    // Only the networks collecting in RWF are offered for it.
    const rwf = screen.getByRole('group', { name: 'Ways to pay in RWF' });
    expect(within(rwf).queryByLabelText('M-Pesa')).toBeNull();
    fireEvent.click(within(rwf).getByLabelText('MTN MoMo'));
    fireEvent.click(within(rwf).getByLabelText('Airtel Money'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));

    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const sent = JSON.parse(String(fetch.mock.calls[0]![1]?.body)) as { application_fees: unknown };
    expect(sent.application_fees).toEqual([
      { currency: 'USD', amount: 10_050, channels: ['card'] },
      { currency: 'RWF', amount: 130_000, channels: ['card', 'mtn_momo', 'airtel_money'] },
    ]);
  });

  it('refuses an amount with more decimals than the currency has, before sending anything', async () => {
    const fetch = serveSave();
    renderForm();
    fireEvent.change(screen.getByLabelText('Fee in USD'), { target: { value: '10.555' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    expect(await screen.findByText(en.payments.errors.fee_amount_invalid)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});
