import type { FileMimeType } from '@kaminuza/shared';

/** Enough bytes for every signature below, including an ISO-BMFF brand list. */
export const SNIFF_BYTES = 64;

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);
const HEIF_GENERIC_BRANDS = new Set(['mif1', 'msf1']);

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((byte, i) => bytes[at + i] === byte);
}

/** HEIC is an ISO-BMFF file whose `ftyp` box names a HEIF brand, either as major or compatible brand. */
function isHeic(bytes: Uint8Array): boolean {
  if (bytes.length < 12 || ascii(bytes, 4, 8) !== 'ftyp') return false;
  const major = ascii(bytes, 8, 12);
  if (HEIF_BRANDS.has(major)) return true;
  if (!HEIF_GENERIC_BRANDS.has(major)) return false;
  const boxSize = Math.min(new DataView(bytes.buffer, bytes.byteOffset).getUint32(0), bytes.length);
  for (let at = 16; at + 4 <= boxSize; at += 4) {
    if (HEIF_BRANDS.has(ascii(bytes, at, at + 4))) return true;
  }
  return false;
}

/** The type of a file by its first bytes, or null when it is none of the accepted kinds. */
export function sniffMimeType(bytes: Uint8Array): FileMimeType | null {
  if (ascii(bytes, 0, 5) === '%PDF-') return 'application/pdf';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (isHeic(bytes)) return 'image/heic';
  return null;
}
