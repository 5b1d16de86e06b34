import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadLanguageFormats } from './intl-ponyfill.ts';

const MOMENT = new Date('2026-11-26T21:30:00Z');

function zoneName(language: string, zone: string) {
  const parts = new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName: 'longGeneric' }).formatToParts(0);
  return parts.find((part) => part.type === 'timeZoneName')?.value;
}

/** Spaces as typed: CLDR writes no-break and narrow no-break spaces. */
const plain = (text: string) => text.replace(/\s/g, ' ');

/** What this runtime's `Intl` (Node's full ICU, as on the server) writes in a language. */
function provided(language: string) {
  const names = (type: Intl.DisplayNamesType) => new Intl.DisplayNames([language], { type, fallback: 'none' });
  return {
    date: new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(MOMENT),
    number: plain(new Intl.NumberFormat(language).format(1234567.5)),
    currency: plain(new Intl.NumberFormat(language, { style: 'currency', currency: 'RWF' }).format(250000)),
    currencyName: names('currency').of('RWF'),
    countries: [names('region').of('RW'), names('region').of('ET'), names('region').of('KE')],
    timeZone: zoneName(language, 'Africa/Kigali'),
    timeZoneElsewhere: zoneName(language, 'Europe/Paris'),
    plural: new Intl.PluralRules(language).resolvedOptions(),
    list: new Intl.ListFormat(language).format(['A', 'B', 'C']),
  };
}

describe('what the runtime provides in each language', () => {
  it('English and French: everything', () => {
    expect(provided('en')).toMatchObject({
      date: 'Nov 26, 2026',
      number: '1,234,567.5',
      currency: 'RWF 250,000',
      currencyName: 'Rwandan Franc',
      countries: ['Rwanda', 'Ethiopia', 'Kenya'],
      timeZone: 'Central Africa Time',
      plural: { locale: 'en', pluralCategories: ['one', 'other'] },
      list: 'A, B, and C',
    });
    expect(provided('fr')).toMatchObject({
      date: '26 nov. 2026',
      number: '1 234 567,5',
      currency: '250 000 RWF',
      currencyName: 'franc rwandais',
      countries: ['Rwanda', 'Éthiopie', 'Kenya'],
      timeZone: 'heure normale d’Afrique centrale',
      plural: { locale: 'fr' },
      list: 'A, B et C',
    });
  });

  it('Kinyarwanda: dates, numbers and the franc’s symbol; three country names; no currency or time-zone names, plural rules or lists', () => {
    const rw = provided('rw');
    expect(rw).toMatchObject({
      date: '2026 Ugu. 26',
      number: '1.234.567,5',
      currency: 'RF 250.000',
      currencyName: undefined,
      countries: ['U Rwanda', undefined, undefined],
      // Without names, CLDR writes the country (or its code) where a zone's name would be.
      timeZone: 'U Rwanda',
      timeZoneElsewhere: 'FR',
      // Kinyarwanda has no plural rules or list patterns of its own: the runtime uses English's.
      plural: { locale: 'en-US', pluralCategories: ['one', 'other'] },
      list: 'A, B, and C',
    });
    expect(rw.date).not.toBe(provided('en').date);
  });
});

