import type { RouteObject } from 'react-router';
import { REDIRECTS } from '@kaminuza/shared';
import { LinkLayout } from '../layouts/link-layout.tsx';
import { PublicLayout } from '../layouts/public-layout.tsx';
import { NotFoundPage } from '../not-found-page.tsx';
import { RedirectKeepingQuery } from '../redirect.tsx';
import type { PageHandle } from '../page-meta.ts';
import { feature, meta, page, screen, staffFeature } from './lazy-screens.ts';

const redirects: RouteObject[] = Object.entries(REDIRECTS).map(([from, to]) => ({
  path: from,
  element: <RedirectKeepingQuery to={to} />,
}));

/** The public site: information pages, the ways in, and the pages opened from a link signed in or not. */
export const publicRoutes: RouteObject = {
  element: <PublicLayout />,
  children: [
    {
      index: true,
      ...meta('landing'),
      ...page(
        () => import('../../features/landing/components/landing-page.tsx'),
        (m) => m.LandingPage,
      ),
    },
    {
      path: 'programs',
      ...meta('programs'),
      ...page(
        () => import('../../features/public/components/programs-page.tsx'),
        (m) => m.ProgramsPage,
      ),
    },
    {
      path: 'resources',
      ...meta('resources'),
      ...page(
        () => import('../../features/public/components/resources-page.tsx'),
        (m) => m.ResourcesPage,
      ),
    },
    {
      path: 'help',
      ...meta('help'),
      ...page(
        () => import('../../features/public/components/help-page.tsx'),
        (m) => m.HelpPage,
      ),
    },
    {
      path: 'terms',
      ...meta('terms'),
      ...page(
        () => import('../../features/public/components/terms-page.tsx'),
        (m) => m.TermsPage,
      ),
    },
    {
      path: 'privacy',
      ...meta('privacy'),
      ...page(
        () => import('../../features/public/components/privacy-page.tsx'),
        (m) => m.PrivacyPage,
      ),
    },
    {
      path: 'contact-us',
      ...meta('contact'),
      ...page(
        () => import('../../features/public/components/contact-page.tsx'),
        (m) => m.ContactPage,
      ),
    },
    {
      path: 'about/us',
      ...meta('about_us'),
      ...page(
        () => import('../../features/public/components/about-us-page.tsx'),
        (m) => m.AboutUsPage,
      ),
    },
    {
      path: 'about/student',
      ...meta('about_student'),
      ...page(
        () => import('../../features/public/components/about-student-page.tsx'),
        (m) => m.AboutStudentPage,
      ),
    },
    {
      path: 'about/partner',
      ...meta('about_partner'),
      ...page(
        () => import('../../features/public/components/about-partner-page.tsx'),
        (m) => m.AboutPartnerPage,
      ),
    },
    {
      path: 'plan-for-university',
      ...meta('plan'),
      ...page(
        () => import('../../features/public/components/plan-page.tsx'),
        (m) => m.PlanPage,
      ),
    },
    {
      path: 'waitlist',
      ...meta('waitlist'),
      ...screen(
        () => import('../../features/waitlist/components/waitlist-page.tsx'),
        (m) => m.WaitlistPage,
      ),
    },
    {
      path: 'signup/live',
      ...meta('signup'),
      ...screen(
        () => import('../../features/auth/components/sign-up-page.tsx'),
        (m) => m.SignUpPage,
      ),
    },
    {
      path: 'signup/partner',
      ...meta('partner_signup'),
      ...page(
        () => import('../../features/partner/components/partner-sign-up-page.tsx'),
        (m) => m.PartnerSignUpPage,
      ),
    },
    {
      path: 'signup/partner/invitation',
      ...meta('partner_invitation'),
      ...staffFeature(
        () => import('../../features/team/components/invitation-page.tsx'),
        (m) => m.InvitationPage,
      ),
    },
    {
      path: 'signup/partner/pending',
      ...meta('partner_pending'),
      ...page(
        () => import('../../features/partner/components/partner-pending-page.tsx'),
        (m) => m.PartnerPendingPage,
      ),
    },
    {
      path: 'pending',
      ...meta('pending'),
      ...screen(
        () => import('../../features/auth/components/pending-page.tsx'),
        (m) => m.PendingPage,
      ),
    },
    {
      path: 'auth/verify-email',
      ...meta('verify'),
      ...screen(
        () => import('../../features/auth/components/verify-email-page.tsx'),
        (m) => m.VerifyEmailPage,
      ),
    },
    {
      path: 'login',
      ...meta('login'),
      ...screen(
        () => import('../../features/auth/components/sign-in-page.tsx'),
        (m) => m.SignInPage,
      ),
    },
    {
      path: 'login/admin',
      ...meta('login_admin'),
      ...screen(
        () => import('../../features/auth/components/sign-in-page.tsx'),
        (m) => m.AdminSignInPage,
      ),
    },
    {
      path: 'forgot-password',
      ...meta('forgot'),
      ...screen(
        () => import('../../features/auth/components/forgot-password-page.tsx'),
        (m) => m.ForgotPasswordPage,
      ),
    },
    {
      path: 'reset-password',
      ...meta('reset'),
      ...screen(
        () => import('../../features/auth/components/reset-password-page.tsx'),
        (m) => m.ResetPasswordPage,
      ),
    },
    {
      // The sandbox provider's hosted checkout; its title lives with its feature texts, not the core ones.
      path: 'pay',
      handle: { title: 'payments.page_title' } satisfies PageHandle,
      ...feature(
        () => import('../../features/payments/components/pay-page.tsx'),
        (m) => m.PayPage,
      ),
    },
    {
      // Opened from a printed letter's QR code, signed in or not; its texts are the decision texts.
      path: 'letters/:code',
      handle: { title: 'decisions.verify.title' } satisfies PageHandle,
      ...feature(
        () => import('../../features/letters/components/verify-letter-page.tsx'),
        (m) => m.VerifyLetterPage,
      ),
    },
    {
      // Opened from a printed receipt's QR code, signed in or not.
      path: 'verify/receipt/:code',
      handle: { title: 'receipts.verify.title' } satisfies PageHandle,
      ...feature(
        () => import('../../features/payments/components/verify-receipt-page.tsx'),
        (m) => m.VerifyReceiptPage,
      ),
    },
    {
      // The unsubscribe link of marketing emails, signed in or not.
      path: 'unsubscribe/:token',
      handle: { title: 'notifications.unsubscribe.title' } satisfies PageHandle,
      ...feature(
        () => import('../../features/notifications/components/unsubscribe-page.tsx'),
        (m) => m.UnsubscribePage,
      ),
    },
    {
      path: 'dev/mailbox',
      ...meta('mailbox'),
      ...screen(
        () => import('../../features/dev-mailbox/components/dev-mailbox-page.tsx'),
        (m) => m.DevMailboxPage,
      ),
    },
    {
      path: 'dev/phone',
      ...meta('phone'),
      ...screen(
        () => import('../../features/dev-phone/components/dev-phone-page.tsx'),
        (m) => m.DevPhonePage,
      ),
    },
    ...redirects,
    { path: '*', ...meta('not_found'), element: <NotFoundPage /> },
  ],
};

/**
 * Pages opened from an emailed link by someone without an account, around which the site's navigation
 * and account links would only distract: a referee's reference request.
 */
export const linkRoutes: RouteObject = {
  element: <LinkLayout />,
  children: [
    {
      path: 'reference/:token',
      handle: { title: 'referees.page.meta_title', description: 'referees.page.meta_description' } satisfies PageHandle,
      // Its texts are common ones: the page needs none of the feature screens' catalogue.
      ...screen(
        () => import('../../features/referees/components/reference-page.tsx'),
        (m) => m.ReferencePage,
      ),
    },
  ],
};
