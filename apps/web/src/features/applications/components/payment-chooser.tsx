import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  isMobileMoneyChannel,
  type BankAccount,
  type CheckoutStarted,
  type FeeChannel,
  type OfferedFeeOption,
  type PaymentStart,
} from '@kaminuza/shared';
import { TextField } from '../../../components/form/field.tsx';
import { BankSlipForm } from './bank-slip-form.tsx';

/**
 * How the applicant pays (issue 22): the currency, when the institution charges in more than one; the way
 * to pay among those it accepts in that currency; and for mobile money, the number the prompt goes to.
 */
export function PaymentChooser({
  applicationId,
  options,
  bankAccounts,
  onSlipSent,
  suggestedPhone,
  busy,
  fieldError,
  money,
  onPay,
}: {
  applicationId: string;
  options: readonly OfferedFeeOption[];
  /** The institution's accounts to deposit to, for a bank slip. */
  bankAccounts: readonly BankAccount[];
  /** A bank slip was sent: it waits for the institution's staff. */
  onSlipSent: (checkout: CheckoutStarted) => void;
  suggestedPhone: string | null;
  busy: boolean;
  /** A field's message from the last attempt (e.g. the number is not of that network). */
  fieldError: (field: 'phone' | 'channel' | 'currency') => string | undefined;
  money: (amount: number, currency: string) => string;
  onPay: (choice: PaymentStart) => void;
}) {
  const { t } = useTranslation();
  const name = useId();
  const [currency, setCurrency] = useState(options[0]!.currency);
  const option = options.find((o) => o.currency === currency) ?? options[0]!;
  const [channel, setChannel] = useState<FeeChannel>(option.channels[0]!);
  const chosen = option.channels.includes(channel) ? channel : option.channels[0]!;
  const [phone, setPhone] = useState(suggestedPhone ?? '');
  const amount = money(option.amount_major, option.currency);
  const mobile = isMobileMoneyChannel(chosen);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onPay({ channel: chosen, currency: option.currency, ...(mobile ? { phone } : {}) });
  };

  return (
    <div className="flex flex-col gap-4">
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {options.length > 1 && (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 font-medium">{t('applications.payment.currency_legend')}</legend>
            {options.map((o) => (
              <label key={o.currency} className="flex items-center gap-3 rounded-lg border border-border p-3">
                <input
                  type="radio"
                  name={`${name}-currency`}
                  value={o.currency}
                  checked={o.currency === option.currency}
                  onChange={() => setCurrency(o.currency)}
                  className="size-5 accent-brand"
                />
                <span className="font-semibold">{money(o.amount_major, o.currency)}</span>
              </label>
            ))}
          </fieldset>
        )}
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 font-medium">{t('applications.payment.channel_legend')}</legend>
          {option.channels.map((c) => (
            <label key={c} className="flex items-center gap-3 rounded-lg border border-border p-3">
              <input
                type="radio"
                name={`${name}-channel`}
                value={c}
                checked={c === chosen}
                onChange={() => setChannel(c)}
                className="size-5 accent-brand"
              />
              <span>
                <span className="block font-medium">{t(`payments.channels.${c}`)}</span>
                <span className="block text-sm text-muted">{t(`applications.payment.channel_hints.${c}`)}</span>
              </span>
            </label>
          ))}
          {fieldError('channel') && <p className="text-sm font-medium text-danger">{fieldError('channel')}</p>}
        </fieldset>
        {mobile && (
          <TextField
            label={t('applications.payment.phone', { network: t(`payments.channels.${chosen}`) })}
            hint={t('applications.payment.phone_hint')}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            value={phone}
            maxLength={32}
            error={fieldError('phone')}
            onChange={(event) => setPhone(event.target.value)}
          />
        )}
        {chosen !== 'bank_slip' && (
          <button type="submit" className="btn-primary self-start" disabled={busy}>
            {mobile ? t('applications.payment.send_prompt', { amount }) : t('applications.payment.pay', { amount })}
          </button>
        )}
      </form>
      {chosen === 'bank_slip' && (
        <BankSlipForm
          applicationId={applicationId}
          currency={option.currency}
          amount={option.amount}
          bankAccounts={bankAccounts}
          onSubmitted={onSlipSent}
        />
      )}
    </div>
  );
}
