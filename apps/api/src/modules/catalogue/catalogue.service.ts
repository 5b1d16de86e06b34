import { asc, count, countDistinct, desc, eq } from 'drizzle-orm';
import type { CatalogueSummary, UniversityListing } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { partners } from '../../db/schema/index.ts';

export type PartnerRow = typeof partners.$inferSelect;

const FEATURED_COUNT = 6;

/** The flat columns are nested again in the API's shapes (spec section 3). */
function address(row: Pick<PartnerRow, 'address_street' | 'address_city' | 'address_country' | 'address_postal_code'>) {
  return {
    street: row.address_street,
    city: row.address_city,
    country: row.address_country,
    postal_code: row.address_postal_code,
  };
}

function images(row: Pick<PartnerRow, 'logo_url' | 'gallery_images'>) {
  return { logo_url: row.logo_url, gallery_images: row.gallery_images };
}

/** A partner row as the catalogue shows it. */
export function toListing(row: PartnerRow): UniversityListing {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    institution_type: row.institution_type,
    fields: row.fields,
    region: row.region,
    address: address(row),
    contact: { email: row.contact_email, phone: row.contact_phone, website: row.contact_website },
    images: images(row),
    year_established: row.year_established,
    tuition_usd: row.tuition_usd,
    tuition_range: { min_usd: row.tuition_min_usd, max_usd: row.tuition_max_usd },
    avg_cost_after_aid_usd: row.avg_cost_after_aid_usd,
    graduation_rate: row.graduation_rate,
    acceptance_rate: row.acceptance_rate,
    sat_range: row.sat_min !== null && row.sat_max !== null ? { min: row.sat_min, max: row.sat_max } : null,
    student_faculty_ratio: row.student_faculty_ratio,
    total_enrollment: row.total_enrollment,
    size: row.size,
    setting: row.setting,
    application_deadline: row.application_deadline,
    programs: row.program_levels as UniversityListing['programs'],
    program_count: row.program_count,
    accreditation_body: row.accreditation_body,
    accreditation_number: row.accreditation_number,
    is_demo: row.is_demo,
  };
}

/** What the landing page shows: how many approved partners, in how many countries, and the largest six. */
export async function catalogueSummary(db: Db): Promise<CatalogueSummary> {
  const approved = eq(partners.status, 'approved');
  const [totals] = await db
    .select({ universities: count(), countries: countDistinct(partners.address_country) })
    .from(partners)
    .where(approved);
  const featured = await db
    .select({
      id: partners.id,
      slug: partners.slug,
      name: partners.name,
      institution_type: partners.institution_type,
      address_street: partners.address_street,
      address_city: partners.address_city,
      address_country: partners.address_country,
      address_postal_code: partners.address_postal_code,
      logo_url: partners.logo_url,
      gallery_images: partners.gallery_images,
    })
    .from(partners)
    .where(approved)
    .orderBy(desc(partners.total_enrollment), asc(partners.name))
    .limit(FEATURED_COUNT);

  return {
    universities: totals?.universities ?? 0,
    countries: totals?.countries ?? 0,
    featured: featured.map((row) => ({
      id: row.id,
      slug: row.slug,
      name: row.name,
      institution_type: row.institution_type,
      address: address(row),
      images: images(row),
    })),
  };
}
