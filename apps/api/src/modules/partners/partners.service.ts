import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  INSTITUTION_DIRECTORY_PAGE_SIZE,
  ORDERED_PAIRS,
  PARTNER_MESSAGES,
  regionOfCountry,
  type InstitutionDirectoryPage,
  type InstitutionType,
  type PartnerProfile,
  type PartnerProfileUpdate,
  type StaffDecision,
  type StaffRequest,
  type StaffPermission,
  holdsPermission,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { partners, staff } from '../../db/schema/index.ts';
import { slugify } from '../../lib/slug.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import { containsPattern, folded } from '../../lib/text-search.ts';

/* ---------------------------------------------------------------- sign-up */

export interface NewInstitution {
  name: string;
  institutionType: InstitutionType;
  yearEstablished: number;
  city: string;
  country: string;
  contactEmail: string;
  contactPhone: string;
  website: string | null;
  accreditationBody: string | null;
  accreditationNumber: string | null;
  programCount: number;
}

/**
 * A pending, unpublished institution (spec sections 3 and 9); its settings and form come from
 * institution-onboarding's registerInstitution, which calls this. Listing facts
 * not asked at sign-up start neutral (no fields, no figures, medium urban campus) and are completed in
 * the profile editor before publishing.
 */
export async function createInstitution(tx: DbOrTx, input: NewInstitution): Promise<string> {
  const base = slugify(input.name) || 'institution';
  const values = {
    name: input.name,
    status: 'pending' as const,
    published: false,
    contact_email: input.contactEmail,
    contact_phone: input.contactPhone,
    contact_website: input.website,
    address_city: input.city,
    address_country: input.country,
    institution_type: input.institutionType,
    year_established: input.yearEstablished,
    accreditation_body: input.accreditationBody,
    accreditation_number: input.accreditationNumber,
    program_count: input.programCount,
    region: regionOfCountry(input.country),
    size: 'medium' as const,
    setting: 'urban' as const,
  };
  // The readable slug when it is free, else the same with a random suffix; the unique index decides.
  let [row] = await tx
    .insert(partners)
    .values({ ...values, slug: base })
    .onConflictDoNothing({ target: partners.slug })
    .returning({ id: partners.id });
  if (!row) {
    [row] = await tx
      .insert(partners)
      .values({ ...values, slug: `${base}-${randomBytes(3).toString('hex')}` })
      .returning({ id: partners.id });
  }
  if (!row) throw new Error('the new institution was not inserted');
  return row.id;
}

/** The institution a person may ask to join: approved, else a clear refusal. */
export async function joinableInstitution(tx: DbOrTx, partnerId: string): Promise<string> {
  const [row] = await tx
    .select({ id: partners.id })
    .from(partners)
    .where(and(eq(partners.id, partnerId), eq(partners.status, 'approved')))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', PARTNER_MESSAGES.institution_not_found);
  return row.id;
}

/** Approved institutions whose name contains the query (accents and case ignored), by name, one page. */
export async function searchInstitutions(db: Db, q: string, page: number): Promise<InstitutionDirectoryPage> {
  const rows = await db
    .select({ id: partners.id, name: partners.name, city: partners.address_city })
    .from(partners)
    .where(
      and(
        eq(partners.status, 'approved'),
        q ? sql`${partners.search_name} like ${folded(containsPattern(q))}` : undefined,
      ),
    )
    .orderBy(asc(partners.name), asc(partners.id))
    .limit(INSTITUTION_DIRECTORY_PAGE_SIZE + 1)
    .offset((page - 1) * INSTITUTION_DIRECTORY_PAGE_SIZE);
  return {
    items: rows.slice(0, INSTITUTION_DIRECTORY_PAGE_SIZE),
    page,
    has_more: rows.length > INSTITUTION_DIRECTORY_PAGE_SIZE,
  };
}

/* ---------------------------------------------------------------- staff access */

/** Permissions that allow editing the institution's profile and settings. */
export const PROFILE_PERMISSIONS = ['manage_settings'] as const satisfies readonly StaffPermission[];
/** Deciding who joins is managing the team. */
export const MEMBERSHIP_PERMISSIONS = ['manage_team'] as const satisfies readonly StaffPermission[];

