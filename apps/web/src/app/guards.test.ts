import { describe, expect, it } from 'vitest';
import { onboardingRedirect, resolveAccess } from './guards.ts';
import type { UserType } from '../lib/session.tsx';

const signedIn = (type: UserType, onboarding_complete = true) => ({
  status: 'signed-in' as const,
  user: {
    id: 'u1',
    email: 'a@b.co',
    type,
    first_name: 'Aline',
    preferred_name: null,
    language: 'en' as const,
    contact_verified: true,
    partner_id: null,
    onboarding_complete,
    partner_name: null,
    partner_status: null,
    partner_review_reason: null,
    staff_approval_status: null,
    staff_permissions: null,
    staff_active: null,
  },
});

describe('resolveAccess', () => {
  it('waits while the session resolves', () => {
    expect(resolveAccess({ status: 'loading' }, 'student')).toEqual({ kind: 'loading' });
  });

  it('sends signed-out visitors to /login without a notice', () => {
    expect(resolveAccess({ status: 'signed-out' }, 'admin')).toEqual({
      kind: 'redirect',
      to: '/login',
      notice: null,
      signOut: false,
    });
  });

  it('lets the right user type in', () => {
    for (const type of ['student', 'staff', 'admin'] as const) {
      expect(resolveAccess(signedIn(type), type)).toEqual({ kind: 'allow' });
    }
  });

  it.each([
    ['admin', 'student', 'guard.not_admin'],
    ['staff', 'admin', 'guard.not_staff'],
    ['student', 'staff', 'guard.not_student'],
  ] as const)('a %s route signs a %s out with the spec notice', (required, actual, notice) => {
    expect(resolveAccess(signedIn(actual), required)).toEqual({
      kind: 'redirect',
      to: '/login',
      notice,
      signOut: true,
    });
  });
});

describe('onboardingRedirect', () => {
  const newcomer = signedIn('student', false);

  it('sends a student who has not finished onboarding to it from the rest of the student area', () => {
    for (const pathname of ['/home', '/partners', '/application/form', '/profile', '/support']) {
      expect(onboardingRedirect(newcomer, pathname)).toBe('/onboarding/student');
    }
  });

  it('lets them reach the onboarding itself and their settings (export, deletion, password) first', () => {
    expect(onboardingRedirect(newcomer, '/onboarding/student')).toBeNull();
    expect(onboardingRedirect(newcomer, '/settings')).toBeNull();
    expect(onboardingRedirect(newcomer, '/settings/')).toBeNull();
  });

  it('leaves onboarded students, other user types and sessions still loading alone', () => {
    expect(onboardingRedirect(signedIn('student'), '/home')).toBeNull();
    expect(onboardingRedirect(signedIn('staff', false), '/home')).toBeNull();
    expect(onboardingRedirect({ status: 'loading' }, '/home')).toBeNull();
    expect(onboardingRedirect({ status: 'signed-out' }, '/home')).toBeNull();
  });
});
