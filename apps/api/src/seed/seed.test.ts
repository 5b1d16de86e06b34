import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  CAMPUS_SETTINGS,
  INSTITUTION_SIZES,
  INSTITUTION_TYPES,
  PartnerStatusSchema,
  PROGRAM_LEVELS,
  REGIONS,
  STUDY_FIELDS,
  UniversityListingSchema,
} from '@kaminuza/shared';
import type { Database } from '../db/client.ts';
import { partnerSettings, partners } from '../db/schema/partners.ts';
import { createTestDatabase } from '../test/database.ts';
import { toListing } from '../modules/catalogue/catalogue.service.ts';
import { generateUniversities } from './generate.ts';
import { seedDemoData, seedGenerated, seedIfEmpty } from './index.ts';
import { sizeForEnrollment } from './reference.ts';
import { DEMO_UNIVERSITIES, type SeedUniversity } from './universities.data.ts';

const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';

/** The API's nested listing shape, built by the catalogue's own mapper. */
function asListing(row: SeedUniversity & { id?: string }) {
  return toListing({
    ...row,
    id: row.id ?? PLACEHOLDER_ID,
    reviewed_at: null,
    reviewed_by: null,
    review_reason: null,
    search_vector: null,
    created_at: '',
    updated_at: '',
  });
}

/** Rules beyond the schema's types that every seeded or generated row keeps. */
function expectConsistent(row: SeedUniversity): void {
  const where = `${row.slug}`;
  expect(UniversityListingSchema.safeParse(asListing(row)).error, where).toBeUndefined();
  expect(PartnerStatusSchema.safeParse(row.status).success, where).toBe(true);
  expect(row.slug, where).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  expect(row.is_demo, where).toBe(true);
  expect(row.type, where).toBe('university');
  expect(row.size, where).toBe(sizeForEnrollment(row.total_enrollment));
  expect(row.tuition_min_usd, where).toBeLessThanOrEqual(row.tuition_usd);
  expect(row.tuition_usd, where).toBeLessThanOrEqual(row.tuition_max_usd);
  expect(row.avg_cost_after_aid_usd, where).toBeGreaterThan(0);
  // After-aid cost covers tuition and living, so it stays below full tuition plus a generous living budget.
  expect(row.avg_cost_after_aid_usd, where).toBeLessThan(row.tuition_usd + 20_000);
  expect((row.sat_min === null) === (row.sat_max === null), where).toBe(true);
  if (row.sat_min !== null && row.sat_max !== null) expect(row.sat_min, where).toBeLessThanOrEqual(row.sat_max);
  expect(row.fields.length, where).toBeGreaterThanOrEqual(1);
  expect(row.fields.length, where).toBeLessThanOrEqual(6);
  expect(new Set(row.fields).size, where).toBe(row.fields.length);
  expect(row.program_levels.length, where).toBeGreaterThanOrEqual(1);
  expect(new Set(row.program_levels).size, where).toBe(row.program_levels.length);
  expect(row.application_deadline, where).toMatch(/^202[67]-/);
  expect(row.year_established, where).toBeGreaterThanOrEqual(1500);
  expect(row.year_established, where).toBeLessThanOrEqual(2025);
  expect(row.student_faculty_ratio, where).toBeGreaterThan(0);
  expect(row.program_count, where).toBeGreaterThan(0);
  expect(row.accreditation_number, where).toMatch(/^DEMO-/);
  expect(row.description, where).toMatch(/demo listing/i);
}

const NAMED_AFRICAN = ['RW', 'KE', 'NG', 'GH', 'ZA', 'UG', 'TZ', 'ET', 'MA', 'EG', 'SN'];

describe('curated demo catalogue', () => {
  it('passes the shared listing vocabularies and the consistency rules', () => {
    expect(DEMO_UNIVERSITIES.length).toBeGreaterThanOrEqual(64);
    for (const row of DEMO_UNIVERSITIES) expectConsistent(row);
  });

  it('has unique slugs and names', () => {
    expect(new Set(DEMO_UNIVERSITIES.map((u) => u.slug)).size).toBe(DEMO_UNIVERSITIES.length);
    expect(new Set(DEMO_UNIVERSITIES.map((u) => u.name)).size).toBe(DEMO_UNIVERSITIES.length);
  });

  it('spans Africa widely, with a set of international institutions', () => {
    const african = new Set(DEMO_UNIVERSITIES.filter((u) => u.region === 'africa').map((u) => u.address_country));
    expect(african.size).toBeGreaterThanOrEqual(11);
    for (const code of NAMED_AFRICAN) expect(african, code).toContain(code);
    expect(DEMO_UNIVERSITIES.filter((u) => u.region !== 'africa').length).toBeGreaterThanOrEqual(8);
  });

  it('uses every type, region, size, setting and programme level, and each field', () => {
    const seen = (pick: (u: SeedUniversity) => readonly string[] | string) =>
      new Set(DEMO_UNIVERSITIES.flatMap((u) => pick(u)));
    expect(seen((u) => u.institution_type)).toEqual(new Set(INSTITUTION_TYPES));
    expect(seen((u) => u.region)).toEqual(new Set(REGIONS));
    expect(seen((u) => u.size)).toEqual(new Set(INSTITUTION_SIZES));
    expect(seen((u) => u.setting)).toEqual(new Set(CAMPUS_SETTINGS));
    expect(seen((u) => u.program_levels)).toEqual(new Set(PROGRAM_LEVELS));
    expect(seen((u) => u.fields)).toEqual(new Set(STUDY_FIELDS));
  });

  it('leaves two pending and one rejected listing for the admin screens to vet', () => {
    const withStatus = (status: string) => DEMO_UNIVERSITIES.filter((u) => u.status === status).length;
    expect(withStatus('pending')).toBe(2);
    expect(withStatus('rejected')).toBe(1);
    expect(withStatus('approved')).toBe(DEMO_UNIVERSITIES.length - 3);
  });
});

