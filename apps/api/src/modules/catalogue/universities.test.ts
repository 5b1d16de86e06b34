import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  defaultPartnerSettings,
  SIMILAR_NAMES_MAX,
  UniversityDetailSchema,
  UniversityPageSchema,
} from '@kaminuza/shared';
import { partnerSettings, partners } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { expectAccess, signInAs, type TestAccount } from '../../test/auth.ts';

type NewPartner = typeof partners.$inferInsert;

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

function partner(overrides: Partial<NewPartner> & Pick<NewPartner, 'slug' | 'name'>): NewPartner {
  return {
    status: 'approved',
    published: true,
    address_city: 'Kigali',
    address_country: 'RW',
    institution_type: 'public',
    year_established: 1963,
    region: 'africa',
    size: 'large',
    setting: 'urban',
    fields: ['technology'],
    tuition_usd: 2000,
    application_deadline: inDays(60),
    ...overrides,
  };
}
let student: TestAccount;
const ids: Record<string, string> = {};

const testApp = useTestApp();

beforeAll(async () => {
  const rows = await testApp.db
    .insert(partners)
    .values([
      partner({
        slug: 'montreal',
        name: 'Université de Montréal',
        address_city: 'Montréal',
        address_country: 'CA',
        region: 'north_america',
        institution_type: 'public',
        size: 'large',
        setting: 'urban',
        fields: ['medicine', 'law'],
        tuition_usd: 9000,
        application_deadline: inDays(20),
      }),
      partner({
        slug: 'kigali',
        name: 'University of Kigali',
        institution_type: 'private',
        size: 'medium',
        setting: 'urban',
        fields: ['business', 'technology'],
        tuition_usd: 1500,
        application_deadline: inDays(100),
      }),
      partner({
        slug: 'nairobi',
        name: 'Nairobi Institute of Technology',
        address_city: 'Nairobi',
        address_country: 'KE',
        institution_type: 'private',
        size: 'small',
        setting: 'suburban',
        fields: ['technology', 'engineering'],
        tuition_usd: 4000,
        application_deadline: inDays(-10),
      }),
      partner({
        slug: 'lyon',
        name: 'École Normale de Lyon',
        address_city: 'Lyon',
        address_country: 'FR',
        region: 'europe',
        institution_type: 'international',
        size: 'small',
        setting: 'rural',
        fields: ['education'],
        tuition_usd: 12000,
        application_deadline: null,
      }),
      partner({
        slug: 'online',
        name: 'Savanna Open University',
        institution_type: 'online',
        size: 'large',
        setting: 'rural',
        fields: ['business'],
        tuition_usd: 500,
        application_deadline: inDays(5),
      }),
      // Never shown to students.
      partner({ slug: 'pending', name: 'Pending University of Kigali', status: 'pending' }),
      partner({ slug: 'rejected', name: 'Rejected University of Kigali', status: 'rejected' }),
      partner({ slug: 'suspended', name: 'Suspended University of Kigali', status: 'suspended' }),
      partner({ slug: 'unpublished', name: 'Unpublished University of Kigali', published: false }),
    ])
    .returning({ id: partners.id, slug: partners.slug });
  for (const row of rows) ids[row.slug] = row.id;
  await testApp.db.insert(partnerSettings).values({
    partner_id: ids.kigali!,
    general: {},
    theme: {},
    admissions: { application_fee: 100, application_fee_currency: 'USD' },
  });
  student = await signInAs(testApp.app, 'student');
});

