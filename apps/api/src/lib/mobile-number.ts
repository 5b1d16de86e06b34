import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/**
 * The MSISDN (country calling code and number, digits only, as mobile money APIs take it) of a mobile
 * number of `country` (ISO 3166-1 alpha-2), written locally (0788 123 456) or internationally
 * (+250 788 123 456); null for anything else: another country's number, a landline, not a number.
 * Uses the full metadata: only it tells mobile numbers from landlines.
 */
export function mobileMsisdn(input: string, country: string): string | null {
  if (!isSupportedCountry(country)) return null;
  const number = parsePhoneNumberFromString(input, country as CountryCode);
  if (!number || number.country !== country || !number.isValid()) return null;
  const type = number.getType();
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return null;
  return number.number.slice(1);
}

/** The country (ISO 3166-1 alpha-2) of an MSISDN (digits with the country calling code), or null. */
export function countryOfMsisdn(msisdn: string): string | null {
  return parsePhoneNumberFromString(`+${msisdn}`)?.country ?? null;
}
