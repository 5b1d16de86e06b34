import { beforeAll, describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES, UniversityPageSchema } from '@kaminuza/shared';
import { DEMO_UNIVERSITIES, seedDemoData } from '../../seed/index.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';

let student: TestAccount;

const listed = DEMO_UNIVERSITIES.filter((u) => u.status === 'approved' && u.published);
const names = (where: (u: (typeof listed)[number]) => boolean) =>
  listed
    .filter(where)
    .map((u) => u.name)
    .sort();

const testApp = useTestApp();

beforeAll(async () => {
  await seedDemoData(testApp.db);
  student = await signInAs(testApp.app, 'student');
});

async function search(query: string) {
  const response = await testApp.app.inject({
    url: `/api/v1/catalogue/universities?page_size=50&${query}`,
    headers: student.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  const page = UniversityPageSchema.parse(response.json().data);
  expect(page.total).toBe(page.items.length);
  return page.items.map((item) => item.name).sort();
}

describe('catalogue search by place', () => {
  const rwandan = names((u) => u.address_country === 'RW');

  it('finds every university in a country searched by its name, in English, French or Kinyarwanda', async () => {
    expect(rwandan).toEqual(
      expect.arrayContaining([
        'Kepler College',
        'African Leadership University',
        'Carnegie Mellon University Africa',
        'Adventist University of Central Africa',
      ]),
    );
    expect(await search('q=rwanda')).toEqual(rwandan);
    expect(await search('q=Rwanda')).toEqual(rwandan);
    expect(await search('q=u%20rwanda')).toEqual(rwandan);
    expect(await search('q=%C3%A9thiopie')).toEqual(names((u) => u.address_country === 'ET'));
    expect(await search('q=ethiopia')).toEqual(names((u) => u.address_country === 'ET'));
    // By its code alone, too.
    expect(await search('q=RW')).toEqual(rwandan);
  });

  it('combines a country with other words', async () => {
    const mentions = (u: (typeof listed)[number]) => /\bcollege/i.test(`${u.name} ${u.address_city} ${u.description}`);
    const colleges = await search('q=college');
    expect(colleges).toEqual(names(mentions));
    const rwandanColleges = names((u) => u.address_country === 'RW' && mentions(u));
    expect(rwandanColleges).toContain('Kepler College');
    expect(colleges.length).toBeGreaterThan(rwandanColleges.length);
    expect(await search('q=rwanda%20college')).toEqual(rwandanColleges);
    expect(await search('q=kigali%20rwanda')).toEqual(names((u) => u.address_city === 'Kigali'));
  });

  it('finds every university in a city', async () => {
    const kigali = names((u) => u.address_city === 'Kigali');
    expect(kigali.length).toBeGreaterThanOrEqual(6);
    expect(await search('q=kigali')).toEqual(kigali);
  });

  it('tolerates misspelt names and cities', async () => {
    const addis = ['Addis Ababa Science and Technology University', 'Addis Ababa University'];
    expect(names((u) => u.address_city === 'Addis Ababa')).toEqual(addis);
    expect(await search('q=adis%20abeba')).toEqual(addis);
    expect(await search('q=kigaly')).toEqual(names((u) => u.address_city === 'Kigali'));
    expect(await search('q=kepler%20colege')).toEqual(['Kepler College']);
  });
});

describe('the country filter', () => {
  it('keeps the universities of the chosen countries', async () => {
    expect(await search('country=RW')).toEqual(names((u) => u.address_country === 'RW'));
    expect(await search('country=RW&country=ET')).toEqual(
      names((u) => u.address_country === 'RW' || u.address_country === 'ET'),
    );
    expect(await search('country=RW&q=polytechnic')).toEqual(['Rwanda Polytechnic']);
    expect(await search('country=ET&q=kigali')).toEqual([]);
  });

  it.each(['XX', 'Rwanda', '12', 'R'])('refuses %s with 400 and the spec’s text', async (country) => {
    const response = await testApp.app.inject({
      url: `/api/v1/catalogue/universities?country=${country}`,
      headers: student.headers,
    });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.status).toBe('INVALID_ARGUMENT');
    expect(error.details).toEqual([
      expect.objectContaining({
        path: expect.stringMatching(/^country/),
        message: VALIDATION_MESSAGES.country_invalid,
      }),
    ]);
  });

  it('is for signed-in students only', async () => {
    await expectAccess(
      testApp.app,
      { method: 'GET', url: '/api/v1/catalogue/universities?country=RW' },
      { anonymous: 401, student: 200, staff: 403, admin: 403 },
    );
  });
});
