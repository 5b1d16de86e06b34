import { beforeAll, describe, expect, it } from 'vitest';
import { partners } from '../../db/schema/index.ts';
import { useTestApp } from '../../test/app.ts';
import { toListing } from './catalogue.service.ts';
import { UniversityListingSchema } from '@kaminuza/shared';

type NewPartner = typeof partners.$inferInsert;

function partner(overrides: Partial<NewPartner> & Pick<NewPartner, 'slug'>): NewPartner {
  return {
    name: overrides.slug,
    status: 'approved',
    published: true,
    address_city: 'Kigali',
    address_country: 'RW',
    institution_type: 'public',
    year_established: 1963,
    region: 'africa',
    size: 'large',
    setting: 'urban',
    application_deadline: '2026-06-30',
    ...overrides,
  };
}

const testApp = useTestApp();

beforeAll(async () => {
  await testApp.db.insert(partners).values([
    partner({ slug: 'a', name: 'Alpha University', total_enrollment: 100, address_country: 'RW' }),
    partner({ slug: 'b', name: 'Beta University', total_enrollment: 900, address_country: 'KE', logo_url: '/b.png' }),
    partner({ slug: 'c', name: 'Gamma College', total_enrollment: 500, address_country: 'KE' }),
    partner({ slug: 'd', name: 'Delta Institute', total_enrollment: 500, address_country: 'GH' }),
    partner({ slug: 'e', name: 'Epsilon', total_enrollment: 50, address_country: 'NG' }),
    partner({ slug: 'f', name: 'Zeta', total_enrollment: 40, address_country: 'NG' }),
    partner({ slug: 'g', name: 'Eta', total_enrollment: 30, address_country: 'NG' }),
    // Not listed: awaiting approval or no longer active.
    partner({ slug: 'p', name: 'Pending U', status: 'pending', total_enrollment: 99_999, address_country: 'ZA' }),
    partner({ slug: 's', name: 'Suspended U', status: 'suspended', total_enrollment: 99_999, address_country: 'EG' }),
    partner({ slug: 'u', name: 'Unpublished U', published: false, total_enrollment: 99_999, address_country: 'MA' }),
  ]);
});

describe('GET /api/v1/catalogue/summary', () => {
  it('counts approved and published partners and their countries, and features the six largest', async () => {
    const response = await testApp.app.inject({ url: '/api/v1/catalogue/summary' });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.universities).toBe(7);
    expect(data.countries).toBe(4);
    // Enrollment descending, ties by name.
    expect(data.featured.map((u: { slug: string }) => u.slug)).toEqual(['b', 'd', 'c', 'a', 'e', 'f']);
    expect(data.featured[0]).toEqual({
      id: expect.any(String),
      slug: 'b',
      name: 'Beta University',
      institution_type: 'public',
      address: { street: null, city: 'Kigali', country: 'KE', postal_code: null },
      images: { logo_url: '/b.png', gallery_images: [] },
    });
  });
});

describe('toListing', () => {
  it('nests the flat columns into a valid UniversityListing', async () => {
    const [row] = await testApp.db
      .insert(partners)
      .values(
        partner({
          slug: 'full',
          contact_email: 'admissions@full.example',
          contact_website: 'https://full.example',
          sat_min: 1100,
          sat_max: 1400,
          program_levels: ['undergraduate', 'graduate'],
          fields: ['engineering', 'law'],
          tuition_min_usd: 1000,
          tuition_max_usd: 4000,
          student_faculty_ratio: 12.5,
          graduation_rate: 87.3,
        }),
      )
      .returning();
    const listing = toListing(row!);
    expect(UniversityListingSchema.parse(listing)).toEqual(listing);
    expect(listing.contact).toEqual({
      email: 'admissions@full.example',
      phone: null,
      website: 'https://full.example',
    });
    expect(listing.sat_range).toEqual({ min: 1100, max: 1400 });
    expect(listing.tuition_range).toEqual({ min_usd: 1000, max_usd: 4000 });
    expect(listing.programs).toEqual(['undergraduate', 'graduate']);
    expect(listing.graduation_rate).toBe(87.3);
  });
});
