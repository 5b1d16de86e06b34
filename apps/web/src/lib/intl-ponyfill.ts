import { DateTimeFormat } from '@formatjs/intl-datetimeformat';
import { NumberFormat } from '@formatjs/intl-numberformat';
import type { Language } from '@kaminuza/shared/constants';

/*
 * FormatJS's implementations of DateTimeFormat and NumberFormat, fed one language's CLDR data: used as
 * ordinary classes (not installed over the browser's own `Intl`), for a language the browser lacks.
 * Downloaded only by such a browser, with only that language's data (ADR 028).
 */

type Load = () => Promise<unknown>;
const DATE_DATA: Record<Language, Load> = {
  en: () => import('@formatjs/intl-datetimeformat/locale-data/en.js'),
  fr: () => import('@formatjs/intl-datetimeformat/locale-data/fr.js'),
  rw: () => import('@formatjs/intl-datetimeformat/locale-data/rw.js'),
};
const NUMBER_DATA: Record<Language, Load> = {
  en: () => import('@formatjs/intl-numberformat/locale-data/en.js'),
  fr: () => import('@formatjs/intl-numberformat/locale-data/fr.js'),
  rw: () => import('@formatjs/intl-numberformat/locale-data/rw.js'),
};

/**
 * A locale-data module hands its data to `Intl.X.__addLocaleData` when FormatJS is installed over `Intl`,
 * and otherwise leaves it in a global buffer: taken from there into the class used here.
 */
async function addData<T>(load: Load, buffer: string, add: (data: T[]) => void): Promise<void> {
  await load();
  const scope = globalThis as Record<string, unknown>;
  const data = (scope[buffer] ?? []) as T[];
  delete scope[buffer];
  if (data.length > 0) add(data);
}

export interface DateFormatter {
  format(value: Date | number): string;
}
export interface NumberFormatter {
  format(value: number): string;
}

export interface LanguageFormats {
  dateTimeFormat(options: Intl.DateTimeFormatOptions): DateFormatter;
  numberFormat(options: Intl.NumberFormatOptions): NumberFormatter;
}

const WALL_CLOCK: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};

/**
 * FormatJS needs the whole time-zone database (125 KB compressed) to place a moment in a zone, which the
 * browser already knows: the browser reads the wall-clock time in the zone, and FormatJS writes that
 * wall-clock time, given as UTC, in the language. Texts that name their zone are left to the browser
 * (lib/intl.ts), as FormatJS would name UTC.
 */
function inZone(language: string, options: Intl.DateTimeFormatOptions): DateFormatter {
  const written = new DateTimeFormat(language, { ...options, timeZone: 'UTC' });
  // eslint-disable-next-line no-restricted-syntax -- the browser's own zone data, read in digits only
  const wall = new Intl.DateTimeFormat('en-US', { ...WALL_CLOCK, timeZone: options.timeZone });
  if (wall.resolvedOptions().timeZone === 'UTC') return written;
  return {
    format(value) {
      const parts = wall.formatToParts(value);
      const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
      const milliseconds = new Date(value).getUTCMilliseconds();
      const utc = new Date(0);
      utc.setUTCFullYear(field('year'), field('month') - 1, field('day'));
      utc.setUTCHours(field('hour'), field('minute'), field('second'), milliseconds);
      return written.format(utc);
    },
  };
}

/** `language`'s formats by FormatJS, with its CLDR data loaded. */
export async function loadLanguageFormats(language: Language): Promise<LanguageFormats> {
  await Promise.all([
    addData(
      DATE_DATA[language],
      '__FORMATJS_DATETIMEFORMAT_DATA__',
      (data: Parameters<typeof DateTimeFormat.__addLocaleData>) => DateTimeFormat.__addLocaleData(...data),
    ),
    addData(
      NUMBER_DATA[language],
      '__FORMATJS_NUMBERFORMAT_DATA__',
      (data: Parameters<typeof NumberFormat.__addLocaleData>) => NumberFormat.__addLocaleData(...data),
    ),
  ]);
  return {
    dateTimeFormat: (options) => inZone(language, options),
    numberFormat: (options) => {
      // FormatJS's option types are narrower than the DOM library's for the same ECMA-402 options.
      const format = new NumberFormat(language, options as ConstructorParameters<typeof NumberFormat>[1]);
      return { format: (value) => format.format(value) };
    },
  };
}
