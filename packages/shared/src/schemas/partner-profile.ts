import { z } from 'zod';
import { PARTNER_MESSAGES as P, VALIDATION_MESSAGES as M } from '../messages.ts';
import { CitySchema } from './auth.ts';
import {
  CampusSettingSchema,
  INSTITUTION_TYPES,
  InstitutionSizeSchema,
  PartnerStatusSchema,
  ProgramLevelSchema,
  RegionSchema,
  StudyFieldSchema,
} from './catalogue.ts';

/*
 * The institution's public profile as its staff edit it. Flat, one field per stored column, so the
 * editor and the database speak the same names; the catalogue nests them for students.
 */

/** An absolute http(s) address with a dotted host name. */
export const isWebAddress = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.');
  } catch {
    return false;
  }
};

/** Optional text: '' is stored as null. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, P.text_too_long)
    .transform((value) => value || null)
    .nullable();
const optionalUrl = z
  .string()
  .trim()
  .max(500, P.text_too_long)
  .refine((value) => value === '' || isWebAddress(value), P.website_invalid)
  .transform((value) => value || null)
  .nullable();
const optionalEmail = z
  .string()
  .trim()
  .max(254, M.email_too_long)
  .refine((value) => value === '' || z.email().safeParse(value).success, M.email_invalid)
  .transform((value) => value || null)
  .nullable();
const count = z
  .number({ error: P.number_invalid })
  .int(P.number_invalid)
  .min(0, P.number_invalid)
  .max(10_000_000, P.number_invalid);
const rate = z.number({ error: P.rate_invalid }).min(0, P.rate_invalid).max(100, P.rate_invalid);
const sat = z
  .number({ error: P.sat_invalid })
  .int(P.sat_invalid)
  .min(400, P.sat_invalid)
  .max(1600, P.sat_invalid)
  .nullable();

export const PartnerProfileFieldsSchema = z.object({
  name: z.string().trim().min(1, P.institution_name_required).max(200, P.institution_name_too_long),
  description: z.string().trim().max(5000, P.text_too_long),
  logo_url: optionalUrl,
  gallery_images: z.array(z.string().trim().refine(isWebAddress, P.website_invalid)).max(20, P.text_too_long),
  contact_email: optionalEmail,
  contact_phone: optionalText(40),
  contact_website: optionalUrl,
  address_street: optionalText(200),
  address_city: CitySchema,
  address_country: z
    .string({ error: M.country_required })
    .trim()
    .min(1, M.country_required)
    .regex(/^[A-Z]{2}$/, M.country_invalid),
  address_postal_code: optionalText(20),
  institution_type: z.enum(INSTITUTION_TYPES, P.institution_type_required),
  fields: z.array(StudyFieldSchema),
  region: RegionSchema,
  tuition_usd: count,
  tuition_min_usd: count,
  tuition_max_usd: count,
  avg_cost_after_aid_usd: count,
  graduation_rate: rate,
  acceptance_rate: rate,
  sat_min: sat,
  sat_max: sat,
  student_faculty_ratio: z.number({ error: P.number_invalid }).min(0, P.number_invalid).max(1000, P.number_invalid),
  total_enrollment: count,
  size: InstitutionSizeSchema,
  setting: CampusSettingSchema,
  application_deadline: z
    .string()
    .trim()
    .refine((value) => value === '' || z.iso.date().safeParse(value).success, P.date_invalid)
    .transform((value) => value || null)
    .nullable(),
  program_levels: z.array(ProgramLevelSchema),
  accreditation_body: optionalText(200),
  accreditation_number: optionalText(100),
  program_count: count,
  year_established: z
    .number({ error: P.year_established_invalid })
    .int(P.year_established_invalid)
    .min(1000, P.year_established_invalid)
    .refine((year) => year <= new Date().getUTCFullYear(), P.year_established_invalid),
  /** Students see an institution once it is approved and published. */
  published: z.boolean(),
});
export type PartnerProfileFields = z.infer<typeof PartnerProfileFieldsSchema>;
export type PartnerProfileFieldsInput = z.input<typeof PartnerProfileFieldsSchema>;

/** Pairs that must be ordered; checked here for the fields sent and by the server after merging. */
export const ORDERED_PAIRS = [
  ['tuition_min_usd', 'tuition_max_usd', P.range_invalid],
  ['sat_min', 'sat_max', P.sat_invalid],
] as const;

