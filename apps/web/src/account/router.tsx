/*
 * What the entry pages' components use of React Router, for the entry pages' own bundle (ADR 044): there
 * each page is a document of its own, so a link is a plain link and moving on loads the next document
 * (the server sends it prerendered, in the visitor's language). The build resolves `react-router` to this
 * module for those pages only; an import it lacks fails that build.
 */
import { createContext, useContext, useMemo, type AnchorHTMLAttributes, type Ref } from 'react';

export interface PageLocation {
  pathname: string;
  search: string;
  hash: string;
  /** What the app's router kept in the history entry (`usr`): there after a reload of a page it opened. */
  state: unknown;
}

/** The page being rendered: set by the server's render; the browser's own address otherwise. */
export const PageLocationContext = createContext<PageLocation | null>(null);

function browserLocation(): PageLocation {
  const { pathname, search, hash } = window.location;
  const entry: unknown = window.history.state;
  const state = typeof entry === 'object' && entry !== null && 'usr' in entry ? entry.usr : null;
  return { pathname, search, hash, state };
}

export function useLocation(): PageLocation {
  const given = useContext(PageLocationContext);
  return useMemo(() => given ?? browserLocation(), [given]);
}

export function useSearchParams(): [URLSearchParams] {
  const { search } = useLocation();
  return [useMemo(() => new URLSearchParams(search), [search])];
}

/**
 * Loads the next page. A history state cannot follow a new document: the pages reached from here (the
 * pending screen) read what was stored for them instead.
 */
export function useNavigate() {
  return (to: string, options: { replace?: boolean; state?: unknown } = {}) =>
    documentNavigation.go(to, options.replace ?? false);
}

/** How a page moves on to the next document (an object, so a test can watch it). */
export const documentNavigation = {
  go(to: string, replace: boolean): void {
    if (replace) window.location.replace(to);
    else window.location.assign(to);
  },
};

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string; ref?: Ref<HTMLAnchorElement> };

export function Link({ to, ...anchor }: LinkProps) {
  return <a href={to} {...anchor} />;
}

type NavLinkProps = Omit<LinkProps, 'className'> & { className?: string | ((state: { isActive: boolean }) => string) };

export function NavLink({ to, className, ...anchor }: NavLinkProps) {
  const isActive = useLocation().pathname === to;
  return (
    <a
      href={to}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className({ isActive }) : className}
      {...anchor}
    />
  );
}