/**
 * Members who may act with `permission` now, as SQL over `staff` joined to `partners`: the same rule as
 * assertStaffAccess (approved institution, approved and active member, the permission or 'all'), for
 * queries that pick such members in bulk (who hears of an institution's messages).
 */
export function activeStaffHolding(...permissions: [StaffPermission, ...StaffPermission[]]): SQL {
  const held = sql.join(
    permissions.map((permission) => sql`${permission}`),
    sql`, `,
  );
  return and(
    eq(partners.status, 'approved'),
    eq(staff.approval_status, 'approved'),
    eq(staff.active, true),
    sql`${staff.permissions} && array[${held}, 'all']::text[]`,
  )!;
}

/** The users of the institution's members who may act with any of these permissions now (who is told of what). */
export async function membersHolding(
  db: DbOrTx,
  partnerId: string,
  ...permissions: [StaffPermission, ...StaffPermission[]]
): Promise<string[]> {
  const rows = await db
    .select({ user_id: staff.user_id })
    .from(staff)
    .innerJoin(partners, eq(partners.id, staff.partner_id))
    .where(and(eq(staff.partner_id, partnerId), activeStaffHolding(...permissions)));
  return rows.map((row) => row.user_id);
}

/** Of these staff users of one institution, those who may read its messages now. */
export async function messagingStaff(db: DbOrTx, partnerId: string, userIds: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ user_id: staff.user_id })
    .from(staff)
    .innerJoin(partners, eq(partners.id, staff.partner_id))
    .where(
      and(eq(staff.partner_id, partnerId), inArray(staff.user_id, userIds), activeStaffHolding('message_applicants')),
    );
  return new Set(rows.map((row) => row.user_id));
}

/**
 * Records an administrator's verdict on an institution, only while it is pending: answers null otherwise
 * (or when there is no such institution), so two admins deciding at once cannot both win.
 */
export async function decidePendingInstitution(
  tx: DbOrTx,
  input: { partnerId: string; status: 'approved' | 'rejected'; reviewedBy: string; reason: string | null },
): Promise<{ id: string; name: string; contact_email: string | null } | null> {
  const [updated] = await tx
    .update(partners)
    .set({
      status: input.status,
      reviewed_at: new Date().toISOString(),
      reviewed_by: input.reviewedBy,
      review_reason: input.reason,
    })
    .where(and(eq(partners.id, input.partnerId), eq(partners.status, 'pending')))
    .returning({ id: partners.id, name: partners.name, contact_email: partners.contact_email });
  return updated ?? null;
}

/** The member behind a dashboard request. */
export interface StaffCaller {
  staffId: string;
  partnerId: string;
  permissions: StaffPermission[];
}

/**
 * Lets a staff user act on an institution: another institution's id is unknown to them (404); their own
 * institution must be approved and their membership approved and active (403), and, when permissions
 * are named, they must hold one of them or 'all' (403).
 */
export async function assertStaffAccess(
  db: DbOrTx,
  userId: string,
  partnerId: string,
  permissions: readonly StaffPermission[] | null,
): Promise<StaffCaller> {
  const [row] = await db
    .select({
      id: staff.id,
      partner_id: staff.partner_id,
      approval_status: staff.approval_status,
      active: staff.active,
      permissions: staff.permissions,
      partner_status: partners.status,
    })
    .from(staff)
    .innerJoin(partners, eq(partners.id, staff.partner_id))
    .where(eq(staff.user_id, userId))
    .limit(1);
  if (!row || row.partner_id !== partnerId) throw new AppError('NOT_FOUND');
  if (row.partner_status !== 'approved') {
    throw new AppError('PERMISSION_DENIED', PARTNER_MESSAGES.institution_not_approved);
  }
  if (row.approval_status !== 'approved') {
    throw new AppError('PERMISSION_DENIED', PARTNER_MESSAGES.membership_not_approved);
  }
  if (!row.active) throw new AppError('PERMISSION_DENIED', PARTNER_MESSAGES.membership_inactive);
  const held = row.permissions as StaffPermission[];
  if (permissions && !holdsPermission(held, ...permissions)) throw new AppError('PERMISSION_DENIED');
  return { staffId: row.id, partnerId: row.partner_id, permissions: held };
}

