import {
  and,
  asc,
  count,
  countDistinct,
  desc,
  eq,
  gte,
  inArray,
  lte,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
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
import {
  cyclePrograms,
  cycles,
  forms,
  partnerSettings,
  partners,
  programs,
  savedPartners,
  students,
} from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { countriesNamedBy, countriesNamedByAll, words } from './country-names.ts';

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

/**
 * The university has a program whose entry requirements the student meets: it is one of `met` (a program's
 * rules the student's results satisfy), or it has a program stating none at all.
 */
function offersProgramMet(met: readonly string[]): SQL<boolean> {
  // One hashed set of institutions, built once per search (not a probe of programs per institution).
  return sql<boolean>`${partners.id} in (select p.partner_id from ${programs} p where p.requirements = '' and p.entry_rules -> 'exams' = '[]'::jsonb union all select unnest(${sql.param(met)}::uuid[]))`;
}

function savedBy(studentId: string): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${savedPartners} where ${savedPartners.student_id} = ${studentId} and ${savedPartners.partner_id} = ${partners.id})`;
}

/** Date as YYYY-MM-DD in UTC. */
function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Each institution's current cycle (the one its staff made current in its settings), with whether it
 * takes applications at `now`: open, and today — in the institution's own time zone, as the apply page
 * decides — between its opening and closing days. At most one row per institution.
 */
function currentCycles(db: Db, now: Date) {
  const today = sql`(${now.toISOString()}::timestamptz at time zone coalesce(nullif(${partnerSettings.general}->>'timezone', ''), 'UTC'))::date`;
  return db
    .select({
      partner_id: sql<string>`${cycles.partner_id}`.as('partner_id'),
      cycle_id: sql<string>`${cycles.id}`.as('cycle_id'),
      closes_on: sql<string>`${cycles.closes_on}`.as('closes_on'),
      accepting:
        sql<boolean>`(${cycles.status} = 'open' and ${cycles.opens_on} <= ${today} and ${today} <= ${cycles.closes_on})`.as(
          'accepting',
        ),
    })
    .from(cycles)
    .innerJoin(
      partnerSettings,
      and(
        eq(partnerSettings.partner_id, cycles.partner_id),
        sql`${partnerSettings.general}->>'current_cycle_id' = ${cycles.id}::text`,
      ),
    )
    .as('current_cycle');
}

/**
 * A column of the joined current cycle, qualified: Drizzle writes a subquery's fields by bare name,
 * which inside a nested select would be read as that select's own column (forms.cycle_id).
 */
const cycleColumn = (name: 'partner_id' | 'cycle_id' | 'closes_on' | 'accepting') =>
  sql`${sql.identifier('current_cycle')}.${sql.identifier(name)}`;

/**
 * The deadline students see (ADR 024): the current cycle's closing day while it takes applications;
 * none while an institution's current cycle does not (its listing's date would contradict its apply
 * page); the listing's own date for an institution without a current cycle, which takes applications
 * elsewhere. Needs the current cycles left-joined on the partner (joinsCurrent).
 */
function deadlineOf(): SQL<string | null> {
  return sql<
    string | null
  >`(case when ${cycleColumn('partner_id')} is null then ${partners.application_deadline} when ${cycleColumn('accepting')} then ${cycleColumn('closes_on')} end)`;
}

/** Whether students can apply on the platform today: the current cycle takes applications, with a program and a form. */
function acceptingOf(): SQL<boolean> {
  const cycleId = cycleColumn('cycle_id');
  return sql<boolean>`(coalesce(${cycleColumn('accepting')}, false) and exists (select 1 from ${forms} where ${forms.cycle_id} = ${cycleId}) and exists (select 1 from ${cyclePrograms} where ${cyclePrograms.cycle_id} = ${cycleId}))`;
}

/** The current cycle joined to each partner row (none for most). */
const joinsCurrent = () => sql`${cycleColumn('partner_id')} = ${partners.id}`;

/**
 * The same deadline as a filter, between `from` and `until` (open-ended without it), written as set
 * membership rather than a join so the total and the similar-names query can use it as they are: the
 * current cycles are read once (a hashed subplan), the partners' rows keep their indexes.
 */
function deadlineWithin(db: Db, now: Date, from: string, until: string | undefined): SQL {
  const current = currentCycles(db, now);
  const withCycle = db.select({ id: current.partner_id }).from(current);
  const open = db
    .select({ id: current.partner_id })
    .from(current)
    .where(and(current.accepting, until ? lte(current.closes_on, until) : undefined));
  return or(
    and(
      notInArray(partners.id, withCycle),
      gte(partners.application_deadline, from),
      until ? lte(partners.application_deadline, until) : undefined,
    ),
    inArray(partners.id, open),
  )!;
}

const MAX_WORDS = 8;

/**
 * The full-text part of a search: every word, accent-folded, as a prefix of a word of the name, city or
 * description (GIN index); a word naming a country ("rwanda", "éthiopie") also matches that country's
 * institutions, and so does the whole search when it is a country's full name ("u rwanda") or code.
 * Words are letters and digits only, so they can never be read as tsquery syntax.
 */
function textSearch(q: string): { match: SQL; rank: SQL } | null {
  const all = words(q).slice(0, MAX_WORDS);
  if (all.length === 0) return null;
  const tsquery = (list: string[], join: ' & ' | ' | ') =>
    sql`to_tsquery('simple', f_unaccent(lower(${list.map((w) => `${w}:*`).join(join)})))`;
  const plain: string[] = [];
  const named: SQL[] = [];
  for (const word of all) {
    const codes = countriesNamedBy(word);
    if (codes.length === 0) plain.push(word);
    else
      named.push(
        or(sql`${partners.search_vector} @@ ${tsquery([word], ' & ')}`, inArray(partners.address_country, codes))!,
      );
  }
  const everyWord = and(
    ...(plain.length > 0 ? [sql`${partners.search_vector} @@ ${tsquery(plain, ' & ')}`] : []),
    ...named,
  )!;
  const wholeCountries = countriesNamedByAll(q);
  return {
    match: wholeCountries.length > 0 ? or(everyWord, inArray(partners.address_country, wholeCountries))! : everyWord,
    // Institutions named by more of the words first; a country match alone ranks as no word.
    rank: sql`ts_rank(${partners.search_vector}, ${tsquery(all, ' | ')})`,
  };
}

/**
 * How close a misspelt search must come to a name or city (word similarity) to be suggested. Below
 * pg_trgm's default 0.6 so that two misspelt words still find their place ("adis abeba" is 0.43 from
 * "addis ababa"); the suggestions stay few (SIMILAR_NAMES_MAX) and closest first.
 */
export const SIMILARITY_MIN = 0.4;

/**
 * One page of listed universities matching the query, for one student. The search is PostgreSQL's,
 * in two steps: the full-text column with country names (see textSearch), ranked by ts_rank; when that
 * finds nothing, the names and cities most similar to the search, accent-folded and typo-tolerant (word
 * similarity `<%`, at most SIMILAR_NAMES_MAX of them, closest first from the trigram GiST indexes so the
 * scans stop early). Exact words thus never drown in fuzzy matches, and a misspelt common word costs a
 * few index pages, not a similarity for every name that shares it.
 */
export async function searchUniversities(
  db: Db,
  studentId: string,
  query: CatalogueQuery,
  now: Date = new Date(),
  /** With `eligible`: the institutions with a program whose rules the student's results meet (the eligibility module's answer). */
  institutionsMet: readonly string[] = [],
): Promise<UniversityPage> {
  const filters: SQL[] = [listed()];
  if (query.eligible) filters.push(offersProgramMet(institutionsMet));
  if (query.type?.length) filters.push(inArray(partners.institution_type, query.type));
  if (query.field?.length) filters.push(sql`${partners.fields} && ${sql.param(query.field)}::text[]`);
  if (query.region?.length) filters.push(inArray(partners.region, query.region));
  if (query.country?.length) filters.push(inArray(partners.address_country, query.country));
  if (query.size?.length) filters.push(inArray(partners.size, query.size));
  if (query.setting?.length) filters.push(inArray(partners.setting, query.setting));
  if (query.tuition_min !== undefined) filters.push(gte(partners.tuition_usd, query.tuition_min));
  if (query.tuition_max !== undefined) filters.push(lte(partners.tuition_usd, query.tuition_max));
  if (query.deadline) {
    const until = query.deadline === DEADLINE_OPEN ? undefined : query.deadline;
    filters.push(deadlineWithin(db, now, isoDay(now), until));
  }
  if (query.saved) filters.push(savedBy(studentId));

  const page = (match: SQL | null, rank: SQL | null) => {
    const sort = query.sort ?? (rank ? 'relevance' : 'name');
    return listPage(db, studentId, and(...filters, ...(match ? [match] : []))!, now, query, (deadline) => {
      const order: SQL[] =
        sort === 'relevance' && rank
          ? [sql`${rank} desc`]
          : sort === 'tuition'
            ? [sql`${partners.tuition_usd} asc`]
            : sort === 'deadline'
              ? [sql`${deadline} asc nulls last`]
              : [];
      // Name then id keeps pages stable when names repeat.
      order.push(sql`${partners.name} asc`, sql`${partners.id} asc`);
      return order;
    });
  };

  if (!query.q) return page(null, null);
  const text = textSearch(query.q);
  if (text) {
    const found = await page(text.match, text.rank);
    if (found.total > 0) return found;
  }
  const needle = sql`f_unaccent(lower(${query.q}))`;
  const city = sql`f_unaccent(lower(${partners.address_city}))`;
  const closest = (column: SQL) =>
    db
      .select({ id: partners.id, distance: sql<number>`${column} <->> ${needle}`.as('distance') })
      .from(partners)
      .where(and(...filters, sql`${needle} <% ${column}`))
      .orderBy(sql`${column} <->> ${needle}`)
      .limit(SIMILAR_NAMES_MAX);
  const similar = await db.transaction(async (tx) => {
    // The threshold of `<%`, for this transaction only.
    await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(SIMILARITY_MIN)}, true)`);
    const { rows } = await tx.execute<{ id: string }>(
      sql`select id from ((${closest(sql`${partners.search_name}`)}) union all (${closest(city)})) as closest group by id order by min(distance), id limit ${SIMILAR_NAMES_MAX}`,
    );
    return rows.map((row) => row.id);
  });
  if (similar.length === 0) return { items: [], total: 0, page: query.page, page_size: query.page_size };
  return page(
    inArray(partners.id, similar),
    sql`greatest(word_similarity(${needle}, ${partners.search_name}), word_similarity(${needle}, ${city}))`,
  );
}

