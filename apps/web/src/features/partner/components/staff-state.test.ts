import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../../../lib/session.tsx';
import { staffState } from './staff-state.ts';

const staff = (
  partner_status: SessionUser['partner_status'],
  staff_approval_status: SessionUser['staff_approval_status'],
  staff_active = true,
) =>
  ({
    id: 'u1',
    email: 'staff@example.com',
    type: 'staff',
    first_name: 'Diane',
    preferred_name: null,
    language: 'en',
    contact_verified: true,
    partner_id: 'p1',
    partner_name: 'Lake Kivu Institute',
    partner_status,
    partner_review_reason: null,
    staff_approval_status,
    staff_permissions: ['all'],
    staff_active,
    onboarding_complete: true,
  }) satisfies SessionUser;

describe('staffState', () => {
  it.each([
    ['pending', 'approved', 'review'],
    ['rejected', 'approved', 'rejected'],
    ['suspended', 'approved', 'suspended'],
    ['approved', 'pending', 'membership_pending'],
    ['approved', 'declined', 'membership_declined'],
    ['approved', 'approved', 'approved'],
    // The institution's vetting comes before the membership.
    ['pending', 'pending', 'review'],
  ] as const)('institution %s, member %s → %s', (institution, member, expected) => {
    expect(staffState(staff(institution, member))).toBe(expected);
  });

  it.each([
    ['approved', 'approved', 'deactivated'],
    // A request still waiting, or an institution under review, says so before the access does.
    ['approved', 'pending', 'membership_pending'],
    ['pending', 'approved', 'review'],
  ] as const)('institution %s, member %s, inactive → %s', (institution, member, expected) => {
    expect(staffState(staff(institution, member, false))).toBe(expected);
  });
});
