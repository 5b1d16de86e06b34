import type { Language } from '@kaminuza/shared/constants';
import { isLanguage } from './languages.ts';
import type { DateFormatter, LanguageFormats, NumberFormatter } from './intl-ponyfill.ts';

/*
 * Every date, number, amount, country, currency and time-zone name the app shows is written here, in the
 * reader's language. Runtimes differ in the languages they carry: Node's full ICU has Kinyarwanda, while
 * Chromium's ICU has none and silently writes rw as en-US. For a language the browser lacks,
 * loadFormats() brings FormatJS's implementation with that language's CLDR data, and the names the
 * server's ICU has in it, before the app first renders in the language (ADR 028). English stands in only
 * where CLDR itself has nothing in the language (no Kinyarwanda currency or time-zone names, few countries).
 */

export type { DateFormatter, NumberFormatter };
type NameType = 'region' | 'currency' | 'language';
type Names = Record<NameType, Record<string, string>>;

const CLDR_NAMES: Record<Language, () => Promise<{ default: Names }>> = {
  en: () => import('virtual:kaminuza-cldr-names/en'),
  fr: () => import('virtual:kaminuza-cldr-names/fr'),
  rw: () => import('virtual:kaminuza-cldr-names/rw'),
};

/** What the runtime's own `Intl` knows of a language. */
export const runtimeHas = {
  dates: (language: string) => Intl.DateTimeFormat.supportedLocalesOf([language]).length > 0,
  numbers: (language: string) => Intl.NumberFormat.supportedLocalesOf([language]).length > 0,
  names: (language: string) => Intl.DisplayNames.supportedLocalesOf([language]).length > 0,
};

const loaded = new Map<string, { formats?: LanguageFormats; names?: Names }>();

const loading = new Map<string, Promise<void>>();

/**
 * Makes `language` writable before anything renders in it: nothing to do where the runtime carries it
 * (every browser for en and fr, Node for all three); otherwise its FormatJS formats and CLDR names, fetched
 * once however many catalogue parts ask at the same time. A failed download is tried again next time.
 */
export function loadFormats(language: string): Promise<void> {
  if (!isLanguage(language) || loaded.has(language)) return Promise.resolve();
  const formats = !runtimeHas.dates(language) || !runtimeHas.numbers(language);
  const names = !runtimeHas.names(language);
  if (!formats && !names) return Promise.resolve();
  let pending = loading.get(language);
  if (!pending) {
    pending = Promise.all([
      formats ? import('./intl-ponyfill.ts').then((module) => module.loadLanguageFormats(language)) : undefined,
      names ? CLDR_NAMES[language]().then((module) => module.default) : undefined,
    ])
      .then(([languageFormats, languageNames]) => {
        loaded.set(language, { formats: languageFormats, names: languageNames });
      })
      .finally(() => loading.delete(language));
    loading.set(language, pending);
  }
  return pending;
}

const cache = new Map<string, DateFormatter | NumberFormatter>();
function cached<F extends DateFormatter | NumberFormatter>(
  kind: string,
  language: string,
  options: object,
  create: () => F,
): F {
  // A formatter made before the language's formats arrived is not the one to keep once they have.
  const key = `${kind}|${language}|${loaded.has(language)}|${JSON.stringify(options)}`;
  let formatter = cache.get(key) as F | undefined;
  if (!formatter) {
    formatter = create();
    cache.set(key, formatter);
  }
  return formatter;
}

/** Dates and times in `language` (as `Intl.DateTimeFormat`, which writes them when the runtime has it). */
export function dateTimeFormat(language: string, options: Intl.DateTimeFormatOptions = {}): DateFormatter {
  return cached<DateFormatter>('date', language, options, () => {
    // FormatJS writes the moment as UTC (see intl-ponyfill.ts): a text naming its zone stays the browser's.
    const ponyfill = runtimeHas.dates(language) || options.timeZoneName ? undefined : loaded.get(language)?.formats;
    return ponyfill ? ponyfill.dateTimeFormat(options) : new Intl.DateTimeFormat(language, options);
  });
}

/** Numbers, amounts and rates in `language` (as `Intl.NumberFormat`). */
export function numberFormat(language: string, options: Intl.NumberFormatOptions = {}): NumberFormatter {
  return cached<NumberFormatter>('number', language, options, () => {
    const ponyfill = runtimeHas.numbers(language) ? undefined : loaded.get(language)?.formats;
    return ponyfill ? ponyfill.numberFormat(options) : new Intl.NumberFormat(language, options);
  });
}

/**
 * A list ("A, B and C") in `language`. CLDR has no list patterns in Kinyarwanda, and runtimes then write
 * English's "and": the items are joined as CLDR's root pattern does, with commas only.
 */
export function listFormat(
  language: string,
  options: Intl.ListFormatOptions = {},
): { format(items: string[]): string } {
  return Intl.ListFormat.supportedLocalesOf([language]).length > 0
    ? new Intl.ListFormat(language, options)
    : { format: (items) => items.join(', ') };
}

/** A calendar day (`YYYY-MM-DD`) as written, whatever the reader's time zone. */
export const calendarDay = (day: string) => new Date(`${day.slice(0, 10)}T00:00:00Z`);

function runtimeName(language: string, type: NameType, code: string): string | undefined {
  try {
    return new Intl.DisplayNames([language], { type, fallback: 'none' }).of(code);
  } catch {
    return undefined;
  }
}

/** A country's, currency's or language's name in `language`, else in English, else its code. */
export function displayName(language: string, type: NameType, code: string): string {
  const own = runtimeHas.names(language)
    ? runtimeName(language, type, code)
    : loaded.get(language)?.names?.[type][code];
  return own ?? runtimeName('en', type, code) ?? code;
}

function zoneNamePart(language: string, zone: string, timeZoneName: Intl.DateTimeFormatOptions['timeZoneName']) {
  const parts = new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName }).formatToParts(0);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? zone;
}

const zoneNamesIn = new Map<string, boolean>();
/**
 * Whether the runtime names time zones in `language`: without names, CLDR writes a zone's offset
 * ("GMT+01:00") where a name would be (Kinyarwanda has none, even in Node's full ICU).
 */
function hasZoneNames(language: string): boolean {
  let has = zoneNamesIn.get(language);
  if (has === undefined) {
    has =
      runtimeHas.dates(language) &&
      zoneNamePart(language, 'Europe/Paris', 'long') !== zoneNamePart(language, 'Europe/Paris', 'longOffset');
    zoneNamesIn.set(language, has);
  }
  return has;
}

/** A time zone's name ("heure normale d’Afrique centrale"), in `language` where CLDR has one, else English. */
export function timeZoneName(language: string, zone: string): string {
  // UTC has no generic name (it would read "UTC+00:00"), only its own.
  return zoneNamePart(hasZoneNames(language) ? language : 'en', zone, zone === 'UTC' ? 'long' : 'longGeneric');
}

/** A time zone as a choice: its city and its name ("Kigali — Central Africa Time"). */
export function timeZoneLabel(language: string, zone: string): string {
  const name = timeZoneName(language, zone);
  if (!zone.includes('/')) return name;
  const city = zone.slice(zone.lastIndexOf('/') + 1).replaceAll('_', ' ');
  return `${city} — ${name}`;
}

/** The last minute before a deadline (an ISO moment): "by 12 Dec, 23:59" rather than "by 13 Dec, 00:00". */
export function lastMinuteBefore(iso: string): string {
  return new Date(Date.parse(iso) - 60_000).toISOString();
}
