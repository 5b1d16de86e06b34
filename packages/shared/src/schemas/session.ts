import { z } from 'zod/mini';
import { LANGUAGES, STAFF_PERMISSIONS, type StaffPermission } from '../constants.ts';

/*
 * What every screen needs to know about the signed-in user. Kept apart from the sign-up schemas, whose
 * phone-number rules carry a large dataset that only the sign-up screen should download, and written with
 * zod/mini, whose functions are shaken out of a bundle when unused: the first screen reads the session
 * without downloading the whole of zod (ADR 020).
 */

export const USER_TYPES = ['student', 'staff', 'admin'] as const;
export type UserType = (typeof USER_TYPES)[number];

export const SessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  type: z.enum(USER_TYPES),
  first_name: z.nullable(z.string()),
  preferred_name: z.nullable(z.string()),
  language: z.enum(LANGUAGES),
  contact_verified: z.boolean(),
  partner_id: z.nullable(z.string()),
  /** False while a student has not finished onboarding; always true for staff and admins. */
  onboarding_complete: z.boolean(),
  /** Staff only (null otherwise): the institution's name, vetting status and the reason of a rejection. */
  partner_name: z.nullable(z.string()),
  partner_status: z.nullable(z.enum(['pending', 'approved', 'rejected', 'suspended'])),
  partner_review_reason: z.nullable(z.string()),
  /** Staff only: whether the institution has accepted this member (the first member is accepted with it). */
  staff_approval_status: z.nullable(z.enum(['pending', 'approved', 'declined'])),
  /** Staff only: what the member may do (the server checks again on every call), and whether they are active. */
  staff_permissions: z.nullable(z.array(z.enum(STAFF_PERMISSIONS))),
  staff_active: z.nullable(z.boolean()),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

/** Whether a staff member holds one of `permissions` ('all' holds every one). */
export function holdsPermission(
  held: readonly string[] | null | undefined,
  ...permissions: StaffPermission[]
): boolean {
  return Boolean(
    held?.some((permission) => permission === 'all' || permissions.includes(permission as StaffPermission)),
  );
}

/** The answer of requests that must not reveal anything (resend, forgot password) or return nothing. */
export const AcknowledgedSchema = z.object({ ok: z.literal(true) });
export type Acknowledged = z.infer<typeof AcknowledgedSchema>;
