import type { ComponentType } from 'react';

/*
 * The entry pages an applicant meets first, each a document of its own with the light bundle of ADR 044
 * (`account-entry.tsx` in the browser, `account-server.tsx` for the prerender). Inside the app the same
 * screens are routes of the app's router (app/routes/public-routes.tsx).
 */
export interface AccountPage {
  /** The `meta.<name>` texts of its title and description. */
  meta: string;
  /** Its module, as the build's manifest names it: the page names that chunk for preloading. */
  module: string;
  load: () => Promise<ComponentType>;
}

export const ACCOUNT_PAGES: Readonly<Record<string, AccountPage>> = {
  '/signup/live': {
    meta: 'signup',
    module: 'src/features/auth/components/sign-up-page.tsx',
    load: () => import('../features/auth/components/sign-up-page.tsx').then((m) => m.SignUpPage),
  },
  '/login': {
    meta: 'login',
    module: 'src/features/auth/components/sign-in-page.tsx',
    load: () => import('../features/auth/components/sign-in-page.tsx').then((m) => m.SignInPage),
  },
  '/forgot-password': {
    meta: 'forgot',
    module: 'src/features/auth/components/forgot-password-page.tsx',
    load: () => import('../features/auth/components/forgot-password-page.tsx').then((m) => m.ForgotPasswordPage),
  },
  '/reset-password': {
    meta: 'reset',
    module: 'src/features/auth/components/reset-password-page.tsx',
    load: () => import('../features/auth/components/reset-password-page.tsx').then((m) => m.ResetPasswordPage),
  },
};
