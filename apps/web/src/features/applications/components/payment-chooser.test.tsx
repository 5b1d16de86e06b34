import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@kaminuza/shared/locales/en.json';
import type { OfferedFeeOption } from '@kaminuza/shared';
import { PaymentChooser } from './payment-chooser.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, initAsync: false });

const OPTIONS: OfferedFeeOption[] = [
  { currency: 'USD', amount: 10_000, amount_major: 100, channels: ['card'] },
  { currency: 'RWF', amount: 130_000, amount_major: 130_000, channels: ['card', 'mtn_momo', 'airtel_money'] },
];
const money = (amount: number, currency: string) => `${currency} ${amount}`;

function renderChooser(props: Partial<Parameters<typeof PaymentChooser>[0]> = {}) {
  const onPay = vi.fn();
  render(
    <I18nextProvider i18n={i18n}>
      <PaymentChooser
        applicationId="00000000-0000-4000-8000-000000000001"
        options={OPTIONS}
        bankAccounts={[]}
        onSlipSent={() => {}}
        suggestedPhone="+250788123456"
        busy={false}
        fieldError={() => undefined}
        money={money}
        onPay={onPay}
        {...props}
      />
    </I18nextProvider>,
  );
  return onPay;
}

afterEach(cleanup);

describe('PaymentChooser', () => {
  it('pays by card in the first currency by default', () => {
    const onPay = renderChooser();
    expect(screen.queryByLabelText(/number/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Pay USD 100' }));
    expect(onPay).toHaveBeenCalledWith({ channel: 'card', currency: 'USD' });
  });

  it('offers the ways to pay of the currency chosen, and asks mobile money for the number, prefilled', () => {
    const onPay = renderChooser();
    expect(screen.queryByRole('radio', { name: /MTN MoMo/ })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'RWF 130000' }));
    fireEvent.click(screen.getByRole('radio', { name: /MTN MoMo/ }));
    const phone = screen.getByLabelText('MTN MoMo number') as HTMLInputElement;
    expect(phone.value).toBe('+250788123456');
    fireEvent.change(phone, { target: { value: '0788 000 111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the payment request (RWF 130000)' }));
    expect(onPay).toHaveBeenCalledWith({ channel: 'mtn_momo', currency: 'RWF', phone: '0788 000 111' });
  });

  it('shows the api’s message under the number', () => {
    renderChooser({
      options: [OPTIONS[1]!],
      fieldError: (field) =>
        field === 'phone' ? 'This number cannot pay with this network in this currency.' : undefined,
    });
    fireEvent.click(screen.getByRole('radio', { name: /Airtel Money/ }));
    expect(screen.getByText('This number cannot pay with this network in this currency.')).toBeTruthy();
    // One currency: no currency choice at all.
    expect(screen.queryByRole('group', { name: 'Currency' })).toBeNull();
  });
});
