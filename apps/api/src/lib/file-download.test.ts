import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from './file-download.ts';

describe('attachmentDisposition', () => {
  it('keeps the exact name in filename* and a safe ASCII fallback', () => {
    expect(attachmentDisposition('a.pdf')).toBe(`attachment; filename="a.pdf"; filename*=UTF-8''a.pdf`);
    expect(attachmentDisposition("l'école (1).pdf")).toBe(
      `attachment; filename="l'_cole (1).pdf"; filename*=UTF-8''l%27%C3%A9cole%20%281%29.pdf`,
    );
  });

  it('never lets a control character, a quote or a backslash of any name into the header', () => {
    for (const name of [
      'a\r\nSet-Cookie: x=1.pdf',
      'a"; filename="evil.html',
      'a\\"b.pdf',
      'invoice\u202Efdp.exe',
      '\u0000\u0085\u2028.pdf',
      'lone\ud800.pdf',
    ]) {
      const header = attachmentDisposition(name);
      expect(header).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!._~-]*$/);
      // Exactly the two quotes around the fallback.
      expect(header.split('"')).toHaveLength(3);
      expect(header).not.toMatch(/[\r\n\\]/);
    }
  });
});