/**
 * The page and the total, as two queries run side by side: the page stops after its rows (an ordered
 * index scan when browsing by name) and looks up the current cycle of those rows only, unless it sorts
 * by deadline; the total reads only the filter columns when it can (a covering partial index), and
 * neither materialises the whole result as a window count would.
 */
async function listPage(
  db: Db,
  studentId: string,
  where: SQL,
  now: Date,
  query: Pick<CatalogueQuery, 'page' | 'page_size'>,
  orderBy: (deadline: SQL) => SQL[],
): Promise<UniversityPage> {
  const current = currentCycles(db, now);
  const deadline = deadlineOf();
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
        application_deadline: deadline,
        accepting_applications: acceptingOf(),
        size: partners.size,
        setting: partners.setting,
        fields: partners.fields,
        saved: savedBy(studentId),
      })
      .from(partners)
      .leftJoin(current, joinsCurrent())
      .where(where)
      .orderBy(...orderBy(deadline))
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
      application_deadline: day(row.application_deadline),
      accepting_applications: Boolean(row.accepting_applications),
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

/** A date column read through an expression comes back as the driver gives it: a Date from pg, text from PGlite. */
function day(value: string | Date | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? isoDay(value) : String(value).slice(0, 10);
}

/** The application fee from the institution's admissions settings, when it reads as an amount. */
function applicationFee(admissions: Record<string, unknown> | null): UniversityDetail['application_fee'] {
  const amount = admissions?.application_fee;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return null;
  const currency = admissions?.application_fee_currency;
  return { amount, currency: typeof currency === 'string' ? currency : 'USD' };
}

/**
 * A listed university's details for one student, with the catalogue's deadline (the current cycle's
 * while it takes applications, as Explore shows it); anything else (unknown, pending, unpublished…) is 404.
 */
export async function universityDetail(
  db: Db,
  studentId: string,
  partnerId: string,
  now: Date = new Date(),
): Promise<UniversityDetail> {
  if (!UUID.test(partnerId)) throw new AppError('NOT_FOUND');
  const current = currentCycles(db, now);
  const [row] = await db
    .select({
      partner: partners,
      admissions: partnerSettings.admissions,
      theme: partnerSettings.theme,
      saved: savedBy(studentId),
      deadline: deadlineOf(),
      accepting: acceptingOf(),
    })
    .from(partners)
    .leftJoin(partnerSettings, eq(partnerSettings.partner_id, partners.id))
    .leftJoin(current, joinsCurrent())
    .where(and(eq(partners.id, partnerId), listed()))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return {
    ...toListing(row.partner),
    application_deadline: day(row.deadline),
    accepting_applications: Boolean(row.accepting),
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
