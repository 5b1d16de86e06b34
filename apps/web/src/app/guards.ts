import type { Session, UserType } from '../lib/session.tsx';
import { paths } from '../lib/paths.ts';

/** What a guard does for a session and the user type a route tree requires (spec section 6). */
export type Access =
  { kind: 'loading' } | { kind: 'allow' } | { kind: 'redirect'; to: '/login'; notice: string | null; signOut: boolean };

/** Translation keys of the spec's messages for a signed-in user of the wrong type. */
export const WRONG_TYPE_NOTICE: Record<UserType, string> = {
  admin: 'guard.not_admin',
  staff: 'guard.not_staff',
  student: 'guard.not_student',
};

export function resolveAccess(session: Session, required: UserType): Access {
  if (session.status === 'loading') return { kind: 'loading' };
  if (session.status === 'signed-out') return { kind: 'redirect', to: '/login', notice: null, signOut: false };
  if (session.user.type === required) return { kind: 'allow' };
  return { kind: 'redirect', to: '/login', notice: WRONG_TYPE_NOTICE[required], signOut: true };
}

/**
 * The student pages open before onboarding is finished: the onboarding itself, and the settings, so a
 * newcomer can still change their password, download their data or delete the account they just made.
 */
export const OPEN_BEFORE_ONBOARDING: readonly string[] = [paths.student.onboarding, paths.student.settings];

/** Where a student who has not finished onboarding is sent from a page of the student area, or null to stay. */
export function onboardingRedirect(session: Session, pathname: string): string | null {
  if (session.status !== 'signed-in' || session.user.type !== 'student' || session.user.onboarding_complete) {
    return null;
  }
  const page = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return OPEN_BEFORE_ONBOARDING.includes(page) ? null : paths.student.onboarding;
}
