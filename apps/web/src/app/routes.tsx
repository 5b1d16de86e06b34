import { lazy, Suspense, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { REDIRECTS } from '@kaminuza/shared';
import { RootLayout } from './layouts/root-layout.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RedirectKeepingQuery } from './redirect.tsx';
import { RequireUserType } from './require-user-type.tsx';
import { RouteError } from './route-error.tsx';
import type { PageHandle } from './page-meta.ts';
import { loadAppTexts, loadPageTexts, loadStaffTexts } from '../lib/i18n.ts';

/** A lazily loaded screen: each one is its own chunk, fetched when its route is first visited. */
function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return { lazy: async () => ({ Component: pick(await load()) }) };
}

/** A public information page: its chunk and, in the app, the page texts it shows. */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return screen(async () => (await Promise.all([load(), loadPageTexts()]))[0], pick);
}

/** A feature screen of the signed-in areas: its chunk and the feature texts it shows. */
function feature<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return screen(async () => (await Promise.all([load(), loadAppTexts()]))[0], pick);
}

/** An admissions setup screen of the partner dashboard: its chunk and the setup texts. */
function staffFeature<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return screen(async () => (await Promise.all([load(), loadStaffTexts()]))[0], pick);
}

/** Title and description keys of a public page: `meta.<name>.title` / `meta.<name>.description`. */
function meta(name: string): { handle: PageHandle } {
  return { handle: { title: `meta.${name}.title`, description: `meta.${name}.description` } };
}

/*
 * What the home shows below the greeting (next steps, completion, shortcuts, the applications): one
 * chunk with its texts, requested when the greeting renders, so the first student screen stays within
 * its budget.
 */
const HomeSections = lazy(async () => {
  const [module] = await Promise.all([import('./home-sections.tsx'), loadAppTexts()]);
  return { default: module.HomeSections };
});

const loadApplying = () => import('../features/applications/components/application-route.tsx');
const applying = { handle: { title: 'applications.meta.title' } };

