import type { Language } from '../constants.ts';
import { foldToGsm7, smsEncoding, smsText, type SmsEncoding } from './encoding.ts';
import { SMS_SHORTENABLE_FIELDS, smsTextOf, type SmsData, type SmsField, type SmsTemplate } from './templates.ts';

/** The most messages one text may take: a third part costs more and often arrives out of order. */
export const SMS_MAX_SEGMENTS = 2;
/** A shortened name keeps at least this many characters before its ellipsis, to stay recognisable. */
const MIN_SHORTENED = 12;
const ELLIPSIS = '...';

/**
 * An i18next-style translate function (the server's `getFixedT(language)` is one): the key, and the
 * values to put in its `{{placeholders}}`, used as given (no HTML escaping).
 */
export type SmsTranslate = (key: string, options: Record<string, unknown>) => string;

export interface RenderedSms {
  text: string;
  encoding: SmsEncoding;
  segments: number;
}

export class SmsTooLongError extends Error {
  constructor(template: SmsTemplate, language: Language, segments: number) {
    super(`The ${template} text in ${language} takes ${segments} messages even with its names shortened`);
    this.name = 'SmsTooLongError';
  }
}

/** A name cut to `length` characters (whole code points), its trailing spaces and punctuation dropped, then "...". */
function shortened(value: string, length: number): string {
  const kept = Array.from(value).slice(0, length).join('');
  return kept.replace(/[\s.,;:'"-]+$/u, '') + ELLIPSIS;
}

/**
 * A template's text in a language with its data, normalised for a phone (typographic punctuation made
 * GSM-7) and measured. When it would take more than two messages: first, if a name's letter outside
 * GSM-7 made it UCS-2, the names are written with plain letters (Côte → Cote); then the longer of the
 * institution and program names is shortened, a character at a time, with an ellipsis, until it fits.
 * The code, reference, amount, day and link are never touched. A text that cannot fit even with both
 * names cut to a dozen characters is a bug in its wording: it throws.
 */
export function renderSms<T extends SmsTemplate>(
  template: T,
  language: Language,
  data: SmsData[T],
  t: SmsTranslate,
): RenderedSms {
  const { key, fields } = smsTextOf(template, data);
  const given = data as Partial<Record<SmsField, string>>;
  const values: Partial<Record<SmsField, string>> = {};
  for (const field of fields) values[field] = smsText(given[field] ?? '').trim();
  const shortenable = SMS_SHORTENABLE_FIELDS.filter((field) => fields.includes(field));
  // Characters kept of each shortenable name; a name at its full length is shown as given.
  const kept = new Map<SmsField, number>();

  const attempt = (): RenderedSms => {
    const shown: Record<string, unknown> = { lng: language, interpolation: { escapeValue: false } };
    for (const field of fields) {
      const value = values[field] ?? '';
      const length = kept.get(field);
      shown[field] = length !== undefined && length < Array.from(value).length ? shortened(value, length) : value;
    }
    const worded = t(key, shown);
    // i18next answers a key it lacks with the key itself: sending that would be worse than not sending.
    if (worded === key) throw new Error(`No ${language} text for ${key}`);
    // A name cut before the sentence's full stop would end in four dots.
    const text = smsText(worded).replaceAll(`${ELLIPSIS}.`, ELLIPSIS);
    const { encoding, segments } = smsEncoding(text);
    return { text, encoding, segments };
  };

  let sms = attempt();
  if (sms.segments <= SMS_MAX_SEGMENTS) return sms;
  // A name with a letter outside GSM-7 (ô, ç, ë) makes the whole text UCS-2, less than half as long:
  // the names with those letters plain come before any name shortened.
  if (sms.encoding === 'UCS-2') {
    for (const field of shortenable) values[field] = foldToGsm7(values[field] ?? '');
    sms = attempt();
    if (sms.segments <= SMS_MAX_SEGMENTS) return sms;
  }
  for (const field of shortenable) kept.set(field, Array.from(values[field] ?? '').length);
  for (;;) {
    // Shorten the longest name still longer than the minimum (the institution first on a tie).
    let longest: SmsField | undefined;
    for (const [field, length] of kept)
      if (length > MIN_SHORTENED && (!longest || length > kept.get(longest)!)) longest = field;
    if (!longest) throw new SmsTooLongError(template, language, sms.segments);
    kept.set(longest, kept.get(longest)! - 1);
    sms = attempt();
    if (sms.segments <= SMS_MAX_SEGMENTS) return sms;
  }
}