/** Any subset of the editable fields; everything else (status, review, slug, demo flag) is dropped. */
export const PartnerProfileUpdateSchema = PartnerProfileFieldsSchema.partial().superRefine((value, ctx) => {
  for (const [low, high, message] of ORDERED_PAIRS) {
    const a = value[low];
    const b = value[high];
    if (a === undefined || b === undefined) continue;
    // SAT: both scores or neither; tuition: never undefined here.
    if ((a === null) !== (b === null) || (a !== null && b !== null && a > b)) {
      ctx.addIssue({ code: 'custom', path: [high], message });
    }
  }
});
export type PartnerProfileUpdate = z.infer<typeof PartnerProfileUpdateSchema>;
export type PartnerProfileUpdateInput = z.input<typeof PartnerProfileUpdateSchema>;

/** The profile as stored; plain types, since stored values predate any rule change. */
export const PartnerProfileSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  status: PartnerStatusSchema,
  review_reason: z.string().nullable(),
  published: z.boolean(),
  name: z.string(),
  description: z.string(),
  logo_url: z.string().nullable(),
  gallery_images: z.array(z.string()),
  contact_email: z.string().nullable(),
  contact_phone: z.string().nullable(),
  contact_website: z.string().nullable(),
  address_street: z.string().nullable(),
  address_city: z.string(),
  address_country: z.string(),
  address_postal_code: z.string().nullable(),
  institution_type: z.enum(INSTITUTION_TYPES),
  fields: z.array(StudyFieldSchema),
  region: RegionSchema,
  tuition_usd: z.number(),
  tuition_min_usd: z.number(),
  tuition_max_usd: z.number(),
  avg_cost_after_aid_usd: z.number(),
  graduation_rate: z.number(),
  acceptance_rate: z.number(),
  sat_min: z.number().nullable(),
  sat_max: z.number().nullable(),
  student_faculty_ratio: z.number(),
  total_enrollment: z.number(),
  size: InstitutionSizeSchema,
  setting: CampusSettingSchema,
  application_deadline: z.string().nullable(),
  program_levels: z.array(ProgramLevelSchema),
  accreditation_body: z.string().nullable(),
  accreditation_number: z.string().nullable(),
  program_count: z.number(),
  year_established: z.number(),
  updated_at: z.string(),
});
export type PartnerProfile = z.infer<typeof PartnerProfileSchema>;

/** Approved institutions a person can ask to join at sign-up: just enough to recognise one. */
export const InstitutionDirectoryQuerySchema = z.object({
  q: z.string().trim().max(100).default(''),
  page: z.coerce.number().int().min(1).max(1000).default(1),
});
export const INSTITUTION_DIRECTORY_PAGE_SIZE = 10;
export const InstitutionDirectoryEntrySchema = z.object({ id: z.uuid(), name: z.string(), city: z.string() });
export const InstitutionDirectoryPageSchema = z.object({
  items: z.array(InstitutionDirectoryEntrySchema),
  page: z.int(),
  has_more: z.boolean(),
});
export type InstitutionDirectoryEntry = z.infer<typeof InstitutionDirectoryEntrySchema>;
export type InstitutionDirectoryPage = z.infer<typeof InstitutionDirectoryPageSchema>;

export const STAFF_APPROVAL_STATUSES = ['pending', 'approved', 'declined'] as const;
export const StaffApprovalStatusSchema = z.enum(STAFF_APPROVAL_STATUSES);
export type StaffApprovalStatus = z.infer<typeof StaffApprovalStatusSchema>;

/** A person asking to join the institution. */
export const StaffRequestSchema = z.object({
  id: z.uuid(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  work_email: z.string().nullable(),
  job_title: z.string().nullable(),
  phone: z.string().nullable(),
  requested_at: z.string(),
});
export const StaffRequestListSchema = z.array(StaffRequestSchema);
export type StaffRequest = z.infer<typeof StaffRequestSchema>;

export const StaffDecisionSchema = z.object({ id: z.uuid(), approval_status: StaffApprovalStatusSchema });
export type StaffDecision = z.infer<typeof StaffDecisionSchema>;

/** How far the institution is from receiving applications: what the dashboard's checklist shows. */
export const AdmissionsReadinessSchema = z.object({
  approved: z.boolean(),
  published: z.boolean(),
  campuses: z.int(),
  programs: z.int(),
  /** The current cycle (settings.general.current_cycle_id), if one is chosen. */
  current_cycle: z
    .object({
      id: z.uuid(),
      name: z.string(),
      accepting_applications: z.boolean(),
      open_programs: z.int(),
      /** Forms attached to it. */
      forms: z.int(),
    })
    .nullable(),
  /** Everything above is in place: students can start applications. */
  ready: z.boolean(),
});
export type AdmissionsReadiness = z.infer<typeof AdmissionsReadinessSchema>;
