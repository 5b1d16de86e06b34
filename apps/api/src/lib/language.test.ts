import { describe, expect, it } from 'vitest';
import { chooseLanguage } from './language.ts';

describe('chooseLanguage', () => {
  it.each([
    [{}, 'en'],
    [{ 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8' }, 'fr'],
    [{ 'accept-language': 'rw-RW' }, 'rw'],
    [{ 'accept-language': 'de-DE,de;q=0.9,fr;q=0.5' }, 'fr'],
    [{ 'accept-language': 'en;q=0.2,rw;q=0.8' }, 'rw'],
    [{ 'accept-language': 'fr;q=0,rw;q=0.1' }, 'rw'],
    [{ 'accept-language': 'de, ja' }, 'en'],
    [{ cookie: 'i18next=rw', 'accept-language': 'fr' }, 'rw'],
    [{ cookie: 'theme=dark; i18next=fr-FR' }, 'fr'],
    [{ cookie: 'i18next=de', 'accept-language': 'rw' }, 'rw'],
    [{ cookie: 'i18next=%E0%A4%A', 'accept-language': 'fr' }, 'fr'],
  ] as const)('%o → %s', (headers, expected) => {
    expect(chooseLanguage(headers)).toBe(expected);
  });
});
