import type { FileMimeType } from '@kaminuza/shared';

/**
 * The extensions each sniffed type may carry; the first is the one a name gets when its own does not
 * match. Matching ignores case, and a name that matches keeps its own spelling (`scan.JPEG` stays).
 */
const EXTENSIONS: Readonly<Record<FileMimeType, readonly string[]>> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/heic': ['heic', 'heif'],
};

/** UTF-8 bytes at most: what every common file system allows in one name. */
export const MAX_FILE_NAME_BYTES = 255;

/** The name a file gets when nothing of its own name is left. */
export const DEFAULT_FILE_BASE = 'document';

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
/** Marks that reorder what is shown: `invoice\u202Efdp.exe` displays as `invoiceexe.pdf`. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Halves of a character without their other half: no character at all, and not valid UTF-8. */
export const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Characters Windows refuses in a name, or that break a quoted header value. */
const UNSAFE = /["*:<>?|]/g;
/** Windows device names, which open a device instead of a file there, with or without an extension. */
// \u00b9\u00b2\u00b3: superscript one, two and three (COM¹ …), escaped so the built code stays ASCII.
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\.|$)/i;
/** A trailing `.ext`: 1–8 ASCII letters or digits with at least one letter (so `v2.1` has none). */
const EXTENSION = /\.([a-z0-9]{1,8})$/i;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text).length;

/** Without leading and trailing dots and spaces; a loop, as a `[. ]+$` pattern is quadratic on long runs. */
function trimDotsAndSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === '.' || text[start] === ' ')) start += 1;
  while (end > start && (text[end - 1] === '.' || text[end - 1] === ' ')) end -= 1;
  return text.slice(start, end);
}

/** The longest start of `text` within `maxBytes` of UTF-8, cut between graphemes (never inside a surrogate pair). */
function truncateBytes(text: string, maxBytes: number): string {
  if (bytesOf(text) <= maxBytes) return text;
  let kept = '';
  // maxBytes code units hold more than maxBytes bytes, so the cut never falls past this slice.
  text = text.slice(0, maxBytes * 2);
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = bytesOf(segment);
    if (used + size > maxBytes) break;
    kept += segment;
    used += size;
  }
  return kept;
}

/**
 * The display name kept for a file a person uploaded, safe to store, to show and to send in a
 * Content-Disposition header:
 * 1. Without lone surrogates; Unicode NFC; only the part after the last `/` or `\`.
 * 2. Without control characters (C0, DEL, C1) and bidirectional controls (U+061C, U+200E, U+200F,
 *    U+202A–U+202E, U+2066–U+2069); whitespace runs become one space.
 * 3. `"`, `*`, `:`, `<`, `>`, `?`, `|` become `_`; runs of dots become one dot; leading and trailing dots
 *    and spaces go (no hidden files, no `..`); a Windows device name (CON, NUL.txt …) gets a `_` prefix.
 * 4. The extension (see EXTENSION) is kept when it belongs to the type read from the bytes; otherwise it
 *    is replaced by that type's own (a PDF named `photo.jpg` becomes `photo.pdf`), and a name without one
 *    gets it appended (`Transcript v2.1` becomes `Transcript v2.1.pdf`).
 * 5. At most 255 bytes of UTF-8, cut in the name before the extension, between graphemes.
 * 6. Nothing left of the name: `document` with the type's extension (`document.pdf`).
 * Written here rather than taken from sanitize-filename: that package cuts at 255 bytes with the
 * extension, and knows neither bidirectional controls, NFC, leading dots nor the sniffed type.
 */
export function safeFileName(name: string, mimeType: FileMimeType | string): string {
  const lastPart = name.replace(LONE_SURROGATES, '').normalize('NFC').split(/[/\\]/).pop() ?? '';
  const cleaned = trimDotsAndSpaces(
    lastPart
      .replace(CONTROLS, '')
      .replace(BIDI_CONTROLS, '')
      .replace(/\s+/g, ' ')
      .replace(UNSAFE, '_')
      .replace(/\.{2,}/g, '.'),
  );

  const own = EXTENSION.exec(cleaned);
  const ownExtension = own && /[a-z]/i.test(own[1]!) ? own[1]! : null;
  const base = ownExtension ? cleaned.slice(0, own!.index) : cleaned;
  // A type this list does not know (none is stored today) keeps the name's own extension, if any.
  const allowed = (EXTENSIONS as Record<string, readonly string[] | undefined>)[mimeType];
  const extension = allowed
    ? ownExtension && allowed.includes(ownExtension.toLowerCase())
      ? ownExtension
      : allowed[0]!
    : ownExtension;
  const suffix = extension ? `.${extension}` : '';

  const named = DEVICE_NAME.test(`${base}.`) ? `_${base}` : base;
  const shortened = trimDotsAndSpaces(truncateBytes(named, MAX_FILE_NAME_BYTES - bytesOf(suffix)));
  return `${shortened || DEFAULT_FILE_BASE}${suffix}`;
}