describe('a browser without Kinyarwanda (Chromium), once its formats are loaded', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('writes dates and amounts exactly as the server does, in any time zone', async () => {
    const rw = await loadLanguageFormats('rw');
    const cases: Intl.DateTimeFormatOptions[] = [
      { dateStyle: 'medium', timeZone: 'UTC' },
      { dateStyle: 'long', timeZone: 'UTC' },
      { dateStyle: 'full', timeZone: 'Africa/Kigali' },
      { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Kigali' },
      { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/New_York' },
      { dateStyle: 'short', timeStyle: 'short', timeZone: 'Asia/Kolkata' },
      { hour: '2-digit', minute: '2-digit', timeZone: 'Africa/Addis_Ababa' },
    ];
    for (const options of cases) {
      expect(rw.dateTimeFormat(options).format(MOMENT)).toBe(new Intl.DateTimeFormat('rw', options).format(MOMENT));
    }
    expect(rw.dateTimeFormat({ dateStyle: 'medium', timeZone: 'America/New_York' }).format(MOMENT)).toBe(
      '2026 Ugu. 26',
    );
    const amounts: Array<[Intl.NumberFormatOptions, number]> = [
      [{}, 1234567.5],
      [{ style: 'currency', currency: 'RWF' }, 250000],
      [{ style: 'currency', currency: 'USD', maximumFractionDigits: 0 }, 2600],
      [{ style: 'percent', maximumFractionDigits: 1 }, 0.293],
    ];
    for (const [options, value] of amounts) {
      expect(rw.numberFormat(options).format(value)).toBe(new Intl.NumberFormat('rw', options).format(value));
    }
  });

  it('loads Kinyarwanda before use, and names countries and currencies as the server does', async () => {
    // The browser's answer: it has no Kinyarwanda, so it would silently write en-US.
    const lacking = (native: (locales: Intl.LocalesArgument) => string[]) => (locales: Intl.LocalesArgument) =>
      [locales].flat().some((locale) => String(locale).startsWith('rw')) ? [] : native(locales);
    vi.spyOn(Intl.DateTimeFormat, 'supportedLocalesOf').mockImplementation(
      lacking(Intl.DateTimeFormat.supportedLocalesOf.bind(Intl.DateTimeFormat)),
    );
    vi.spyOn(Intl.NumberFormat, 'supportedLocalesOf').mockImplementation(
      lacking(Intl.NumberFormat.supportedLocalesOf.bind(Intl.NumberFormat)),
    );
    vi.spyOn(Intl.DisplayNames, 'supportedLocalesOf').mockImplementation(
      lacking(Intl.DisplayNames.supportedLocalesOf.bind(Intl.DisplayNames)),
    );
    const intl = await import('./intl.ts');
    expect(intl.runtimeHas.dates('rw')).toBe(false);
    await intl.loadFormats('rw');
    expect(intl.dateTimeFormat('rw', { dateStyle: 'medium', timeZone: 'UTC' }).format(MOMENT)).toBe('2026 Ugu. 26');
    expect(plain(intl.numberFormat('rw', { style: 'currency', currency: 'RWF' }).format(250000))).toBe('RF 250.000');
    expect(intl.displayName('rw', 'region', 'RW')).toBe('U Rwanda');
    expect(intl.displayName('rw', 'region', 'ET')).toBe('Ethiopia');
    expect(intl.displayName('rw', 'language', 'fr')).toBe(
      new Intl.DisplayNames(['rw'], { type: 'language', fallback: 'none' }).of('fr'),
    );
    expect(intl.displayName('rw', 'currency', 'RWF')).toBe('Rwandan Franc');
    expect(intl.timeZoneName('rw', 'Africa/Kigali')).toBe('Central Africa Time');
  });
});

describe('names', () => {
  it('in the language where CLDR has them, else in English', async () => {
    const { displayName, timeZoneLabel, timeZoneName } = await import('./intl.ts');
    expect(displayName('rw', 'region', 'RW')).toBe('U Rwanda');
    expect(displayName('rw', 'region', 'ET')).toBe('Ethiopia');
    expect(displayName('fr', 'region', 'ET')).toBe('Éthiopie');
    expect(displayName('rw', 'currency', 'RWF')).toBe('Rwandan Franc');
    expect(displayName('fr', 'currency', 'RWF')).toBe('franc rwandais');
    expect(displayName('fr', 'region', 'XX')).toBe('XX');
    expect(timeZoneName('fr', 'Africa/Kigali')).toBe('heure normale d’Afrique centrale');
    expect(timeZoneName('rw', 'Africa/Kigali')).toBe('Central Africa Time');
    expect(timeZoneLabel('fr', 'Africa/Kigali')).toBe('Kigali — heure normale d’Afrique centrale');
    expect(timeZoneLabel('en', 'America/Argentina/Buenos_Aires')).toBe('Buenos Aires — Argentina Standard Time');
    expect(timeZoneLabel('fr', 'UTC')).toBe('temps universel coordonné');
  });

  it('lists with the language’s words, and without English’s "and" where CLDR has none', async () => {
    const { listFormat } = await import('./intl.ts');
    expect(listFormat('fr').format(['A', 'B', 'C'])).toBe('A, B et C');
    expect(listFormat('rw').format(['A', 'B', 'C'])).toBe('A, B, C');
  });
});
