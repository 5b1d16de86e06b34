/*
 * The entry pages an applicant meets first, each a document of its own with the light bundle of ADR 044
 * (`account-entry.tsx` in the browser, `account-server.tsx` for the prerender); inside the app the same
 * screens are routes of the app's router (app/routes/public-routes.tsx). Each page's `meta.<name>` texts
 * (title, description) and its module as the build's manifest names it (the page preloads that chunk;
 * bench/bundle.ts measures from it).
 */
export const ACCOUNT_PAGE_MODULES = {
  '/signup/live': { meta: 'signup', module: 'src/features/auth/components/sign-up-page.tsx' },
  '/login': { meta: 'login', module: 'src/features/auth/components/sign-in-page.tsx' },
  '/forgot-password': { meta: 'forgot', module: 'src/features/auth/components/forgot-password-page.tsx' },
  '/reset-password': { meta: 'reset', module: 'src/features/auth/components/reset-password-page.tsx' },
} as const satisfies Record<string, { meta: string; module: string }>;
