import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  CatalogueQuerySchema,
  defaultPartnerSettings,
  UniversityDetailSchema,
  UniversityPageSchema,
} from '@kaminuza/shared';
import { cyclePrograms, cycles, forms, partnerSettings, partners, programs } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { signInAs, type TestAccount } from '../../test/auth.ts';
import { searchUniversities, studentIdOf } from './catalogue.service.ts';

type NewPartner = typeof partners.$inferInsert;
type NewCycle = Omit<typeof cycles.$inferInsert, 'partner_id' | 'name'>;

const DAY = 86_400_000;
const inDays = (days: number, from = Date.now()) => new Date(from + days * DAY).toISOString().slice(0, 10);

function partner(slug: string, application_deadline: string | null): NewPartner {
  return {
    slug,
    name: `${slug} University`,
    status: 'approved',
    published: true,
    address_city: 'Addis Ababa',
    address_country: 'ET',
    institution_type: 'public',
    year_established: 2011,
    region: 'africa',
    size: 'large',
    setting: 'urban',
    application_deadline,
  };
}
let student: TestAccount;
const ids: Record<string, string> = {};

/**
 * Gives the institution a cycle, made its current one unless `current` is false, with a program open in
 * it and (unless `form` is false) a form attached: what staff set up for applicants to apply.
 */
async function admissions(
  slug: string,
  cycle: NewCycle,
  { current = true, form = true, timezone = 'Africa/Addis_Ababa' } = {},
): Promise<void> {
  const partnerId = ids[slug]!;
  const [row] = await testApp.db
    .insert(cycles)
    .values({ partner_id: partnerId, name: `${slug} intake`, ...cycle })
    .returning({ id: cycles.id });
  const [program] = await testApp.db
    .insert(programs)
    .values({
      partner_id: partnerId,
      name: 'Civil Engineering',
      level: 'undergraduate',
      field: 'engineering',
      duration_months: 48,
      language: 'en',
    })
    .returning({ id: programs.id });
  await testApp.db.insert(cyclePrograms).values({ cycle_id: row!.id, program_id: program!.id });
  if (form) {
    await testApp.db
      .insert(forms)
      .values({ partner_id: partnerId, name: 'Application', cycle_id: row!.id, sections: [] });
  }
  const defaults = defaultPartnerSettings();
  await testApp.db
    .insert(partnerSettings)
    .values({
      partner_id: partnerId,
      ...defaults,
      general: { ...defaults.general, timezone, current_cycle_id: current ? row!.id : null },
    })
    .onConflictDoUpdate({
      target: partnerSettings.partner_id,
      set: {
        general: sql`jsonb_set(jsonb_set(${partnerSettings.general}, '{timezone}', to_jsonb(${timezone}::text)), '{current_cycle_id}', ${current ? sql`to_jsonb(${row!.id}::text)` : sql`'null'::jsonb`})`,
      },
    });
}

const testApp = useTestApp();

beforeAll(async () => {
  const rows = await testApp.db
    .insert(partners)
    .values([
      // The listing's deadline has passed, but the current cycle takes applications until later.
      partner('cycle-later', inDays(-20)),
      // Applications on the platform are closed: the listing's future date must not say otherwise.
      partner('cycle-closed', inDays(30)),
      // The current cycle takes applications, but no form is attached: no Apply yet.
      partner('open-no-form', inDays(-3)),
      // An open cycle that staff have not made their current one: the listing still speaks.
      partner('not-current', inDays(40)),
      // No admissions on the platform: the listing's own deadline, past or future.
      partner('listing-future', inDays(50)),
      partner('listing-past', inDays(-20)),
    ])
    .returning({ id: partners.id, slug: partners.slug });
  for (const row of rows) ids[row.slug] = row.id;
  await admissions('cycle-later', { opens_on: inDays(-30), closes_on: inDays(200), status: 'open' });
  await admissions('cycle-closed', { opens_on: inDays(-90), closes_on: inDays(-5), status: 'closed' });
  await admissions('open-no-form', { opens_on: inDays(-1), closes_on: inDays(100), status: 'open' }, { form: false });
  await admissions('not-current', { opens_on: inDays(-1), closes_on: inDays(300), status: 'open' }, { current: false });
  student = await signInAs(testApp.app, 'student');
});

