import { and, asc, count, countDistinct, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import {
  DEADLINE_OPEN,
  SIMILAR_NAMES_MAX,
  type CatalogueQuery,
  type CatalogueSummary,
  type UniversityDetail,
  type UniversityListing,
  type UniversityPage,
  customTheme,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { partnerSettings, partners, savedPartners, students } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';

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
export function toListing(row: Omit<PartnerRow, 'search_name'>): UniversityListing {
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
  const approved = listed();
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

/** Students only ever see institutions an admin approved and their staff published. */
export function listed(): SQL {
  return and(eq(partners.status, 'approved'), eq(partners.published, true))!;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The student record of a signed-in student user. */
export async function studentIdOf(db: Db, userId: string): Promise<string> {
  const [student] = await db.select({ id: students.id }).from(students).where(eq(students.user_id, userId)).limit(1);
  if (!student) throw new AppError('NOT_FOUND');
  return student.id;
}

function savedBy(studentId: string): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${savedPartners} where ${savedPartners.student_id} = ${studentId} and ${savedPartners.partner_id} = ${partners.id})`;
}

/**
 * Type-ahead prefix query: every word of the search, accent-folded, as a prefix (`kig:* & univ:*`).
 * Only letters and digits survive, so the text can never be read as tsquery syntax.
 */
function prefixQuery(q: string): SQL | null {
  const words = q
    .normalize('NFC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
  if (words.length === 0) return null;
  const text = words.map((w) => `${w}:*`).join(' & ');
  return sql`to_tsquery('simple', f_unaccent(lower(${text})))`;
}

/** Date as YYYY-MM-DD in UTC. */
function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * One page of listed universities matching the query, for one student. The search is PostgreSQL's,
 * in two steps: the full-text column (accent-folded words as prefixes, GIN index), ranked by
 * ts_rank; when that finds nothing, the names most similar to the search, accent-folded and
 * typo-tolerant (word similarity `<%`, at most SIMILAR_NAMES_MAX of them, closest first from the
 * trigram GiST index so the scan stops early). Exact words thus never drown in fuzzy matches, and a
 * misspelt common word costs a few index pages, not a similarity for every name that shares it.
 */
export async function searchUniversities(
  db: Db,
  studentId: string,
  query: CatalogueQuery,
  now: Date = new Date(),
): Promise<UniversityPage> {
  const filters: SQL[] = [listed()];
  if (query.type?.length) filters.push(inArray(partners.institution_type, query.type));
  if (query.field?.length) filters.push(sql`${partners.fields} && ${sql.param(query.field)}::text[]`);
  if (query.region?.length) filters.push(inArray(partners.region, query.region));
  if (query.size?.length) filters.push(inArray(partners.size, query.size));
  if (query.setting?.length) filters.push(inArray(partners.setting, query.setting));
  if (query.tuition_min !== undefined) filters.push(gte(partners.tuition_usd, query.tuition_min));
  if (query.tuition_max !== undefined) filters.push(lte(partners.tuition_usd, query.tuition_max));
  if (query.deadline) {
    filters.push(gte(partners.application_deadline, isoDay(now)));
    if (query.deadline !== DEADLINE_OPEN) filters.push(lte(partners.application_deadline, query.deadline));
  }
  if (query.saved) filters.push(savedBy(studentId));

  const page = (match: SQL | null, rank: SQL | null) => {
    const sort = query.sort ?? (rank ? 'relevance' : 'name');
    const order: SQL[] =
      sort === 'relevance' && rank
        ? [sql`${rank} desc`]
        : sort === 'tuition'
          ? [sql`${partners.tuition_usd} asc`]
          : sort === 'deadline'
            ? [sql`${partners.application_deadline} asc nulls last`]
            : [];
    // Name then id keeps pages stable when names repeat.
    order.push(sql`${partners.name} asc`, sql`${partners.id} asc`);
    return listPage(db, studentId, and(...filters, ...(match ? [match] : []))!, order, query);
  };

  if (!query.q) return page(null, null);
  const tsq = prefixQuery(query.q);
  if (tsq) {
    const found = await page(sql`${partners.search_vector} @@ ${tsq}`, sql`ts_rank(${partners.search_vector}, ${tsq})`);
    if (found.total > 0) return found;
  }
  const needle = sql`f_unaccent(lower(${query.q}))`;
  const closest = db
    .select({ id: partners.id })
    .from(partners)
    .where(and(...filters, sql`${needle} <% ${partners.search_name}`))
    .orderBy(sql`${partners.search_name} <->> ${needle}`)
    .limit(SIMILAR_NAMES_MAX);
  return page(inArray(partners.id, closest), sql`word_similarity(${needle}, ${partners.search_name})`);
}

/**
 * The page and the total, as two queries run side by side: the page stops after its rows (an ordered
 * index scan when browsing by name), the total reads only the filter columns when it can (a covering
 * partial index), and neither materialises the whole result as a window count would.
 */
async function listPage(
  db: Db,
  studentId: string,
  where: SQL,
  order: SQL[],
  query: Pick<CatalogueQuery, 'page' | 'page_size'>,
): Promise<UniversityPage> {
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: partners.id,
        slug: partners.slug,
        name: partners.name,
        institution_type: partners.institution_type,
        region: partners.region,
        address_street: partners.address_street,
        address_city: partners.address_city,
        address_country: partners.address_country,
        address_postal_code: partners.address_postal_code,
        logo_url: partners.logo_url,
        gallery_images: partners.gallery_images,
        tuition_usd: partners.tuition_usd,
        acceptance_rate: partners.acceptance_rate,
        application_deadline: partners.application_deadline,
        size: partners.size,
        setting: partners.setting,
        fields: partners.fields,
        saved: savedBy(studentId),
      })
      .from(partners)
      .where(where)
      .orderBy(...order)
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    db.select({ n: count() }).from(partners).where(where),
  ]);
  const total = counted?.n ?? 0;

  return {
    items: rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      name: row.name,
      institution_type: row.institution_type,
      region: row.region,
      address: address(row),
      images: images(row),
      tuition_usd: row.tuition_usd,
      acceptance_rate: row.acceptance_rate,
      application_deadline: row.application_deadline,
      size: row.size,
      setting: row.setting,
      fields: row.fields,
      saved: Boolean(row.saved),
    })),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

/** The application fee from the institution's admissions settings, when it reads as an amount. */
function applicationFee(admissions: Record<string, unknown> | null): UniversityDetail['application_fee'] {
  const amount = admissions?.application_fee;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return null;
  const currency = admissions?.application_fee_currency;
  return { amount, currency: typeof currency === 'string' ? currency : 'USD' };
}

/** A listed university's details for one student; anything else (unknown, pending, unpublished…) is 404. */
export async function universityDetail(db: Db, studentId: string, partnerId: string): Promise<UniversityDetail> {
  if (!UUID.test(partnerId)) throw new AppError('NOT_FOUND');
  const [row] = await db
    .select({
      partner: partners,
      admissions: partnerSettings.admissions,
      theme: partnerSettings.theme,
      saved: savedBy(studentId),
    })
    .from(partners)
    .leftJoin(partnerSettings, eq(partnerSettings.partner_id, partners.id))
    .where(and(eq(partners.id, partnerId), listed()))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return {
    ...toListing(row.partner),
    saved: Boolean(row.saved),
    application_fee: applicationFee(row.admissions),
    theme: customTheme(row.theme),
  };
}

async function assertListed(db: Db, partnerId: string): Promise<void> {
  if (!UUID.test(partnerId)) throw new AppError('NOT_FOUND');
  const [row] = await db
    .select({ id: partners.id })
    .from(partners)
    .where(and(eq(partners.id, partnerId), listed()))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
}

/** Adds a listed university to the student's list; adding it again changes nothing. */
export async function saveUniversity(db: Db, studentId: string, partnerId: string) {
  await assertListed(db, partnerId);
  await db.insert(savedPartners).values({ student_id: studentId, partner_id: partnerId }).onConflictDoNothing();
  return { partner_id: partnerId, saved: true };
}

/** Removes a listed university from the student's list; removing it again changes nothing. */
export async function unsaveUniversity(db: Db, studentId: string, partnerId: string) {
  await assertListed(db, partnerId);
  await db
    .delete(savedPartners)
    .where(and(eq(savedPartners.student_id, studentId), eq(savedPartners.partner_id, partnerId)));
  return { partner_id: partnerId, saved: false };
}
