import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingOverlay } from '../components/loading-overlay.tsx';
import { useSession, type UserType } from '../lib/session.tsx';
import { resolveAccess } from './guards.ts';
import { paths } from './paths.ts';

/** Guards a route tree: a loading state while the user resolves, then allow or send to /login. */
export function RequireUserType({ type }: { type: UserType }) {
  const { session, signOut } = useSession();
  const location = useLocation();
  const access = resolveAccess(session, type);
  const mustSignOut = access.kind === 'redirect' && access.signOut;

  useEffect(() => {
    if (mustSignOut) {
      localStorage.clear();
      void signOut();
    }
  }, [mustSignOut, signOut]);

  if (access.kind === 'loading') return <LoadingOverlay />;
  if (access.kind === 'redirect') {
    return <Navigate to={paths.login} replace state={{ from: location.pathname, notice: access.notice }} />;
  }
  return <Outlet />;
}
