import { describe, expect, it } from 'vitest';
import { foldToGsm7, isGsm7, smsEncoding, smsText } from './encoding.ts';

describe('smsEncoding', () => {
  it('fits 160 plain characters in one GSM-7 message, and splits 161 into two parts of 153', () => {
    expect(smsEncoding('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1, perSegment: 160 });
    expect(smsEncoding('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2, perSegment: 153 });
    expect(smsEncoding('a'.repeat(306)).segments).toBe(2);
    expect(smsEncoding('a'.repeat(307)).segments).toBe(3);
    expect(smsEncoding('')).toEqual({ encoding: 'GSM-7', units: 0, segments: 0, perSegment: 160 });
  });

  it.each(['€', '[', ']', '{', '}', '^', '~', '|', '\\'])('counts the extension character %s as 2 septets', (char) => {
    expect(smsEncoding(char)).toMatchObject({ encoding: 'GSM-7', units: 2, segments: 1 });
    expect(smsEncoding('a'.repeat(158) + char)).toMatchObject({ units: 160, segments: 1 });
    expect(smsEncoding('a'.repeat(159) + char)).toMatchObject({ units: 161, segments: 2 });
  });

  it('never splits an escape pair across two parts', () => {
    // 152 septets, then € (2): the € moves whole to the second part.
    expect(smsEncoding('a'.repeat(152) + '€' + 'a'.repeat(152))).toMatchObject({ units: 306, segments: 3 });
    expect(smsEncoding('a'.repeat(151) + '€' + 'a'.repeat(153))).toMatchObject({ units: 306, segments: 2 });
  });

  it('keeps the French accents of the GSM alphabet in GSM-7', () => {
    expect(smsEncoding('Réponse envoyée à Yaoundé, voilà où, très bien. Ça ?').encoding).toBe('GSM-7');
  });

  it('sends French with ê (or ç, ô) in UCS-2: 70 in one message, 67 per part', () => {
    const text = 'Votre candidature est prête.';
    expect(smsEncoding(text)).toEqual({ encoding: 'UCS-2', units: 28, segments: 1, perSegment: 70 });
    expect(smsEncoding('ç'.repeat(70))).toMatchObject({ segments: 1 });
    expect(smsEncoding('ç'.repeat(71))).toEqual({ encoding: 'UCS-2', units: 71, segments: 2, perSegment: 67 });
    expect(smsEncoding('ô'.repeat(135)).segments).toBe(3);
  });

  it('counts an emoji as 2 UTF-16 units and never splits it', () => {
    expect(smsEncoding('Bravo 🎉')).toEqual({ encoding: 'UCS-2', units: 8, segments: 1, perSegment: 70 });
    expect(smsEncoding('a'.repeat(68) + '🎉')).toMatchObject({ units: 70, segments: 1 });
    // 66 units, then an emoji (2) that would straddle the first part's end: it opens the second.
    expect(smsEncoding('a'.repeat(66) + '🎉' + 'a'.repeat(65))).toMatchObject({ units: 133, segments: 2 });
    expect(smsEncoding('a'.repeat(66) + '🎉' + 'a'.repeat(66))).toMatchObject({ units: 134, segments: 3 });
  });

  it('has the 127 characters of the basic table and the 10 of the extension table', () => {
    const gsm =
      '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
      '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
    expect(Array.from(gsm)).toHaveLength(127);
    expect(smsEncoding(gsm)).toMatchObject({ encoding: 'GSM-7', units: 127 });
    expect(smsEncoding('\f^{}\\[~]|€')).toMatchObject({ encoding: 'GSM-7', units: 20 });
    for (const char of ['ç', 'ê', 'ô', 'â', 'î', 'û', 'ë', 'ï', 'œ', '`', '\u001b', '’'])
      expect(isGsm7(char), char).toBe(false);
  });
});

describe('smsText', () => {
  it('replaces typographic punctuation with its GSM equivalent', () => {
    expect(smsText('l’Afrique ‘a’ “b” 1–2 — … a\u00A0:\u202F!')).toBe("l'Afrique 'a' \"b\" 1-2 - ... a : !");
  });

  it('makes Kinyarwanda with ’ GSM-7', () => {
    const text = 'Itsinda ry’ubufasha rya Kaminuza ryagusubije.';
    expect(smsEncoding(text).encoding).toBe('UCS-2');
    expect(smsText(text)).toBe("Itsinda ry'ubufasha rya Kaminuza ryagusubije.");
    expect(smsEncoding(smsText(text))).toMatchObject({ encoding: 'GSM-7', units: 45, segments: 1 });
  });

  it('keeps accents, composing a decomposed é into the GSM one', () => {
    expect(smsText('Universite\u0301 de Yaounde\u0301')).toBe('Université de Yaoundé');
    expect(smsEncoding(smsText('Universite\u0301')).encoding).toBe('GSM-7');
    expect(smsText('Côte d’Ivoire, reçu, prête')).toBe("Côte d'Ivoire, reçu, prête");
  });
});

describe('foldToGsm7', () => {
  it('writes letters outside GSM-7 with their GSM-7 base letter, keeping the ones GSM-7 has', () => {
    expect(foldToGsm7('Université Félix Houphouët-Boigny, Côte, reçu, Être')).toBe(
      'Université Félix Houphouet-Boigny, Cote, recu, Etre',
    );
    expect(isGsm7(foldToGsm7('àâäçéèêëîïôöùûüÿ'))).toBe(true);
  });

  it('keeps characters with no GSM-7 base letter', () => {
    expect(foldToGsm7('አዲስ አበባ ô 🎉')).toBe('አዲስ አበባ o 🎉');
  });
});
