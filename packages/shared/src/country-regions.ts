import type { Region } from './schemas/catalogue.ts';

/** ISO 3166-1 alpha-2 codes by the listing's regions (spec section 3); the Caribbean and Central America count as North America. */
const CODES: Record<Region, string> = {
  africa:
    'AC DZ AO BJ BW BF BI CV CM CF TD KM CG CD CI DJ EG GQ ER SZ ET GA GM GH GN GW KE LS LR LY MG MW ML MR MU YT MA MZ NA NE NG RE RW SH ST SN SC SL SO ZA SS SD TA TZ TG TN UG EH ZM ZW',
  europe:
    'AX AL AD AT BY BE BA BG HR CY CZ DK EE FO FI FR DE GI GR GG HU IS IE IM IT JE XK LV LI LT LU MT MD MC ME NL MK NO PL PT RO RU SM RS SK SI ES SJ SE CH UA GB VA',
  asia: 'AF AM AZ BH BD BT BN KH CN GE HK IN ID IO IR IQ IL JO KZ KW KG LA LB MO MY MV MN MM NP KP OM PK PS PH QA SA SG KR LK SY TW TJ TH TL TR TM AE UZ VN YE',
  north_america:
    'AG AI AW BS BB BZ BM BQ VG CA KY CR CU CW DM DO SV GL GD GP GT HT HN JM MQ MX MS NI PA PR BL KN LC MF PM VC SX TT TC US VI',
  south_america: 'AR BO BR CL CO EC FK GF GY PY PE SR UY VE',
  oceania: 'AS AU CK CX CC FJ PF GU KI MH FM NR NC NZ NU NF MP PW PG PN WS SB TK TO TV VU WF',
};

const REGION_OF = new Map<string, Region>(
  Object.entries(CODES).flatMap(([region, codes]) => codes.split(' ').map((code) => [code, region as Region] as const)),
);

/** The listing region of a country; Africa, the platform's home, for a code outside the table. */
export function regionOfCountry(country: string): Region {
  return REGION_OF.get(country.toUpperCase()) ?? 'africa';
}

/** Whether `code` is an ISO 3166-1 alpha-2 country code of the table (upper case). */
export function isCountryCode(code: string): boolean {
  return REGION_OF.has(code);
}

/** Every country code of the table. */
export const COUNTRY_CODES: readonly string[] = [...REGION_OF.keys()];
