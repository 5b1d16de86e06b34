import { describe, expect, it } from 'vitest';
import { sniffMimeType } from './sniff.ts';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'latin1')] : part)));

function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const size = 16 + compatible.length * 4;
  return bytes([0, 0, 0, size], 'ftyp', major, [0, 0, 0, 0], ...compatible);
}

describe('sniffMimeType', () => {
  it('recognises the accepted kinds by their first bytes', () => {
    expect(sniffMimeType(bytes('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffMimeType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffMimeType(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffMimeType(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('image/webp');
    expect(sniffMimeType(ftyp('heic', 'mif1', 'heic'))).toBe('image/heic');
    expect(sniffMimeType(ftyp('mif1', 'mif1', 'heic'))).toBe('image/heic');
  });

  it('refuses everything else, whatever the file was called', () => {
    expect(sniffMimeType(bytes('<!doctype html><script>alert(1)</script>'))).toBeNull();
    expect(sniffMimeType(bytes('plain text'))).toBeNull();
    expect(sniffMimeType(bytes(' %PDF-1.7'))).toBeNull();
    expect(sniffMimeType(bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '))).toBeNull();
    expect(sniffMimeType(ftyp('avif', 'mif1', 'avif'))).toBeNull();
    expect(sniffMimeType(ftyp('mif1', 'avif'))).toBeNull();
    expect(sniffMimeType(new Uint8Array())).toBeNull();
  });
});
