import type { Region } from '@kaminuza/shared';
import { slugify } from '../lib/slug.ts';

/** Size bands of the listing (spec section 3): small under 5,000 students, large above 15,000. */
export const SIZE_SMALL_BELOW = 5_000;
export const SIZE_LARGE_ABOVE = 15_000;

export function sizeForEnrollment(enrollment: number): 'small' | 'medium' | 'large' {
  if (enrollment < SIZE_SMALL_BELOW) return 'small';
  if (enrollment > SIZE_LARGE_ABOVE) return 'large';
  return 'medium';
}

export interface CountryInfo {
  name: string;
  region: Region;
  /** International calling code, digits only. */
  callingCode: string;
  /** The national higher-education regulator used for demo accreditation labels. */
  accreditor: { body: string; code: string };
  /** A few cities, used by the benchmark generator. */
  cities: readonly string[];
}

const africa = (
  name: string,
  callingCode: string,
  body: string,
  code: string,
  cities: readonly string[],
): CountryInfo => ({ name, region: 'africa', callingCode, accreditor: { body, code }, cities });

/** Keyed by ISO 3166-1 alpha-2. */
export const COUNTRIES = {
  RW: africa('Rwanda', '250', 'Higher Education Council (HEC) Rwanda', 'HEC', [
    'Kigali',
    'Huye',
    'Musanze',
    'Rubavu',
    'Rwamagana',
  ]),
  KE: africa('Kenya', '254', 'Commission for University Education (CUE) Kenya', 'CUE', [
    'Nairobi',
    'Mombasa',
    'Kisumu',
    'Eldoret',
    'Nakuru',
  ]),
  NG: africa('Nigeria', '234', 'National Universities Commission (NUC) Nigeria', 'NUC', [
    'Lagos',
    'Abuja',
    'Ibadan',
    'Kano',
    'Enugu',
    'Port Harcourt',
  ]),
  GH: africa('Ghana', '233', 'Ghana Tertiary Education Commission (GTEC)', 'GTEC', [
    'Accra',
    'Kumasi',
    'Cape Coast',
    'Tamale',
    'Takoradi',
  ]),
  ZA: africa('South Africa', '27', 'Council on Higher Education (CHE) South Africa', 'CHE', [
    'Cape Town',
    'Johannesburg',
    'Pretoria',
    'Durban',
    'Gqeberha',
    'Bloemfontein',
  ]),
  UG: africa('Uganda', '256', 'National Council for Higher Education (NCHE) Uganda', 'NCHE-UG', [
    'Kampala',
    'Entebbe',
    'Gulu',
    'Mbarara',
    'Jinja',
  ]),
  TZ: africa('Tanzania', '255', 'Tanzania Commission for Universities (TCU)', 'TCU', [
    'Dar es Salaam',
    'Arusha',
    'Dodoma',
    'Mwanza',
    'Morogoro',
  ]),
  ET: africa('Ethiopia', '251', 'Education and Training Authority (ETA) Ethiopia', 'ETA', [
    'Addis Ababa',
    'Bahir Dar',
    'Hawassa',
    'Adama',
    'Gondar',
  ]),
  MA: africa('Morocco', '212', "Agence Nationale d'Évaluation et d'Assurance Qualité (ANEAQ) Morocco", 'ANEAQ', [
    'Rabat',
    'Casablanca',
    'Marrakesh',
    'Fes',
    'Tangier',
  ]),
  EG: africa(
    'Egypt',
    '20',
    'National Authority for Quality Assurance and Accreditation of Education (NAQAAE) Egypt',
    'NAQAAE',
    ['Cairo', 'Alexandria', 'Giza', 'Mansoura', 'Aswan'],
  ),
  SN: africa(
    'Senegal',
    '221',
    "Autorité Nationale d'Assurance Qualité de l'Enseignement Supérieur (ANAQ-Sup) Senegal",
    'ANAQSUP',
    ['Dakar', 'Saint-Louis', 'Thiès', 'Ziguinchor'],
  ),
  CI: africa("Côte d'Ivoire", '225', "Conseil Africain et Malgache pour l'Enseignement Supérieur (CAMES)", 'CAMES', [
    'Abidjan',
    'Yamoussoukro',
    'Bouaké',
    'San-Pédro',
  ]),
  CM: africa('Cameroon', '237', 'Ministry of Higher Education (MINESUP) Cameroon', 'MINESUP', [
    'Yaoundé',
    'Douala',
    'Buea',
    'Bamenda',
  ]),
  BW: africa('Botswana', '267', 'Botswana Qualifications Authority (BQA)', 'BQA', [
    'Gaborone',
    'Francistown',
    'Palapye',
    'Maun',
  ]),
  ZM: africa('Zambia', '260', 'Higher Education Authority (HEA) Zambia', 'HEA', [
    'Lusaka',
    'Kitwe',
    'Ndola',
    'Livingstone',
  ]),
  ZW: africa('Zimbabwe', '263', 'Zimbabwe Council for Higher Education (ZIMCHE)', 'ZIMCHE', [
    'Harare',
    'Bulawayo',
    'Mutare',
    'Gweru',
  ]),
  TN: africa(
    'Tunisia',
    '216',
    "Instance Nationale de l'Évaluation, de l'Assurance Qualité et de l'Accréditation (IEAQA) Tunisia",
    'IEAQA',
    ['Tunis', 'Sfax', 'Sousse', 'Monastir'],
  ),
  MU: africa('Mauritius', '230', 'Higher Education Commission (HEC) Mauritius', 'HEC-MU', [
    'Port Louis',
    'Réduit',
    'Curepipe',
    'Ebène',
  ]),
  NA: africa('Namibia', '264', 'National Council for Higher Education (NCHE) Namibia', 'NCHE-NA', [
    'Windhoek',
    'Swakopmund',
    'Oshakati',
    'Walvis Bay',
  ]),
  MW: africa('Malawi', '265', 'National Council for Higher Education (NCHE) Malawi', 'NCHE-MW', [
    'Lilongwe',
    'Blantyre',
    'Zomba',
    'Mzuzu',
  ]),
  BI: africa('Burundi', '257', "Commission Nationale de l'Enseignement Supérieur (CNES) Burundi", 'CNES', [
    'Bujumbura',
    'Gitega',
    'Ngozi',
  ]),
  CD: africa('DR Congo', '243', "Ministère de l'Enseignement Supérieur et Universitaire (ESU) DRC", 'ESU', [
    'Kinshasa',
    'Lubumbashi',
    'Goma',
    'Kisangani',
    'Bukavu',
  ]),
  MZ: africa(
    'Mozambique',
    '258',
    'Conselho Nacional de Avaliação da Qualidade do Ensino Superior (CNAQ) Mozambique',
    'CNAQ',
    ['Maputo', 'Beira', 'Nampula'],
  ),
  GB: {
    name: 'United Kingdom',
    region: 'europe',
    callingCode: '44',
    accreditor: { body: 'Quality Assurance Agency for Higher Education (QAA)', code: 'QAA' },
    cities: ['London', 'Manchester', 'Edinburgh', 'Birmingham'],
  },
  FR: {
    name: 'France',
    region: 'europe',
    callingCode: '33',
    accreditor: {
      body: "Haut Conseil de l'évaluation de la recherche et de l'enseignement supérieur (Hcéres)",
      code: 'HCERES',
    },
    cities: ['Paris', 'Lyon', 'Toulouse', 'Lille'],
  },
  DE: {
    name: 'Germany',
    region: 'europe',
    callingCode: '49',
    accreditor: { body: 'German Accreditation Council (Akkreditierungsrat)', code: 'GAC' },
    cities: ['Munich', 'Berlin', 'Hamburg', 'Aachen'],
  },
  NL: {
    name: 'Netherlands',
    region: 'europe',
    callingCode: '31',
    accreditor: { body: 'Accreditation Organisation of the Netherlands and Flanders (NVAO)', code: 'NVAO' },
    cities: ['Amsterdam', 'Rotterdam', 'Utrecht', 'Delft'],
  },
  CA: {
    name: 'Canada',
    region: 'north_america',
    callingCode: '1',
    accreditor: { body: 'Ontario Universities Council on Quality Assurance', code: 'OUCQA' },
    cities: ['Toronto', 'Montreal', 'Vancouver', 'Ottawa'],
  },
  US: {
    name: 'United States',
    region: 'north_america',
    callingCode: '1',
    accreditor: { body: 'Middle States Commission on Higher Education (MSCHE)', code: 'MSCHE' },
    cities: ['Washington', 'Boston', 'Atlanta', 'Houston', 'Chicago'],
  },
  IN: {
    name: 'India',
    region: 'asia',
    callingCode: '91',
    accreditor: { body: 'National Assessment and Accreditation Council (NAAC) India', code: 'NAAC' },
    cities: ['Chennai', 'Bengaluru', 'New Delhi', 'Mumbai'],
  },
  CN: {
    name: 'China',
    region: 'asia',
    callingCode: '86',
    accreditor: { body: 'Ministry of Education of the People’s Republic of China', code: 'MOE-CN' },
    cities: ['Beijing', 'Shanghai', 'Hangzhou', 'Wuhan'],
  },
  AU: {
    name: 'Australia',
    region: 'oceania',
    callingCode: '61',
    accreditor: { body: 'Tertiary Education Quality and Standards Agency (TEQSA)', code: 'TEQSA' },
    cities: ['Melbourne', 'Sydney', 'Brisbane', 'Perth'],
  },
  BR: {
    name: 'Brazil',
    region: 'south_america',
    callingCode: '55',
    accreditor: { body: 'Ministry of Education (MEC) Brazil', code: 'MEC' },
    cities: ['São Paulo', 'Rio de Janeiro', 'Belo Horizonte', 'Porto Alegre'],
  },
} as const satisfies Record<string, CountryInfo>;

export type CountryCode = keyof typeof COUNTRIES;
export const COUNTRY_CODES = Object.keys(COUNTRIES) as CountryCode[];
export const AFRICAN_COUNTRY_CODES = COUNTRY_CODES.filter((c) => COUNTRIES[c].region === 'africa');

/**
 * Phone numbers of demo listings are visibly not real (a run of zeros after the calling code), so no
 * one's line gets dialled from a demo profile.
 */
export function demoPhone(country: CountryCode, n: number): string {
  return `+${COUNTRIES[country].callingCode} 000 000 ${String(n % 1000).padStart(3, '0')}`;
}

export { slugify };