async function search(query: string, account: TestAccount = student) {
  const response = await testApp.app.inject({
    url: `/api/v1/catalogue/universities?${query}`,
    headers: account.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  const { data } = response.json();
  return UniversityPageSchema.parse(data);
}

const slugs = (page: { items: { slug: string }[] }) => page.items.map((item) => item.slug);
/** Order-free comparison where the order depends on the collation of accented names. */
const set = (page: { items: { slug: string }[] }) => slugs(page).sort();

describe('GET /api/v1/catalogue/universities', () => {
  it('lists only approved and published institutions, in name order', async () => {
    const page = await search('');
    expect(page.total).toBe(5);
    expect(set(page)).toEqual(['kigali', 'lyon', 'montreal', 'nairobi', 'online']);
    const ascii = slugs(page).filter((slug) => !['lyon', 'montreal'].includes(slug));
    expect(ascii).toEqual(['nairobi', 'online', 'kigali']);
    expect(page).toMatchObject({ page: 1, page_size: 20 });
    expect(page.items.find((item) => item.slug === 'kigali')).toMatchObject({
      name: 'University of Kigali',
      institution_type: 'private',
      address: { city: 'Kigali', country: 'RW' },
      tuition_usd: 1500,
      saved: false,
    });
  });

  it('searches names with and without accents, by prefix and with a typo', async () => {
    expect(slugs(await search('q=Universit%C3%A9%20de%20Montr%C3%A9al'))).toEqual(['montreal']);
    expect(slugs(await search('q=universite%20montreal'))).toEqual(['montreal']);
    expect(slugs(await search('q=ecole%20normale'))).toEqual(['lyon']);
    expect(slugs(await search('q=nair'))).toEqual(['nairobi']);
    // A misspelt word still finds the name by trigram similarity.
    // A misspelt city finds the institutions in that city too (Savanna Open University is in Kigali).
    expect(set(await search('q=Kigaly'))).toEqual(['kigali', 'online']);
    expect(slugs(await search('q=Nairobbi%20Institute'))).toEqual(['nairobi']);
    expect((await search('q=zzzzqqq')).total).toBe(0);
  });

  it('never finds unlisted institutions by search', async () => {
    // The Savanna Open University is in Kigali: the city is part of the searched text.
    const page = await search('q=Kigali');
    expect(set(page)).toEqual(['kigali', 'online']);
    expect(page.total).toBe(2);
    expect(slugs(page)[0]).toBe('kigali');
  });

  it('matches whole words first and falls back to similar names only when no word matches', async () => {
    expect(set(await search('q=university'))).toEqual(['kigali', 'online']);
    // The French word matches the Université only, not every "University" by similarity.
    expect(slugs(await search('q=universite'))).toEqual(['montreal']);
    const fuzzy = await search('q=univrsity');
    expect(set(fuzzy)).toEqual(expect.arrayContaining(['kigali', 'online']));
    expect(fuzzy.total).toBe(fuzzy.items.length);
    // Paging through similar names keeps the total, past the last page too.
    const firstFuzzy = await search('q=univrsity&page_size=1');
    expect(firstFuzzy.items).toHaveLength(1);
    expect(firstFuzzy.total).toBe(fuzzy.total);
    expect((await search('q=univrsity&page_size=1&page=9')).total).toBe(fuzzy.total);
  });

  it('applies each filter, multi-valued filters as any-of', async () => {
    expect(set(await search('type=private'))).toEqual(['kigali', 'nairobi']);
    expect(set(await search('type=private&type=online'))).toEqual(['kigali', 'nairobi', 'online']);
    expect(set(await search('type=private,online'))).toEqual(['kigali', 'nairobi', 'online']);
    expect(set(await search('field=technology'))).toEqual(['kigali', 'nairobi']);
    expect(set(await search('field=law&field=education'))).toEqual(['lyon', 'montreal']);
    expect(set(await search('region=europe'))).toEqual(['lyon']);
    expect(set(await search('region=africa&region=north_america')).length).toBe(4);
    expect(set(await search('size=small'))).toEqual(['lyon', 'nairobi']);
    expect(set(await search('setting=rural'))).toEqual(['lyon', 'online']);
    expect(set(await search('tuition_min=4000'))).toEqual(['lyon', 'montreal', 'nairobi']);
    expect(set(await search('tuition_max=1500'))).toEqual(['kigali', 'online']);
    expect(set(await search('tuition_min=1500&tuition_max=9000'))).toEqual(['kigali', 'montreal', 'nairobi']);
  });

  it('filters by deadline: still open, or closing by a date', async () => {
    expect(set(await search('deadline=open'))).toEqual(['kigali', 'montreal', 'online']);
    expect(set(await search(`deadline=${inDays(30)}`))).toEqual(['montreal', 'online']);
    expect(set(await search(`deadline=${inDays(1)}`))).toEqual([]);
  });

  it('combines filters and search with correct totals', async () => {
    const page = await search('type=private&field=technology&size=medium');
    expect(set(page)).toEqual(['kigali']);
    expect(page.total).toBe(1);
    const combined = await search('q=university&region=africa&deadline=open&sort=name');
    expect(set(combined)).toEqual(['kigali', 'online']);
    expect(combined.total).toBe(2);
  });

  it('sorts by tuition and by deadline', async () => {
    expect(slugs(await search('sort=tuition'))).toEqual(['online', 'kigali', 'nairobi', 'montreal', 'lyon']);
    // No deadline sorts last.
    expect(slugs(await search('sort=deadline'))).toEqual(['nairobi', 'online', 'montreal', 'kigali', 'lyon']);
  });

  it('pages with a total across pages', async () => {
    const first = await search('page_size=2');
    const second = await search('page_size=2&page=2');
    const third = await search('page_size=2&page=3');
    const beyond = await search('page_size=2&page=9');
    expect([first, second, third, beyond].map((p) => p.total)).toEqual([5, 5, 5, 5]);
    expect([...slugs(first), ...slugs(second), ...slugs(third)]).toEqual(slugs(await search('')));
    expect(beyond.items).toEqual([]);
    expect(beyond).toMatchObject({ page: 9, page_size: 2 });
  });

  it.each([
    ['page_size=51', 'page_size'],
    ['page_size=0', 'page_size'],
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['type=castle', 'type'],
    ['field=astrology', 'field'],
    ['region=antarctica', 'region'],
    ['size=huge', 'size'],
    ['setting=underwater', 'setting'],
    ['tuition_min=-1', 'tuition_min'],
    ['tuition_max=1.5', 'tuition_max'],
    ['tuition_min=5000&tuition_max=100', 'tuition_min'],
    ['deadline=soon', 'deadline'],
    ['deadline=2026-13-40', 'deadline'],
    ['saved=yes', 'saved'],
    ['sort=random', 'sort'],
    [`q=${'a'.repeat(101)}`, 'q'],
  ])('rejects %s with 400 INVALID_ARGUMENT naming the parameter', async (query, field) => {
    const response = await testApp.app.inject({
      url: `/api/v1/catalogue/universities?${query}`,
      headers: student.headers,
    });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.status).toBe('INVALID_ARGUMENT');
    expect(error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining(field) })]),
    );
    expect(error.details[0].message).toMatch(/:/);
  });

  it('is for signed-in students only', async () => {
    await expectAccess(
      testApp.app,
      { method: 'GET', url: '/api/v1/catalogue/universities' },
      { anonymous: 401, student: 200, staff: 403, admin: 403 },
    );
  });
});

