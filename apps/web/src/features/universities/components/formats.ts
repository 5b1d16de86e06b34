import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { countryNamer } from '../../../lib/countries.ts';

/** Money, rates, dates, counts and country names in the visitor's language. */
export function useFormats() {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const usd = new Intl.NumberFormat(lang, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
    const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
    const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
    // Deadlines are calendar dates: shown as written, whatever the visitor's time zone.
    const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
    return {
      money: (amount: number, currency = 'USD') =>
        currency === 'USD'
          ? usd.format(amount)
          : new Intl.NumberFormat(lang, { style: 'currency', currency, maximumFractionDigits: 0 }).format(amount),
      rate: (value: number) => percent.format(value / 100),
      number: (value: number) => number.format(value),
      date: (iso: string) => date.format(new Date(`${iso}T00:00:00Z`)),
      country: countryNamer(lang),
    };
  }, [lang]);
}
