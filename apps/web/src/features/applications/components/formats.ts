import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeFormat, numberFormat } from '../../../lib/intl.ts';

/** Money, calendar dates, moments and times in the reader's language. */
export function useApplicationFormats() {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    // Cycle dates are calendar days of the institution: shown as written, whatever the reader's zone.
    const day = dateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
    const longDay = dateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' });
    // A moment's calendar day where the reader is (a release, an answer to an offer).
    const date = dateTimeFormat(lang, { dateStyle: 'medium' });
    const moment = dateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
    const time = dateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' });
    return {
      lang,
      money: (amount: number, currency: string) =>
        numberFormat(lang, { style: 'currency', currency, maximumFractionDigits: 2 }).format(amount),
      day: (iso: string) => day.format(new Date(`${iso}T00:00:00Z`)),
      /** A calendar day written out, as a letter dates itself. */
      longDay: (iso: string) => longDay.format(new Date(`${iso}T00:00:00Z`)),
      date: (iso: string) => date.format(new Date(iso)),
      moment: (iso: string) => moment.format(new Date(iso)),
      time: (iso: string) => time.format(new Date(iso)),
    };
  }, [lang]);
}