const redirects: RouteObject[] = Object.entries(REDIRECTS).map(([from, to]) => ({
  path: from,
  element: <RedirectKeepingQuery to={to} />,
}));

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          {
            index: true,
            ...meta('landing'),
            ...page(
              () => import('../features/landing/components/landing-page.tsx'),
              (m) => m.LandingPage,
            ),
          },
          {
            path: 'programs',
            ...meta('programs'),
            ...page(
              () => import('../features/public/components/programs-page.tsx'),
              (m) => m.ProgramsPage,
            ),
          },
          {
            path: 'resources',
            ...meta('resources'),
            ...page(
              () => import('../features/public/components/resources-page.tsx'),
              (m) => m.ResourcesPage,
            ),
          },
          {
            path: 'help',
            ...meta('help'),
            ...page(
              () => import('../features/public/components/help-page.tsx'),
              (m) => m.HelpPage,
            ),
          },
          {
            path: 'terms',
            ...meta('terms'),
            ...page(
              () => import('../features/public/components/terms-page.tsx'),
              (m) => m.TermsPage,
            ),
          },
          {
            path: 'privacy',
            ...meta('privacy'),
            ...page(
              () => import('../features/public/components/privacy-page.tsx'),
              (m) => m.PrivacyPage,
            ),
          },
          {
            path: 'contact-us',
            ...meta('contact'),
            ...page(
              () => import('../features/public/components/contact-page.tsx'),
              (m) => m.ContactPage,
            ),
          },
          {
            path: 'about/us',
            ...meta('about_us'),
            ...page(
              () => import('../features/public/components/about-us-page.tsx'),
              (m) => m.AboutUsPage,
            ),
          },
          {
            path: 'about/student',
            ...meta('about_student'),
            ...page(
              () => import('../features/public/components/about-student-page.tsx'),
              (m) => m.AboutStudentPage,
            ),
          },
          {
            path: 'about/partner',
            ...meta('about_partner'),
            ...page(
              () => import('../features/public/components/about-partner-page.tsx'),
              (m) => m.AboutPartnerPage,
            ),
          },
          {
            path: 'plan-for-university',
            ...meta('plan'),
            ...page(
              () => import('../features/public/components/plan-page.tsx'),
              (m) => m.PlanPage,
            ),
          },
          {
            path: 'waitlist',
            ...meta('waitlist'),
            ...screen(
              () => import('../features/waitlist/components/waitlist-page.tsx'),
              (m) => m.WaitlistPage,
            ),
          },
          {
            path: 'signup/live',
            ...meta('signup'),
            ...screen(
              () => import('../features/auth/components/sign-up-page.tsx'),
              (m) => m.SignUpPage,
            ),
          },
          {
            path: 'signup/partner',
            ...meta('partner_signup'),
            ...page(
              () => import('../features/partner/components/partner-sign-up-page.tsx'),
              (m) => m.PartnerSignUpPage,
            ),
          },
          {
            path: 'signup/partner/invitation',
            ...meta('partner_invitation'),
            ...staffFeature(
              () => import('../features/team/components/invitation-page.tsx'),
              (m) => m.InvitationPage,
            ),
          },
          {
            path: 'signup/partner/pending',
            ...meta('partner_pending'),
            ...page(
              () => import('../features/partner/components/partner-pending-page.tsx'),
              (m) => m.PartnerPendingPage,
            ),
          },
          {
            path: 'pending',
            ...meta('pending'),
            ...screen(
              () => import('../features/auth/components/pending-page.tsx'),
              (m) => m.PendingPage,
            ),
          },
          {
            path: 'auth/verify-email',
            ...meta('verify'),
            ...screen(
              () => import('../features/auth/components/verify-email-page.tsx'),
              (m) => m.VerifyEmailPage,
            ),
          },
          {
            path: 'login',
            ...meta('login'),
            ...screen(
              () => import('../features/auth/components/sign-in-page.tsx'),
              (m) => m.SignInPage,
            ),
          },
          {
            path: 'login/admin',
            ...meta('login_admin'),
            ...screen(
              () => import('../features/auth/components/sign-in-page.tsx'),
              (m) => m.AdminSignInPage,
            ),
          },
          {
            path: 'forgot-password',
            ...meta('forgot'),
            ...screen(
              () => import('../features/auth/components/forgot-password-page.tsx'),
              (m) => m.ForgotPasswordPage,
            ),
          },
          {
            path: 'reset-password',
            ...meta('reset'),
            ...screen(
              () => import('../features/auth/components/reset-password-page.tsx'),
              (m) => m.ResetPasswordPage,
            ),
          },
          {
            // The sandbox provider's hosted checkout; its title lives with its feature texts, not the core ones.
            path: 'pay',
            handle: { title: 'payments.page_title' } satisfies PageHandle,
            ...feature(
              () => import('../features/payments/components/pay-page.tsx'),
              (m) => m.PayPage,
            ),
          },
          {
            // Opened from a printed letter's QR code, signed in or not; its texts are the decision texts.
            path: 'letters/:code',
            handle: { title: 'decisions.verify.title' } satisfies PageHandle,
            ...feature(
              () => import('../features/letters/components/verify-letter-page.tsx'),
              (m) => m.VerifyLetterPage,
            ),
          },
          {
            // The unsubscribe link of marketing emails, signed in or not.
            path: 'unsubscribe/:token',
            handle: { title: 'notifications.unsubscribe.title' } satisfies PageHandle,
            ...feature(
              () => import('../features/notifications/components/unsubscribe-page.tsx'),
              (m) => m.UnsubscribePage,
            ),
          },
          {
            path: 'dev/mailbox',
            ...meta('mailbox'),
            ...screen(
              () => import('../features/dev-mailbox/components/dev-mailbox-page.tsx'),
              (m) => m.DevMailboxPage,
            ),
          },
          ...redirects,
          { path: '*', ...meta('not_found'), element: <NotFoundPage /> },
        ],
      },
      {
        element: <RequireUserType type="student" />,
        children: [
          {
            ...screen(
              () => import('./layouts/student-shell.tsx'),
              (m) => m.StudentShell,
            ),
            children: [
              {
                path: 'home',
                ...meta('home'),
                ...screen(
                  () => import('../features/home/components/home-page.tsx'),
                  ({ HomePage }) =>
                    function Home() {
                      return (
                        <HomePage>
                          <Suspense fallback={null}>
                            <HomeSections />
                          </Suspense>
                        </HomePage>
                      );
                    },
                ),
              },
              {
                path: 'support',
                ...meta('support'),
                ...feature(
                  () => import('../features/support/components/support-page.tsx'),
                  (m) => m.SupportPage,
                ),
              },
              {
                path: 'settings',
                ...meta('settings'),
                ...feature(
                  () => import('../features/settings/components/settings-page.tsx'),
                  (m) => m.SettingsPage,
                ),
              },
              { path: 'form' },
              {
                path: 'onboarding/student',
                ...meta('onboarding'),
                ...feature(
                  () => import('../features/onboarding/components/onboarding-page.tsx'),
                  (m) => m.OnboardingPage,
                ),
              },
              {
                path: 'profile',
                ...meta('profile'),
                ...feature(
                  () => import('../features/profile/components/profile-page.tsx'),
                  (m) => m.ProfilePage,
                ),
              },
              {
                path: 'partners',
                ...meta('explore'),
                ...feature(
                  () => import('./explore.tsx'),
                  (m) => m.Explore,
                ),
              },
              {
                path: 'partners/:partnerId',
                ...meta('university'),
                ...feature(
                  () => import('../features/universities/components/university-page.tsx'),
                  (m) => m.UniversityPage,
                ),
              },
              {
                path: 'partners/:partnerId/chat',
                ...meta('chat'),
                ...feature(
                  () => import('../features/chat/components/chat-page.tsx'),
                  (m) => m.ChatPage,
                ),
              },
              // The applications area and the application to an institution, with its views (spec section 2).
              {
                path: 'partners/:partnerId/*',
                ...applying,
                ...feature(loadApplying, (m) => m.PartnerApplicationRoute),
              },
              { path: 'application/*', ...applying, ...feature(loadApplying, (m) => m.AreaApplicationRoute) },
            ],
          },
        ],
      },
      {
        element: <RequireUserType type="admin" />,
        children: [
          {
            ...screen(
              () => import('./layouts/admin-shell.tsx'),
              (m) => m.AdminShell,
            ),
            children: [
              {
                path: 'admin/dashboard',
                ...meta('admin_dashboard'),
                ...feature(
                  () => import('../features/admin/components/admin-dashboard-page.tsx'),
                  (m) => m.AdminDashboardPage,
                ),
              },
              {
                path: 'admin/settings',
                ...meta('settings'),
                ...feature(
                  () => import('../features/settings/components/settings-page.tsx'),
                  (m) => m.SettingsPage,
                ),
              },
            ],
          },
        ],
      },
      {
        element: <RequireUserType type="staff" />,
        children: [
          {
            ...screen(
              () => import('./layouts/partner-shell.tsx'),
              (m) => m.PartnerShell,
            ),
            children: [
              {
                path: 'partner/dashboard',
                ...meta('partner_dashboard'),
                ...page(
                  () => import('../features/partner/components/partner-dashboard-page.tsx'),
                  (m) => m.PartnerDashboardPage,
                ),
              },
              {
                path: 'partner/profile',
                ...meta('partner_profile'),
                ...page(
                  () => import('../features/partner/components/partner-profile-page.tsx'),
                  (m) => m.PartnerProfilePage,
                ),
              },
              {
                path: 'partner/programs',
                ...meta('partner_programs'),
                ...staffFeature(
                  () => import('../features/programs/components/programs-page.tsx'),
                  (m) => m.ProgramsPage,
                ),
              },
              {
                path: 'partner/cycles',
                ...meta('partner_cycles'),
                ...staffFeature(
                  () => import('../features/cycles/components/cycles-page.tsx'),
                  (m) => m.CyclesPage,
                ),
              },
              {
                path: 'partner/forms',
                ...meta('partner_forms'),
                ...staffFeature(
                  () => import('../features/forms/components/forms-page.tsx'),
                  (m) => m.FormsPage,
                ),
              },
              {
                path: 'partner/forms/:formId',
                ...meta('partner_form'),
                ...staffFeature(
                  () => import('../features/forms/components/form-builder-page.tsx'),
                  (m) => m.FormBuilderPage,
                ),
              },
              {
                path: 'partner/team',
                ...meta('partner_team'),
                ...staffFeature(
                  () => import('../features/team/components/team-page.tsx'),
                  (m) => m.TeamPage,
                ),
              },
              {
                path: 'partner/settings',
                ...meta('partner_settings'),
                ...staffFeature(
                  () => import('../features/partner-settings/components/settings-page.tsx'),
                  (m) => m.SettingsPage,
                ),
              },
              {
                path: 'partner/account',
                ...meta('settings'),
                ...feature(
                  () => import('../features/settings/components/settings-page.tsx'),
                  (m) => m.SettingsPage,
                ),
              },
              {
                path: 'partner/messages',
                ...meta('partner_messages'),
                ...staffFeature(
                  () => import('../features/chat/components/inbox-page.tsx'),
                  (m) => m.InboxPage,
                ),
              },
              {
                path: 'partner/applications/new',
                // Its title lives with the screen's own texts, which only staff download.
                handle: { title: 'on_behalf.meta.title', description: 'on_behalf.meta.description' },
                ...staffFeature(
                  () => import('../features/on-behalf/components/on-behalf-page.tsx'),
                  (m) => m.OnBehalfPage,
                ),
              },
              {
                path: 'partner/applications',
                handle: { title: 'review.meta.queue_title', description: 'review.meta.queue_description' },
                ...staffFeature(
                  () => import('../features/review/components/review-queue-page.tsx'),
                  (m) => m.ReviewQueuePage,
                ),
              },
              {
                // 'partner/applications/new' above is ranked first: a static segment beats a parameter.
                path: 'partner/applications/:submissionId',
                handle: { title: 'review.meta.application_title', description: 'review.meta.application_description' },
                ...staffFeature(
                  () => import('../features/review/components/review-application-page.tsx'),
                  (m) => m.ReviewApplicationPage,
                ),
              },
              { path: 'partner/*', ...meta('not_found'), element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];
