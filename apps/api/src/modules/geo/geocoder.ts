import { readFileSync } from 'node:fs';
import type { CitySuggestion } from '@kaminuza/shared';

/**
 * Finds places from what an applicant types. The offline implementation below answers from bundled
 * datasets; a hosted geocoder (Nominatim, Google Places…) can implement the same interface
 * (docs/decisions/006-offline-address-search.md, 026-place-data-for-onboarding-searches.md).
 */
export interface Geocoder {
  searchCities(query: { q: string; country: string; limit: number }): Promise<CitySuggestion[]>;
}

/** A GeoNames place: [name, ISO country, admin1 code, lat, lng, population]. */
type GeoNamesRow = [string, string, string, number, number, number];

/**
 * The bundled place data, rebuilt by scripts/geo-data.ts (each file names its source and licence):
 * - cities: GeoNames places of at least 15,000 inhabitants, worldwide, largest first;
 * - towns: the smaller GeoNames towns of each country with a demo university, largest first;
 * - rwanda: Rwanda's districts [name, province, admin1] and sectors [name, district, province, admin1].
 */
export interface PlaceData {
  cities: readonly GeoNamesRow[];
  towns: readonly GeoNamesRow[];
  rwanda: {
    districts: readonly [string, string, string][];
    sectors: readonly [string, string, string, string][];
  };
}

const read = <T>(file: string): T => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as T;

export function bundledPlaceData(): PlaceData {
  return {
    cities: read<GeoNamesRow[]>('./cities.data.json'),
    towns: read<{ rows: GeoNamesRow[] }>('./towns.data.json').rows,
    rwanda: read<PlaceData['rwanda']>('./rwanda.data.json'),
  };
}

/** Rwanda's GeoNames admin1 codes → the provinces' ISO 3166-2 codes, so towns name their province too. */
const RWANDA_PROVINCE_OF_ADMIN1: Record<string, string> = {
  '11': 'RW-02',
  '12': 'RW-01',
  '13': 'RW-03',
  '14': 'RW-04',
  '15': 'RW-05',
};

/** Lower case without accents, so "bujumbura" finds "Bujumbura" and "sao" finds "São Paulo". */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

interface IndexedPlace {
  key: string;
  place: CitySuggestion;
}

function town([name, country, admin, lat, lng]: GeoNamesRow): CitySuggestion {
  const province = country === 'RW' ? (RWANDA_PROVINCE_OF_ADMIN1[admin] ?? null) : null;
  return { name, country, admin_region: admin, lat, lng, kind: 'town', district: null, province };
}

/**
 * Every place in the order suggestions are offered: the larger cities by population, then Rwanda's
 * districts (each the name of its main town), the smaller towns, and Rwanda's sectors.
 */
function indexPlaces({ cities, towns, rwanda }: PlaceData): IndexedPlace[] {
  const places: CitySuggestion[] = [
    ...cities.map(town),
    ...rwanda.districts.map(([name, province, admin]): CitySuggestion => ({
      name,
      country: 'RW',
      admin_region: admin,
      lat: null,
      lng: null,
      kind: 'district',
      district: null,
      province,
    })),
    ...towns.map(town),
    ...rwanda.sectors.map(([name, district, province, admin]): CitySuggestion => ({
      name,
      country: 'RW',
      admin_region: admin,
      lat: null,
      lng: null,
      kind: 'sector',
      district,
      province,
    })),
  ];
  return places.map((place) => ({ key: fold(place.name), place }));
}

/**
 * Searches the bundled places in memory: static reference data (about 65,000 rows), loaded once on
 * first use. Names equal to the query come first, then names starting with it, then names containing it,
 * each in the order above.
 */
export function offlineGeocoder(data: () => PlaceData = bundledPlaceData): Geocoder {
  let index: IndexedPlace[] | null = null;
  return {
    async searchCities({ q, country, limit }) {
      const query = fold(q);
      if (!query) return [];
      index ??= indexPlaces(data());
      const exact: CitySuggestion[] = [];
      const prefix: CitySuggestion[] = [];
      const inner: CitySuggestion[] = [];
      for (const { key, place } of index) {
        if (country && place.country !== country) continue;
        if (key === query) exact.push(place);
        else if (prefix.length < limit && key.startsWith(query)) prefix.push(place);
        else if (inner.length < limit && key.includes(query)) inner.push(place);
        if (exact.length >= limit) break;
      }
      return [...exact, ...prefix, ...inner].slice(0, limit);
    },
  };
}