async function search(query: string) {
  const response = await testApp.app.inject({
    url: `/api/v1/catalogue/universities?${query}`,
    headers: student.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return UniversityPageSchema.parse(response.json().data);
}

const slugs = (page: { items: { slug: string }[] }) => page.items.map((item) => item.slug);

describe("the catalogue's deadline comes from the current open cycle", () => {
  it('lists a university whose listing deadline passed under "Still open" with its cycle\'s closing day', async () => {
    const open = await search('deadline=open');
    expect(slugs(open).sort()).toEqual(['cycle-later', 'listing-future', 'not-current', 'open-no-form']);
    expect(open.total).toBe(4);
    const later = open.items.find((item) => item.slug === 'cycle-later')!;
    expect(later.application_deadline).toBe(inDays(200));
    expect(later.accepting_applications).toBe(true);
    expect(open.items.find((item) => item.slug === 'open-no-form')).toMatchObject({
      application_deadline: inDays(100),
      accepting_applications: false,
    });
  });

  it('filters "closing by" and sorts by the same deadline', async () => {
    expect(slugs(await search(`deadline=${inDays(150)}`)).sort()).toEqual([
      'listing-future',
      'not-current',
      'open-no-form',
    ]);
    expect(slugs(await search(`deadline=${inDays(250)}`))).toContain('cycle-later');
    // Past first, then by the closing day; an institution whose own cycle is closed has none and sorts last.
    expect(slugs(await search('sort=deadline'))).toEqual([
      'listing-past',
      'not-current',
      'listing-future',
      'open-no-form',
      'cycle-later',
      'cycle-closed',
    ]);
  });

  it("falls back to the listing's deadline only for institutions without a current cycle", async () => {
    const all = await search('');
    const deadline = (slug: string) => all.items.find((item) => item.slug === slug)!.application_deadline;
    expect(deadline('listing-future')).toBe(inDays(50));
    expect(deadline('listing-past')).toBe(inDays(-20));
    expect(deadline('not-current')).toBe(inDays(40));
    // Its listing says 30 days from now, but its current cycle is closed: no deadline, not "Still open".
    expect(deadline('cycle-closed')).toBeNull();
    expect(slugs(await search('deadline=open'))).not.toContain('cycle-closed');
    expect(all.items.filter((item) => item.accepting_applications).map((item) => item.slug)).toEqual(['cycle-later']);
  });

  it("gives the university's page the same deadline and whether it takes applications", async () => {
    const detail = async (slug: string) => {
      const response = await testApp.app.inject({
        url: `/api/v1/catalogue/universities/${ids[slug]}`,
        headers: student.headers,
      });
      expect(response.statusCode).toBe(200);
      return UniversityDetailSchema.parse(response.json().data);
    };
    expect(await detail('cycle-later')).toMatchObject({
      application_deadline: inDays(200),
      accepting_applications: true,
    });
    expect(await detail('cycle-closed')).toMatchObject({ application_deadline: null, accepting_applications: false });
    expect(await detail('listing-future')).toMatchObject({
      application_deadline: inDays(50),
      accepting_applications: false,
    });
  });

  it("decides whether the cycle is open on the institution's own calendar day", async () => {
    // 12:00 UTC is already the next day at UTC+14: a cycle opening that day is open there, not in UTC.
    const now = new Date(`${inDays(10)}T12:00:00Z`);
    const tomorrow = inDays(1, now.getTime());
    const [east, west] = await testApp.db
      .insert(partners)
      .values([partner('kiritimati', null), partner('utc', null)])
      .returning({ id: partners.id, slug: partners.slug });
    ids.kiritimati = east!.id;
    ids.utc = west!.id;
    await admissions(
      'kiritimati',
      { opens_on: tomorrow, closes_on: inDays(60), status: 'open' },
      {
        timezone: 'Pacific/Kiritimati',
      },
    );
    await admissions('utc', { opens_on: tomorrow, closes_on: inDays(60), status: 'open' }, { timezone: 'UTC' });
    const studentId = await studentIdOf(testApp.db, student.id);
    const open = await searchUniversities(testApp.db, studentId, CatalogueQuerySchema.parse({ deadline: 'open' }), now);
    expect(open.items.map((item) => item.slug)).toContain('kiritimati');
    expect(open.items.map((item) => item.slug)).not.toContain('utc');
  });
});
