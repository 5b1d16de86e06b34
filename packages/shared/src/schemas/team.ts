import { z } from 'zod';
import { LANGUAGES, STAFF_PERMISSIONS } from '../constants.ts';
import { SETUP_MESSAGES as S, VALIDATION_MESSAGES as M } from '../messages.ts';
import { requiredName } from './admissions.ts';
import { EmailSchema, FirstNameSchema, LastNameSchema, PasswordSchema } from './auth.ts';

/*
 * An institution's team (spec section 3, staff record and teams): members with a role (job title), a
 * permission list and an active flag; invitations by email; named teams grouping members.
 */

export const StaffPermissionSchema = z.enum(STAFF_PERMISSIONS);
export const PermissionListSchema = z.array(StaffPermissionSchema).max(STAFF_PERMISSIONS.length);

export const StaffMemberSchema = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string().nullable(),
  /** The job title (spec: role). */
  role: z.string(),
  permissions: z.array(StaffPermissionSchema),
  active: z.boolean(),
  team_ids: z.array(z.uuid()),
  primary_contact: z.boolean(),
  approval_status: z.enum(['pending', 'approved', 'declined']),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StaffMember = z.infer<typeof StaffMemberSchema>;

/** What a member with manage_team may change of another member. */
export const StaffMemberUpdateSchema = z
  .object({
    role: requiredName(100),
    permissions: PermissionListSchema,
    team_ids: z.array(z.uuid()).max(100),
    active: z.boolean(),
  })
  .partial();
export type StaffMemberUpdate = z.infer<typeof StaffMemberUpdateSchema>;

export const InvitationInputSchema = z.object({
  email: EmailSchema,
  first_name: FirstNameSchema,
  last_name: LastNameSchema,
  role: requiredName(100),
  permissions: PermissionListSchema,
  team_ids: z.array(z.uuid()).max(100),
  /** The language of the invitation email. */
  language: z.enum(LANGUAGES),
});
export type InvitationInput = z.infer<typeof InvitationInputSchema>;

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export const InvitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.string(),
  permissions: z.array(StaffPermissionSchema),
  team_ids: z.array(z.uuid()),
  status: z.enum(INVITATION_STATUSES),
  invited_by_name: z.string().nullable(),
  expires_at: z.string(),
  created_at: z.string(),
});
export type Invitation = z.infer<typeof InvitationSchema>;

/** What the invitation page shows before the invited person sets a password (no sign-in needed). */
export const InvitationPreviewSchema = z.object({
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.string(),
  institution_name: z.string(),
});
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

export const AcceptInvitationSchema = z.object({
  token: z.string().min(1).max(200),
  first_name: FirstNameSchema,
  last_name: LastNameSchema,
  password: PasswordSchema,
  accept_terms: z.literal(true, { error: M.terms_required }),
});
export type AcceptInvitation = z.infer<typeof AcceptInvitationSchema>;

export const TeamInputSchema = z.object({
  name: requiredName(100),
  description: z.string().trim().max(500, S.text_too_long),
});
export type TeamInput = z.infer<typeof TeamInputSchema>;

export const TeamSchema = TeamInputSchema.extend({
  id: z.uuid(),
  member_ids: z.array(z.uuid()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Team = z.infer<typeof TeamSchema>;

/** The whole membership of one team, replacing the previous one. */
export const TeamMembersInputSchema = z.object({
  staff_ids: z.array(z.uuid()).max(500),
});
export type TeamMembersInput = z.infer<typeof TeamMembersInputSchema>;

/**
 * The invitation link's token, sent in a body rather than in the address so request logs never hold a
 * usable link.
 */
export const InvitationTokenSchema = z.object({ token: z.string().min(1).max(200) });
export type InvitationToken = z.infer<typeof InvitationTokenSchema>;
