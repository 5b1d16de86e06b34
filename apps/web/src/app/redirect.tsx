import { Navigate, useLocation } from 'react-router';

/** Client-side twin of the server's redirects: goes to `to`, keeping the query string. */
export function RedirectKeepingQuery({ to }: { to: string }) {
  const { search, hash } = useLocation();
  return <Navigate to={{ pathname: to, search, hash }} replace />;
}
