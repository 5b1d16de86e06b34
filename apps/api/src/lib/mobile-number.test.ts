import { describe, expect, it } from 'vitest';
import { mobileMsisdn } from './mobile-number.ts';

describe('mobileMsisdn', () => {
  it.each([
    ['0788 123 456', 'RW', '250788123456'],
    ['+250 788 123 456', 'RW', '250788123456'],
    ['0712 345 678', 'KE', '254712345678'],
    ['+256 772 123 456', 'UG', '256772123456'],
  ])('%s in %s is the mobile number %s', (input, country, msisdn) => {
    expect(mobileMsisdn(input, country)).toBe(msisdn);
  });

  it.each([
    ['+254 712 345 678', 'RW', 'another country’s number'],
    ['+250 252 123 456', 'RW', 'a landline'],
    ['0788', 'RW', 'too short'],
    ['not a number', 'RW', 'not a number'],
    ['0788 123 456', 'XX', 'an unknown country'],
  ])('%s in %s is refused: %s', (input, country) => {
    expect(mobileMsisdn(input, country)).toBeNull();
  });
});