describe('GET /api/v1/catalogue/universities/:partnerId', () => {
  it('answers the full listing with the saved flag and application fee', async () => {
    const response = await testApp.app.inject({
      url: `/api/v1/catalogue/universities/${ids.kigali}`,
      headers: student.headers,
    });
    expect(response.statusCode).toBe(200);
    const detail = UniversityDetailSchema.parse(response.json().data);
    expect(detail).toMatchObject({
      id: ids.kigali,
      name: 'University of Kigali',
      saved: false,
      application_fee: { amount: 100, currency: 'USD' },
      fields: ['business', 'technology'],
    });
    const other = await testApp.app.inject({
      url: `/api/v1/catalogue/universities/${ids.lyon}`,
      headers: student.headers,
    });
    expect(other.json().data.application_fee).toBeNull();
  });

  it("answers the institution's own theme, and none while it keeps the default one", async () => {
    const detail = async (id: string) =>
      UniversityDetailSchema.parse(
        (await testApp.app.inject({ url: `/api/v1/catalogue/universities/${id}`, headers: student.headers })).json()
          .data,
      );
    // Kigali's stored theme is empty (not a theme), Lyon has no settings row: neither is themed.
    expect((await detail(ids.kigali!)).theme).toBeNull();
    expect((await detail(ids.lyon!)).theme).toBeNull();

    const defaults = defaultPartnerSettings();
    const theme = { ...defaults.theme, colors: { ...defaults.theme.colors, primary: '#7c2d12' } };
    await testApp.db
      .insert(partnerSettings)
      .values({ partner_id: ids.lyon!, ...defaults })
      .onConflictDoUpdate({ target: partnerSettings.partner_id, set: { theme: defaults.theme } });
    expect((await detail(ids.lyon!)).theme).toBeNull();
    await testApp.db.update(partnerSettings).set({ theme }).where(eq(partnerSettings.partner_id, ids.lyon!));
    expect((await detail(ids.lyon!)).theme).toEqual(theme);
    await testApp.db.delete(partnerSettings).where(eq(partnerSettings.partner_id, ids.lyon!));
  });

  it.each(['pending', 'rejected', 'suspended', 'unpublished'])('answers 404 for a %s institution', async (slug) => {
    const response = await testApp.app.inject({
      url: `/api/v1/catalogue/universities/${ids[slug]}`,
      headers: student.headers,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.status).toBe('NOT_FOUND');
  });

  it.each(['00000000-0000-4000-8000-000000000000', 'not-an-id'])('answers 404 for unknown id %s', async (id) => {
    const response = await testApp.app.inject({
      url: `/api/v1/catalogue/universities/${id}`,
      headers: student.headers,
    });
    expect(response.statusCode).toBe(404);
  });

  it('is for signed-in students only', async () => {
    await expectAccess(
      testApp.app,
      { method: 'GET', url: `/api/v1/catalogue/universities/${ids.kigali}` },
      { anonymous: 401, student: 200, staff: 403, admin: 403 },
    );
  });
});

describe('the student list: PUT/DELETE /api/v1/students/me/saved-universities/:partnerId', () => {
  const url = (id: string) => `/api/v1/students/me/saved-universities/${id}`;

  it('adds and removes idempotently, reflected in search, saved=true and details', async () => {
    const me = await signInAs(testApp.app, 'student');
    const other = await signInAs(testApp.app, 'student');
    for (let i = 0; i < 2; i++) {
      const response = await testApp.app.inject({ method: 'PUT', url: url(ids.kigali!), headers: me.headers });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({ partner_id: ids.kigali, saved: true });
    }
    await testApp.app.inject({ method: 'PUT', url: url(ids.lyon!), headers: me.headers });

    const mine = await search('saved=true', me);
    expect(set(mine)).toEqual(['kigali', 'lyon']);
    expect(mine.total).toBe(2);
    expect(mine.items.every((item) => item.saved)).toBe(true);
    const all = await search('', me);
    expect(
      all.items
        .filter((item) => item.saved)
        .map((item) => item.slug)
        .sort(),
    ).toEqual(['kigali', 'lyon']);
    expect(slugs(await search('saved=true&type=private', me))).toEqual(['kigali']);
    const detail = await testApp.app.inject({
      url: `/api/v1/catalogue/universities/${ids.kigali}`,
      headers: me.headers,
    });
    expect(detail.json().data.saved).toBe(true);

    // Another student's list is their own.
    expect((await search('saved=true', other)).total).toBe(0);
    expect((await search('', other)).items.some((item) => item.saved)).toBe(false);

    for (let i = 0; i < 2; i++) {
      const response = await testApp.app.inject({ method: 'DELETE', url: url(ids.kigali!), headers: me.headers });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({ partner_id: ids.kigali, saved: false });
    }
    expect(slugs(await search('saved=true', me))).toEqual(['lyon']);
    expect(slugs(await search('saved=false', me)).length).toBe(5);
  });

  it.each(['pending', 'rejected', 'unpublished'])('answers 404 for a %s institution', async (slug) => {
    for (const method of ['PUT', 'DELETE'] as const) {
      const response = await testApp.app.inject({ method, url: url(ids[slug]!), headers: student.headers });
      expect(response.statusCode).toBe(404);
    }
  });

  it('answers 404 for an unknown id', async () => {
    const response = await testApp.app.inject({ method: 'PUT', url: url('nope'), headers: student.headers });
    expect(response.statusCode).toBe(404);
  });

  it('is for signed-in students only', async () => {
    for (const method of ['PUT', 'DELETE'] as const) {
      await expectAccess(
        testApp.app,
        { method, url: url(ids.online!) },
        { anonymous: 401, student: 200, staff: 403, admin: 403 },
      );
    }
  });
});

// Last: it adds institutions the totals above do not expect.
describe('similar names', () => {
  it(`answer at most ${SIMILAR_NAMES_MAX}, closest first, with a total to match`, async () => {
    await testApp.db
      .insert(partners)
      .values(
        Array.from({ length: SIMILAR_NAMES_MAX + 10 }, (_, i) =>
          partner({ slug: `poly-${i}`, name: `Zambezi Polytechnic ${String(i).padStart(2, '0')}` }),
        ),
      );
    expect((await search('q=polytechnic')).total).toBe(SIMILAR_NAMES_MAX + 10);
    const similar = await search('q=politechnic&page_size=50');
    expect(similar.total).toBe(SIMILAR_NAMES_MAX);
    expect(similar.items).toHaveLength(SIMILAR_NAMES_MAX);
    expect(similar.items.every((item) => item.name.startsWith('Zambezi Polytechnic'))).toBe(true);
    expect((await search('q=politechnic&page_size=20&page=3')).items).toHaveLength(10);
  });
});
