/**
 * How long a text message is on the wire: which alphabet carries it and how many parts it is sent in.
 *
 * The tables are the GSM 03.38 default alphabet and its extension table as 3GPP TS 23.038 (section
 * 6.2.1) gives them. A text made only of their characters is sent in GSM-7 (7-bit septets: 160 in one
 * message, 153 per part once it is split, the rest of each part carrying the joining header); anything
 * else makes the whole text UCS-2 (UTF-16 code units: 70 in one message, 67 per part), where a
 * character outside the Basic Multilingual Plane, an emoji, counts 2. An extension character is sent
 * as escape + character, 2 septets, and neither pair is ever split across two parts.
 *
 * Written here rather than taken from npm: the maintained calculator (sms-segments-calculator) pulls a
 * grapheme splitter and has no normalisation of its own, and this is a table and a loop.
 */

/**
 * The basic table, in code order (0x00–0x7F), without 0x1B, the escape to the extension table.
 * 0x09 is the capital Ç (the lowercase ç is not in GSM-7).
 */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** The extension table: each character is sent as escape + character, 2 septets. */
const GSM_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsMeasure {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
  /** Messages the text is sent as (0 for an empty text). */
  segments: number;
  /** Units one message of this text holds: the single-message limit, or the per-part one once split. */
  perSegment: number;
}

const LIMITS: Record<SmsEncoding, { single: number; part: number }> = {
  'GSM-7': { single: 160, part: 153 },
  'UCS-2': { single: 70, part: 67 },
};

/** Whether every character of a text is in the GSM 03.38 default alphabet or its extension table. */
export function isGsm7(text: string): boolean {
  for (const char of text) if (!BASIC.has(char) && !EXTENSION.has(char)) return false;
  return true;
}

/** Typographic characters with a plain GSM-7 equivalent that reads the same on a phone. */
const REPLACEMENTS: [RegExp, string][] = [
  [/[\u2018\u2019\u201A\u201B\u2032]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-'],
  [/\u2026/g, '...'],
  // No-break, narrow no-break (French punctuation), figure, thin, hair and the other fixed-width spaces.
  [/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ' '],
  // Invisible characters that would alone make a text UCS-2.
  [/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, ''],
];

/**
 * A text as it should be sent: composed (NFC, so a decomposed é is the GSM é) and with typographic
 * punctuation replaced by its GSM equivalent. Letters are kept as they are: French é, è, à, ù are GSM-7;
 * ê, ô, ç are not, and a text with one of them is sent in UCS-2.
 */
export function smsText(text: string): string {
  let out = text.normalize('NFC');
  for (const [pattern, replacement] of REPLACEMENTS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * A text with each letter outside GSM-7 replaced by its GSM-7 base letter where it has one (ô → o,
 * ç → c, ë → e, Ê → E); a character with none is kept. Only for names that would not fit otherwise: a
 * name without its circumflex reads better than half a name.
 */
export function foldToGsm7(text: string): string {
  let out = '';
  for (const char of text) {
    if (BASIC.has(char) || EXTENSION.has(char)) out += char;
    else {
      const base = char.normalize('NFD').replace(/\p{M}+/gu, '');
      out += base && isGsm7(base) ? base : char;
    }
  }
  return out;
}

/** The encoding, length and number of messages of a text, measured as given (normalise it first). */
export function smsEncoding(text: string): SmsMeasure {
  const encoding: SmsEncoding = isGsm7(text) ? 'GSM-7' : 'UCS-2';
  // Each character's cost in units: a pair (extension character, surrogate pair) is never split.
  const costs = Array.from(text, (char) => (encoding === 'GSM-7' ? (EXTENSION.has(char) ? 2 : 1) : char.length));
  const units = costs.reduce((sum, cost) => sum + cost, 0);
  const { single, part } = LIMITS[encoding];
  if (units <= single) return { encoding, units, segments: units === 0 ? 0 : 1, perSegment: single };
  let segments = 1;
  let used = 0;
  for (const cost of costs) {
    if (used + cost > part) {
      segments += 1;
      used = 0;
    }
    used += cost;
  }
  return { encoding, units, segments, perSegment: part };
}