describe('generateUniversities', () => {
  it('makes 10,000 consistent institutions with unique slugs', () => {
    const rows = generateUniversities(10_000);
    expect(rows).toHaveLength(10_000);
    expect(new Set(rows.map((u) => u.slug)).size).toBe(10_000);
    for (const row of rows) expectConsistent(row);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    expect(generateUniversities(500, 7)).toEqual(generateUniversities(500, 7));
    expect(generateUniversities(50, 1)).toEqual(generateUniversities(50));
    expect(generateUniversities(50, 8).map((u) => u.name)).not.toEqual(generateUniversities(50, 7).map((u) => u.name));
  });

  it('varies across every vocabulary and many countries', () => {
    const rows = generateUniversities(2_000, 3);
    const seen = (pick: (u: SeedUniversity) => readonly string[] | string) => new Set(rows.flatMap((u) => pick(u)));
    expect(seen((u) => u.institution_type)).toEqual(new Set(INSTITUTION_TYPES));
    expect(seen((u) => u.fields)).toEqual(new Set(STUDY_FIELDS));
    expect(seen((u) => u.region)).toEqual(new Set(REGIONS));
    expect(seen((u) => u.size)).toEqual(new Set(INSTITUTION_SIZES));
    expect(seen((u) => u.setting)).toEqual(new Set(CAMPUS_SETTINGS));
    expect(seen((u) => u.program_levels)).toEqual(new Set(PROGRAM_LEVELS));
    expect(seen((u) => u.address_country).size).toBeGreaterThanOrEqual(30);
  });

  it('never reuses a curated slug', () => {
    const curated = new Set(DEMO_UNIVERSITIES.map((u) => u.slug));
    expect(generateUniversities(10_000).filter((u) => curated.has(u.slug))).toEqual([]);
  });
});

describe('seeding a database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  const partnerCount = () => database.db.$count(partners);

  it('seedIfEmpty fills an empty database once, then does nothing', async () => {
    const first = await seedIfEmpty(database.db);
    expect(first).toEqual({ seeded: true, universities: DEMO_UNIVERSITIES.length });
    expect(first.universities).toBeGreaterThanOrEqual(60);
    expect(await partnerCount()).toBe(DEMO_UNIVERSITIES.length);
    // Each institution has its settings row with the spec's defaults, as sign-up gives one.
    const settings = await database.db.select().from(partnerSettings);
    expect(settings).toHaveLength(DEMO_UNIVERSITIES.length);
    expect(settings[0]?.admissions).toMatchObject({ application_fee: 100, auto_accept_threshold: 90 });

    expect(await seedIfEmpty(database.db)).toEqual({ seeded: false, universities: 0 });
    expect(await partnerCount()).toBe(DEMO_UNIVERSITIES.length);
  });

  it('stores rows that read back as valid listings', async () => {
    const rows = await database.db.select().from(partners);
    for (const row of rows) {
      expect(UniversityListingSchema.safeParse(asListing(row)).error, row.slug).toBeUndefined();
      expect(row.created_at).toBeTruthy();
    }
  });

  it('seedDemoData is idempotent', async () => {
    expect(await seedDemoData(database.db)).toEqual({ universities: DEMO_UNIVERSITIES.length });
    expect(await seedDemoData(database.db)).toEqual({ universities: DEMO_UNIVERSITIES.length });
    expect(await partnerCount()).toBe(DEMO_UNIVERSITIES.length);
  });

  it('seedDemoData restores edited listing fields but keeps vetting decisions', async () => {
    const target = DEMO_UNIVERSITIES[0]!;
    await database.db
      .update(partners)
      .set({ name: 'Edited', tuition_usd: 1, status: 'suspended' })
      .where(eq(partners.slug, target.slug));
    await seedDemoData(database.db);
    const [row] = await database.db.select().from(partners).where(eq(partners.slug, target.slug));
    expect(row).toMatchObject({ name: target.name, tuition_usd: target.tuition_usd, status: 'suspended' });
  });

  it('seedDemoData never overwrites a real institution holding a demo slug', async () => {
    const target = DEMO_UNIVERSITIES[1]!;
    await database.db
      .update(partners)
      .set({ name: 'Real Institution', is_demo: false })
      .where(eq(partners.slug, target.slug));
    const result = await seedDemoData(database.db);
    expect(result.universities).toBe(DEMO_UNIVERSITIES.length - 1);
    const [row] = await database.db.select().from(partners).where(eq(partners.slug, target.slug));
    expect(row).toMatchObject({ name: 'Real Institution', is_demo: false });
  });

  it('seedGenerated adds institutions in batches and skips ones already there', async () => {
    const before = await partnerCount();
    expect(await seedGenerated(database.db, 1_203)).toEqual({ universities: 1_203 });
    expect(await partnerCount()).toBe(before + 1_203);
    expect(await seedGenerated(database.db, 1_203)).toEqual({ universities: 0 });
    expect(await partnerCount()).toBe(before + 1_203);
  });
});
