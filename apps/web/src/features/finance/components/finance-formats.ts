import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeFormat, numberFormat } from '../../../lib/intl.ts';

/**
 * Money and dates in the reader's language. Amounts arrive as decimal strings with two decimals (at most
 * 14 digits, well within a double's exact range); an unknown currency code is shown beside the number.
 */
export function useFinanceFormats() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  return useMemo(() => {
    const dates = dateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    const money = (amount: string, currency: string) => {
      try {
        return numberFormat(language, { style: 'currency', currency }).format(Number(amount));
      } catch {
        return `${amount} ${currency}`;
      }
    };
    return { money, date: (iso: string) => dates.format(new Date(iso)) };
  }, [language]);
}
