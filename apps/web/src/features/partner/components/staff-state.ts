import type { SessionUser } from '../../../lib/session.tsx';

export type StaffState =
  'review' | 'rejected' | 'suspended' | 'membership_pending' | 'membership_declined' | 'deactivated' | 'approved';

/** Where a staff member stands: the institution's vetting first, then their own membership and access. */
export function staffState(user: SessionUser): StaffState {
  if (user.partner_status === 'rejected') return 'rejected';
  if (user.partner_status === 'suspended') return 'suspended';
  if (user.partner_status !== 'approved') return 'review';
  if (user.staff_approval_status === 'declined') return 'membership_declined';
  if (user.staff_approval_status !== 'approved') return 'membership_pending';
  // An approved member whose access an administrator turned off.
  if (user.staff_active === false) return 'deactivated';
  return 'approved';
}
