import { describe, expect, it } from 'vitest';
import { MAX_FILE_NAME_BYTES, safeFileName } from './file-name.ts';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('safeFileName', () => {
  it('keeps an ordinary name, its own spelling of a matching extension, and non-Latin scripts', () => {
    expect(safeFileName('Relevé de notes 2024.pdf', 'application/pdf')).toBe('Relevé de notes 2024.pdf');
    expect(safeFileName('scan.JPEG', 'image/jpeg')).toBe('scan.JPEG');
    expect(safeFileName('ishusho.heif', 'image/heic')).toBe('ishusho.heif');
    expect(safeFileName('شهادة.pdf', 'application/pdf')).toBe('شهادة.pdf');
    expect(safeFileName("l'école (1).pdf", 'application/pdf')).toBe("l'école (1).pdf");
  });

  it('drops CR, LF and every other control character (C0, DEL, C1)', () => {
    expect(safeFileName('invoice\r\nSet-Cookie: a=b.pdf', 'application/pdf')).toBe('invoiceSet-Cookie_ a=b.pdf');
    expect(safeFileName('a\u0000b\u0007c\u007fd\u0085e\u009f.pdf', 'application/pdf')).toBe('abcde.pdf');
    expect(safeFileName('tab\there.pdf', 'application/pdf')).toBe('tabhere.pdf');
  });

  it('drops bidirectional controls, so the extension shown is the real one', () => {
    expect(safeFileName('invoice\u202Efdp.exe', 'application/pdf')).toBe('invoicefdp.pdf');
    const marks = '\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
    expect(safeFileName(`a${marks}b.pdf`, 'application/pdf')).toBe('ab.pdf');
  });

  it('keeps only the last path part, with no leading dots and no dot runs', () => {
    expect(safeFileName('../../etc/passwd.pdf', 'application/pdf')).toBe('passwd.pdf');
    expect(safeFileName('..\\..\\windows\\win.ini', 'application/pdf')).toBe('win.pdf');
    expect(safeFileName('.htaccess.pdf', 'application/pdf')).toBe('htaccess.pdf');
    expect(safeFileName('report..final...pdf', 'application/pdf')).toBe('report.final.pdf');
    expect(safeFileName('name. . .pdf', 'application/pdf')).toBe('name.pdf');
  });

  it('replaces quotes and the characters file systems refuse, and guards Windows device names', () => {
    expect(safeFileName('a"b*c:d<e>f?g|h.pdf', 'application/pdf')).toBe('a_b_c_d_e_f_g_h.pdf');
    expect(safeFileName('CON.pdf', 'application/pdf')).toBe('_CON.pdf');
    expect(safeFileName('nul', 'image/png')).toBe('_nul.png');
    expect(safeFileName('console.pdf', 'application/pdf')).toBe('console.pdf');
  });

  it('gives a name of only dots, spaces, controls or separators the default name of its type', () => {
    expect(safeFileName('....', 'application/pdf')).toBe('document.pdf');
    expect(safeFileName('. .', 'image/png')).toBe('document.png');
    expect(safeFileName('../', 'application/pdf')).toBe('document.pdf');
    expect(safeFileName('\u202E\r\n', 'image/jpeg')).toBe('document.jpg');
    expect(safeFileName('.pdf', 'application/pdf')).toBe('pdf.pdf');
  });

  it('replaces an extension that is not the sniffed type’s with the type’s own, and adds one where there is none', () => {
    expect(safeFileName('photo.jpg', 'application/pdf')).toBe('photo.pdf');
    expect(safeFileName('notes.docx', 'application/pdf')).toBe('notes.pdf');
    expect(safeFileName('scan.pdf', 'image/png')).toBe('scan.png');
    expect(safeFileName('Transcript v2.1', 'application/pdf')).toBe('Transcript v2.1.pdf');
    expect(safeFileName('passport', 'image/webp')).toBe('passport.webp');
  });

  it('cuts a long name to 255 bytes of UTF-8 before its extension, never inside a character', () => {
    const long = safeFileName(`${'a'.repeat(1000)}.pdf`, 'application/pdf');
    expect(bytes(long)).toBe(MAX_FILE_NAME_BYTES);
    expect(long.endsWith('a.pdf')).toBe(true);

    for (const unit of ['é', '😀', '👩🏽‍🎓', '大']) {
      const name = safeFileName(`${unit.repeat(400)}.jpeg`, 'image/jpeg');
      expect(bytes(name)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
      expect(name.endsWith('.jpeg')).toBe(true);
      const base = name.slice(0, -'.jpeg'.length);
      // Whole characters (and whole emoji sequences) only: the base is the unit repeated.
      expect(base.length % unit.length).toBe(0);
      expect(base).toBe(unit.repeat(base.length / unit.length));
    }
  });

  it('is NFC, so a name typed with combining accents is stored as the composed one', () => {
    const name = safeFileName('Rele\u0301ve\u0301.pdf', 'application/pdf');
    expect(name).toBe('Rel\u00e9v\u00e9.pdf');
    expect(name).toHaveLength('Relévé.pdf'.normalize('NFC').length);
  });

  it('drops lone surrogates, which have no UTF-8 form', () => {
    expect(safeFileName('a\ud800b\udc00c.pdf', 'application/pdf')).toBe('abc.pdf');
  });

  it('is idempotent: a cleaned name stays as it is', () => {
    for (const name of ['invoice\u202Efdp.exe', '../x..y.jpg', `${'😀'.repeat(200)}.png`, 'CON', '....']) {
      const once = safeFileName(name, 'image/png');
      expect(safeFileName(once, 'image/png')).toBe(once);
    }
  });
});
