import type { ComponentType } from 'react';
import { ACCOUNT_PAGE_MODULES } from './page-modules.ts';

export interface AccountPage {
  /** The `meta.<name>` texts of its title and description. */
  meta: string;
  /** Its module, as the build's manifest names it. */
  module: string;
  load: () => Promise<ComponentType>;
}

const pages = ACCOUNT_PAGE_MODULES;

/** The entry pages (page-modules.ts) with their screens, loaded on demand. */
export const ACCOUNT_PAGES: Readonly<Record<string, AccountPage>> = {
  '/signup/live': {
    ...pages['/signup/live'],
    load: () => import('../features/auth/components/sign-up-page.tsx').then((m) => m.SignUpPage),
  },
  '/login': {
    ...pages['/login'],
    load: () => import('../features/auth/components/sign-in-page.tsx').then((m) => m.SignInPage),
  },
  '/forgot-password': {
    ...pages['/forgot-password'],
    load: () => import('../features/auth/components/forgot-password-page.tsx').then((m) => m.ForgotPasswordPage),
  },
  '/reset-password': {
    ...pages['/reset-password'],
    load: () => import('../features/auth/components/reset-password-page.tsx').then((m) => m.ResetPasswordPage),
  },
};
