import type { Session, UserType } from '../lib/session.tsx';

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