/* ---------------------------------------------------------------- profile */

const profileColumns = {
  id: partners.id,
  slug: partners.slug,
  status: partners.status,
  review_reason: partners.review_reason,
  published: partners.published,
  name: partners.name,
  description: partners.description,
  logo_url: partners.logo_url,
  gallery_images: partners.gallery_images,
  contact_email: partners.contact_email,
  contact_phone: partners.contact_phone,
  contact_website: partners.contact_website,
  address_street: partners.address_street,
  address_city: partners.address_city,
  address_country: partners.address_country,
  address_postal_code: partners.address_postal_code,
  institution_type: partners.institution_type,
  fields: partners.fields,
  region: partners.region,
  tuition_usd: partners.tuition_usd,
  tuition_min_usd: partners.tuition_min_usd,
  tuition_max_usd: partners.tuition_max_usd,
  avg_cost_after_aid_usd: partners.avg_cost_after_aid_usd,
  graduation_rate: partners.graduation_rate,
  acceptance_rate: partners.acceptance_rate,
  sat_min: partners.sat_min,
  sat_max: partners.sat_max,
  student_faculty_ratio: partners.student_faculty_ratio,
  total_enrollment: partners.total_enrollment,
  size: partners.size,
  setting: partners.setting,
  application_deadline: partners.application_deadline,
  program_levels: partners.program_levels,
  accreditation_body: partners.accreditation_body,
  accreditation_number: partners.accreditation_number,
  program_count: partners.program_count,
  year_established: partners.year_established,
  updated_at: partners.updated_at,
};

export async function getProfile(db: DbOrTx, partnerId: string): Promise<PartnerProfile> {
  const [row] = await db.select(profileColumns).from(partners).where(eq(partners.id, partnerId)).limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return { ...row, program_levels: row.program_levels as PartnerProfile['program_levels'] };
}

/** Writes the fields sent; the ordered pairs must still hold against the stored values. */
export async function updateProfile(db: Db, partnerId: string, update: PartnerProfileUpdate): Promise<PartnerProfile> {
  return db.transaction(async (tx) => {
    const current = await getProfile(tx, partnerId);
    const merged = { ...current, ...update };
    for (const [low, high, message] of ORDERED_PAIRS) {
      const a = merged[low];
      const b = merged[high];
      if ((a === null) !== (b === null) || (a !== null && b !== null && a > b)) {
        throw new AppError('INVALID_ARGUMENT', message, [{ path: high, message }]);
      }
    }
    if (Object.keys(update).length > 0) {
      await tx.update(partners).set(update).where(eq(partners.id, partnerId));
    }
    return getProfile(tx, partnerId);
  });
}

/** Keeps the listed number of programs (partners.program_count) equal to the programs the institution set up. */
export async function setProgramCount(tx: DbOrTx, partnerId: string, count: number): Promise<void> {
  await tx.update(partners).set({ program_count: count }).where(eq(partners.id, partnerId));
}

/* ---------------------------------------------------------------- membership requests */

export async function listStaffRequests(db: Db, partnerId: string): Promise<StaffRequest[]> {
  return db
    .select({
      id: staff.id,
      first_name: staff.first_name,
      last_name: staff.last_name,
      email: staff.email,
      work_email: staff.work_email,
      job_title: staff.job_title,
      phone: staff.phone,
      requested_at: staff.created_at,
    })
    .from(staff)
    .where(and(eq(staff.partner_id, partnerId), eq(staff.approval_status, 'pending')))
    .orderBy(asc(staff.created_at), asc(staff.id));
}

/** Approves or declines a pending request of this institution; anything else is not found. */
export async function decideStaffRequest(
  db: Db,
  partnerId: string,
  staffId: string,
  decision: 'approved' | 'declined',
): Promise<StaffDecision> {
  const [row] = await db
    .update(staff)
    .set({ approval_status: decision })
    .where(and(eq(staff.id, staffId), eq(staff.partner_id, partnerId), eq(staff.approval_status, 'pending')))
    .returning({ id: staff.id, approval_status: staff.approval_status });
  if (!row) throw new AppError('NOT_FOUND', PARTNER_MESSAGES.request_not_found);
  return row;
}
