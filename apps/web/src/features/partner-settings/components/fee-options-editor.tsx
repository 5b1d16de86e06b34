import { useEffect, useState } from 'react';
import { Controller, useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  FEE_CHANNELS,
  FEE_OPTIONS_MAX,
  MOBILE_MONEY_MARKETS,
  currencyDigits,
  fromMinor,
  isMobileMoneyChannel,
  type FeeChannel,
  type PartnerAdmissionsSettingsUpdateSchema,
} from '@kaminuza/shared';
import { SelectField, TextField, useMessage } from '../../../components/form/field.tsx';
import { useCurrencyOptions } from './general-settings-form.tsx';

type AdmissionsForm = UseFormReturn<
  z.input<typeof PartnerAdmissionsSettingsUpdateSchema>,
  unknown,
  z.output<typeof PartnerAdmissionsSettingsUpdateSchema>
>;

/** The ways to pay that exist in a currency: card and bank slip anywhere, a network where it collects in it. */
export const channelsFor = (currency: string): FeeChannel[] =>
  FEE_CHANNELS.filter(
    (channel) =>
      !isMobileMoneyChannel(channel) || MOBILE_MONEY_MARKETS[channel].some((market) => market.currency === currency),
  );

/**
 * What staff type (100, 100.50, 130000) in whole minor units of the currency, or NaN when it is not an amount
 * of that currency (more decimals than it has, not a number): the schema then says what is wrong.
 */
export function typedMinor(text: string, currency: string): number {
  const match = /^\s*(\d{1,13})(?:[.,](\d*))?\s*$/.exec(text);
  if (!match) return Number.NaN;
  const digits = currencyDigits(currency);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return Number.NaN;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** The amount field of one currency: shown and typed in the currency's units, kept in minor units. */
function AmountField({
  label,
  currency,
  value,
  error,
  onChange,
  onBlur,
}: {
  label: string;
  currency: string;
  value: number | undefined;
  error: string | undefined;
  onChange: (minor: number) => void;
  onBlur: () => void;
}) {
  const [text, setText] = useState(() =>
    value !== undefined && Number.isFinite(value) ? String(fromMinor(value, currency)) : '',
  );
  // Another currency reads the same typed amount in its own minor units.
  useEffect(() => {
    if (text !== '') onChange(typedMinor(text, currency));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the currency changing re-reads the text
  }, [currency]);
  return (
    <TextField
      label={label}
      inputMode="decimal"
      autoComplete="off"
      value={text}
      error={error}
      onBlur={onBlur}
      onChange={(event) => {
        setText(event.target.value);
        onChange(typedMinor(event.target.value, currency));
      }}
    />
  );
}

/**
 * The fee per currency (issue 22): each currency the institution charges in, its amount (set by hand: no
 * exchange rates) and the ways applicants may pay in it. No currency at all means no fee.
 */
export function FeeOptionsEditor({ form, canEdit }: { form: AdmissionsForm; canEdit: boolean }) {
  const { t } = useTranslation();
  const message = useMessage();
  const {
    control,
    register,
    formState: { errors },
  } = form;
  const options = useFieldArray({ control, name: 'application_fees' });
  const rows = useWatch({ control, name: 'application_fees' }) ?? [];
  const currencies = useCurrencyOptions('USD');
  const l = (key: string, values: Record<string, unknown> = {}) => t(`partner_settings.admissions.${key}`, values);
  const listError = errors.application_fees?.message ?? errors.application_fees?.root?.message;

  return (
    <>
      <p className="text-sm text-muted">{l('fees_hint')}</p>
      {options.fields.length === 0 && <p className="rounded-xl border border-border p-3">{l('fees_none')}</p>}
      <ol aria-label={l('fee_title')} className="flex flex-col gap-3">
        {options.fields.map((field, index) => {
          const currency = rows[index]?.currency ?? field.currency;
          const rowErrors = errors.application_fees?.[index];
          const channelError = rowErrors?.channels?.message ?? rowErrors?.channels?.root?.message;
          return (
            <li key={field.id} className="flex min-w-0 flex-col gap-3 rounded-xl border border-border p-3">
              <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
                <SelectField
                  label={l('fee_currency_of', { position: index + 1 })}
                  placeholder={t('partner_settings.choose')}
                  options={currencies}
                  error={rowErrors?.currency?.message}
                  {...register(`application_fees.${index}.currency`)}
                />
                <Controller
                  control={control}
                  name={`application_fees.${index}.amount`}
                  render={({ field: amount, fieldState }) => (
                    <AmountField
                      label={l('fee_amount_in', { currency })}
                      currency={currency}
                      value={amount.value}
                      error={fieldState.error?.message}
                      onChange={amount.onChange}
                      onBlur={amount.onBlur}
                    />
                  )}
                />
                {canEdit && (
                  <button
                    type="button"
                    className="btn-secondary text-danger sm:mt-7"
                    aria-label={l('fee_remove', { currency })}
                    onClick={() => options.remove(index)}
                  >
                    {l('remove')}
                  </button>
                )}
              </div>
              <fieldset className="flex flex-col gap-2" aria-invalid={Boolean(channelError)}>
                <legend className="text-sm font-medium">{l('fee_channels', { currency })}</legend>
                <div className="flex flex-wrap gap-x-5 gap-y-2">
                  {channelsFor(currency).map((channel) => (
                    <label key={channel} className="flex items-center gap-2">
                      <input
                        type="checkbox"
                        value={channel}
                        className="size-5 accent-brand"
                        {...register(`application_fees.${index}.channels`)}
                      />
                      {t(`payments.channels.${channel}`)}
                    </label>
                  ))}
                </div>
                {channelError && <p className="text-sm font-medium text-danger">{message(channelError)}</p>}
              </fieldset>
            </li>
          );
        })}
      </ol>
      {listError && <p className="text-sm font-medium text-danger">{message(listError)}</p>}
      {canEdit && (
        <button
          type="button"
          className="btn-secondary self-start"
          disabled={options.fields.length >= FEE_OPTIONS_MAX}
          onClick={() => {
            const used = new Set(rows.map((row) => row?.currency));
            const currency = currencies.find((option) => !used.has(option.value))?.value ?? 'USD';
            options.append({ currency, amount: Number.NaN, channels: ['card'] });
          }}
        >
          {l('fee_add')}
        </button>
      )}
    </>
  );
}
