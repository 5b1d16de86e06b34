import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingOverlay } from '../components/loading-overlay.tsx';
import { useSession, type UserType } from '../lib/session.tsx';
import { resolveAccess, type Access } from './guards.ts';
import { paths } from './paths.ts';

/** Guards a route tree: a loading state while the user resolves, then allow or send to /login. */
export function RequireUserType({ type }: { type: UserType }) {
  const { session, signOut } = useSession();
  const location = useLocation();
  // The first refusal stands: signing the user out re-renders this guard as "signed out" while /login
  // loads, and that second redirect must not replace the first one's notice.
  const [refusal, setRefusal] = useState<Extract<Access, { kind: 'redirect' }> | null>(null);
  const resolved = resolveAccess(session, type);
  if (resolved.kind === 'redirect' && refusal === null) setRefusal(resolved);
  const access = refusal ?? resolved;
  const mustSignOut = access.kind === 'redirect' && access.signOut;

  useEffect(() => {
    if (mustSignOut) void signOut();
  }, [mustSignOut, signOut]);

  if (access.kind === 'loading') return <LoadingOverlay />;
  if (access.kind === 'redirect') {
    return <Navigate to={paths.login} replace state={{ from: location.pathname, notice: access.notice }} />;
  }
  return <Outlet />;
}
