/**
 * The api reads an applicant needs offline (spec: readable offline): their session, their applications
 * list, where they stand with each institution, a draft and its form, a submitted application's receipt, the decisions released to them and their letters. Shared by
 * the service worker, which caches their answers, and by tests.
 */
import { isAppRoute, normalisePath } from '@kaminuza/shared/routes';

const READS: readonly RegExp[] = [
  /^\/api\/v1\/auth\/session$/,
  /^\/api\/v1\/applications$/,
  /^\/api\/v1\/partners\/[^/]+\/application$/,
  // A draft with its form: the form opens offline (its answers since then come from the device, ADR 040).
  /^\/api\/v1\/applications\/[^/]+$/,
  /^\/api\/v1\/applications\/[^/]+\/submission$/,
  /^\/api\/v1\/decisions$/,
  /^\/api\/v1\/applications\/[^/]+\/decision$/,
  /^\/api\/v1\/applications\/[^/]+\/decision\/letter$/,
];

/** The Cache Storage cache holding those answers: one signed-in person's, emptied at sign-in and sign-out. */
export const READS_CACHE = 'kaminuza-reads';

/** Set by the service worker on an answer it stored: when the server gave it, as an ISO time. */
export const CACHED_AT_HEADER = 'x-kaminuza-cached-at';

export function isOfflineRead(url: URL, origin: string): boolean {
  return url.origin === origin && READS.some((pattern) => pattern.test(url.pathname));
}

/**
 * The address the app shell is precached under. The server answers every app route with the same shell
 * (index.html is not served by its own name), so the shell is stored as one of them.
 */
export const APP_SHELL_URL = '/home';

/**
 * Whether a navigation is answered with the precached shell: the signed-in areas only, which the browser
 * renders. Public pages (prerendered per language) and the api always go to the server.
 */
export function opensAppShell(url: URL, origin: string): boolean {
  return url.origin === origin && isAppRoute(normalisePath(url.pathname));
}

/** The copy of an answer the service worker stores: the same, stamped with when it was fetched. */
export async function stampedCopy(response: Response, now: Date = new Date()): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.set(CACHED_AT_HEADER, now.toISOString());
  return new Response(await response.arrayBuffer(), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
