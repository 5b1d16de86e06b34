import { describe, expect, it } from 'vitest';
import { countryName, countryOfAddress } from './place.ts';

describe('countryOfAddress', () => {
  it('places public IPv4 addresses, also when reported IPv4-mapped', () => {
    expect(countryOfAddress('41.186.0.1')).toBe('RW');
    expect(countryOfAddress('::ffff:41.186.0.1')).toBe('RW');
    expect(countryOfAddress('8.8.8.8')).toBe('US');
  });

  it.each(['127.0.0.1', '10.1.2.3', '192.168.1.1', '172.20.0.5', '100.64.1.1', '::1', '2c0f:eb68::1', 'not-an-ip', ''])(
    'does not place %s',
    (address) => {
      expect(countryOfAddress(address)).toBeNull();
    },
  );
});

describe('countryName', () => {
  it('names the country in the language', () => {
    expect(countryName('RW', 'en')).toBe('Rwanda');
    expect(countryName('US', 'fr')).toBe('États-Unis');
    expect(countryName('RW', 'rw')).toBe('U Rwanda');
  });

  it('names it in English where CLDR has no name in the language, never by its code', () => {
    // CLDR names three countries in Kinyarwanda (Rwanda, North Macedonia, Tonga).
    expect(countryName('ET', 'rw')).toBe('Ethiopia');
    expect(countryName('KE', 'rw')).toBe('Kenya');
    expect(countryName('QQ', 'fr')).toBe('QQ');
  });
});
