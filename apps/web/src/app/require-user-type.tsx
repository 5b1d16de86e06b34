import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingOverlay } from '../components/loading-overlay.tsx';
import { useSession, type UserType } from '../lib/session.tsx';
import { resolveAccess, type Access } from './guards.ts';
import { rememberReturn } from '../lib/return-to.ts';
import { paths } from '../lib/paths.ts';

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
  // Someone who signs out (or whose session ends) here is not on their way in: nothing to remember.
  const [wasSignedIn, setWasSignedIn] = useState(false);
  if (session.status === 'signed-in' && !wasSignedIn) setWasSignedIn(true);

  useEffect(() => {
    if (mustSignOut) void signOut();
  }, [mustSignOut, signOut]);

  if (access.kind === 'loading') return <LoadingOverlay />;
  if (access.kind === 'redirect') {
    // The query too: a shared Explore search or an application's area keeps what it shows.
    const from = `${location.pathname}${location.search}`;
    return (
      <SignInFirst
        from={from}
        notice={access.notice}
        remember={type === 'student' && !access.signOut && !wasSignedIn}
      />
    );
  }
  return <Outlet />;
}

/**
 * The sign-in page, told where the visitor was going. A signed-out visitor on a student page is also
 * remembered past a sign-up (email verification, onboarding), which the sign-in page's state does not survive.
 */
function SignInFirst({ from, notice, remember }: { from: string; notice: string | null; remember: boolean }) {
  useEffect(() => {
    if (remember) rememberReturn(from);
  }, [from, remember]);
  return <Navigate to={paths.login} replace state={{ from, notice }} />;
}
