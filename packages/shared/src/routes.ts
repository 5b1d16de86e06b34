/**
 * The route table of spec section 2, shared by the web router (which renders them) and the API
 * (which serves prerendered HTML, performs redirects and answers 404 for unknown paths).
 */

/** Information pages: static HTML with progressive enhancement only (ADR 002). */
const STATIC_PAGES = [
  '/',
  '/programs',
  '/resources',
  '/help',
  '/terms',
  '/privacy',
  '/contact-us',
  '/about/us',
  '/about/student',
  '/about/partner',
  '/plan-for-university',
] as const;

/**
 * Public pages that are small applications (forms): their HTML is hydrated by the React app, or for the
 * entry pages (sign-up, sign-in, forgot and reset password) by their own light bundle (ADR 044).
 */
export const HYDRATED_PAGES = [
  '/waitlist',
  '/signup/live',
  '/signup/partner',
  '/signup/partner/pending',
  '/pending',
  '/auth/verify-email',
  '/login',
  '/login/admin',
  '/forgot-password',
  '/reset-password',
] as const;

/** Public pages, prerendered as HTML in every language. */
export const PUBLIC_PAGES = [...STATIC_PAGES, ...HYDRATED_PAGES] as const;
export type PublicPage = (typeof PUBLIC_PAGES)[number];

/** Public pages showing live data: the server renders them on request (cached briefly), not at build. */
export const LIVE_PAGES: readonly PublicPage[] = ['/'];

/** Redirects that keep the query string. */
export const REDIRECTS: Readonly<Record<string, string>> = {
  '/signup': '/waitlist',
  '/about': '/about/us',
  '/apply-to-university': '/about/student',
  '/partner': '/about/partner',
  '/dashboard': '/home',
};

/**
 * Paths rendered only in the browser (signed-in areas): the server answers them with the SPA shell.
 * A trailing `/*` matches the prefix and everything below it.
 */
export const APP_ROUTE_PATTERNS = [
  '/home',
  '/support',
  '/settings',
  '/form',
  '/onboarding/student',
  '/profile',
  '/partners',
  '/partners/*',
  '/application',
  '/application/*',
  '/admin/dashboard',
  '/partner/*',
  /** A payment provider's hosted checkout (the sandbox's): what it shows depends on its reference. */
  '/pay',
  /** A staff invitation: public, but its content depends on the link's token, so nothing to prerender. */
  '/signup/partner/invitation',
  /** The public check of an admission letter's verification code (its QR code points here). */
  '/letters/*',
  /** The unsubscribe link of marketing emails: confirms with a button, so a link scanner changes nothing. */
  '/unsubscribe/*',
  /** A referee's link (no account): what the institution asks of them, depending on the link's token. */
  '/reference/*',
  /** The development mailbox (outside production only). */
  '/dev/mailbox',
  /** The test phone of the payment simulators (outside production only). */
  '/dev/phone',
] as const;

export function isAppRoute(pathname: string): boolean {
  return APP_ROUTE_PATTERNS.some((pattern) =>
    pattern.endsWith('/*') ? pathname.startsWith(pattern.slice(0, -1)) : pathname === pattern,
  );
}

/** Normalises a request path: no trailing slash except for the root. */
export function normalisePath(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.replace(/\/+$/, '') : pathname;
}

/** The file, relative to the prerender folder of a language, holding a page's HTML. */
export function prerenderFile(page: string): string {
  return page === '/' ? 'index.html' : `${page.slice(1)}.html`;
}

export const NOT_FOUND_PAGE = '/__not-found';

/**
 * Written by the web build: for the app routes a visit most often opens cold, per language, the script
 * and style files that route's first render needs beyond the app's own script. The server names them in
 * the page's head so the browser fetches them alongside that script instead of after it.
 */
export const FIRST_SCREEN_PRELOADS_FILE = '.vite/first-screen-preloads.json';
export type FirstScreenPreloads = Record<string, Record<string, { scripts: string[]; styles: string[] }>>;
