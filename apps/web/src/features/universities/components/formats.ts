import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { countryNamer } from '../../../lib/countries.ts';
import { dateTimeFormat, numberFormat } from '../../../lib/intl.ts';

/** Money, rates, dates, counts and country names in the visitor's language. */
export function useFormats() {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const usd = numberFormat(lang, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
    const percent = numberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
    const number = numberFormat(lang, { maximumFractionDigits: 1 });
    // Deadlines are calendar dates: shown as written, whatever the visitor's time zone.
    const date = dateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
    return {
      money: (amount: number, currency = 'USD') =>
        currency === 'USD'
          ? usd.format(amount)
          : numberFormat(lang, { style: 'currency', currency, maximumFractionDigits: 0 }).format(amount),
      rate: (value: number) => percent.format(value / 100),
      number: (value: number) => number.format(value),
      date: (iso: string) => date.format(new Date(`${iso}T00:00:00Z`)),
      country: countryNamer(lang),
    };
  }, [lang]);
}
