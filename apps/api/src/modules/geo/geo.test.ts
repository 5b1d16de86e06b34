import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CitySuggestion } from '@kaminuza/shared';
import { DEMO_UNIVERSITIES } from '../../seed/universities.data.ts';
import { useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';

let account: TestAccount;

const testApp = useTestApp();

beforeAll(async () => {
  account = await signInAs(testApp.app, 'student');
});

async function places(q: string, country = ''): Promise<CitySuggestion[]> {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/api/v1/geo/cities?${new URLSearchParams({ q, country, limit: '8' })}`,
    headers: account.headers,
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { data: CitySuggestion[] }).data;
}

describe('place search', () => {
  it('finds Huye, the district and its sector, in any case, with their province', async () => {
    for (const q of ['Huye', 'huye', 'HUYE']) {
      const found = await places(q);
      expect(found.slice(0, 2)).toEqual([
        expect.objectContaining({ name: 'Huye', country: 'RW', kind: 'district', district: null, province: 'RW-05' }),
        expect.objectContaining({ name: 'Huye', country: 'RW', kind: 'sector', district: 'Huye', province: 'RW-05' }),
      ]);
    }
  });

  it('finds a sector by part of its name, with its district, within Rwanda', async () => {
    const found = await places('kinyin', 'RW');
    expect(found).toContainEqual(
      expect.objectContaining({ name: 'Kinyinya', kind: 'sector', district: 'Gasabo', province: 'RW-01' }),
    );
    expect(found.every((place) => place.country === 'RW')).toBe(true);
  });

  it('finds the towns of a country with a demo university that the 15,000-inhabitant list lacks', async () => {
    // Nyanza is a district seat whose population GeoNames does not give.
    expect(await places('nyanza', 'RW')).toContainEqual(
      expect.objectContaining({ name: 'Nyanza', kind: 'town', province: 'RW-05' }),
    );
    const bigger = await places('kigali');
    expect(bigger[0]).toMatchObject({ name: 'Kigali', kind: 'town', country: 'RW', province: 'RW-01' });
    expect(bigger[0]?.lat).toBeCloseTo(-1.95, 1);
  });

  it('answers nothing for a name it does not know', async () => {
    expect(await places('Zzyxqv')).toEqual([]);
    expect(await places('Huye', 'KE')).toEqual([]);
  });
});

describe('place data', () => {
  const read = (file: string) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as never;

  it("holds Rwanda's 30 districts and 416 sectors, each sector in a listed district, with their source", () => {
    const rwanda = read('./rwanda.data.json') as {
      source: string;
      licence: string;
      districts: [string, string, string][];
      sectors: [string, string, string, string][];
    };
    expect(rwanda.source).toMatch(/rwanda@/);
    expect(rwanda.licence).toMatch(/MIT/);
    expect(rwanda.districts).toHaveLength(30);
    expect(rwanda.sectors).toHaveLength(416);
    const districts = new Set(rwanda.districts.map(([name]) => name));
    expect(rwanda.sectors.every(([, district]) => districts.has(district))).toBe(true);
    expect(new Set(rwanda.districts.map(([, province]) => province))).toEqual(
      new Set(['RW-01', 'RW-02', 'RW-03', 'RW-04', 'RW-05']),
    );
  });

  it('has towns for every country with a demo university', () => {
    const towns = read('./towns.data.json') as { source: string; licence: string; rows: [string, string][] };
    expect(towns.source).toMatch(/GeoNames/);
    expect(towns.licence).toMatch(/CC BY 4\.0/);
    const countries = new Set(towns.rows.map(([, country]) => country));
    for (const university of DEMO_UNIVERSITIES) expect(countries).toContain(university.address_country);
  });
});
