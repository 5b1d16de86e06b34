import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { RequireUserType } from '../require-user-type.tsx';
import { loadAppTexts } from '../../lib/i18n.ts';
import { feature, meta, screen } from './lazy-screens.ts';

/*
 * What the home shows below the greeting (next steps, completion, shortcuts, the applications): one
 * chunk with its texts, requested when the greeting renders, so the first student screen stays within
 * its budget.
 */
const HomeSections = lazy(async () => {
  const [module] = await Promise.all([import('../home-sections.tsx'), loadAppTexts()]);
  return { default: module.HomeSections };
});

/** The applying screens, with the fee waiver panel they show beside the payment. */
const loadApplying = async () => {
  const [routes, { withApplicationSlots }] = await Promise.all([
    import('../../features/applications/components/application-route.tsx'),
    import('../application-slots.tsx'),
  ]);
  return {
    PartnerApplicationRoute: withApplicationSlots(routes.PartnerApplicationRoute),
    AreaApplicationRoute: withApplicationSlots(routes.AreaApplicationRoute),
  };
};
const applying = { handle: { title: 'applications.meta.title' } };

/** The student's area: signed-in students only, in the student shell. */
export const studentRoutes: RouteObject = {
  element: <RequireUserType type="student" />,
  children: [
    {
      ...screen(
        () => import('../layouts/student-shell.tsx'),
        (m) => m.StudentShell,
      ),
      children: [
        {
          path: 'home',
          ...meta('home'),
          ...screen(
            () => import('../../features/home/components/home-page.tsx'),
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
            () => import('../../features/support/components/support-page.tsx'),
            (m) => m.SupportPage,
          ),
        },
        {
          path: 'settings',
          ...meta('settings'),
          ...feature(
            () => import('../account-settings.tsx'),
            (m) => m.AccountSettings,
          ),
        },
        { path: 'form' },
        {
          path: 'onboarding/student',
          ...meta('onboarding'),
          ...feature(
            () => import('../../features/onboarding/components/onboarding-page.tsx'),
            (m) => m.OnboardingPage,
          ),
        },
        {
          path: 'profile',
          ...meta('profile'),
          ...feature(
            () => import('../../features/profile/components/profile-page.tsx'),
            (m) => m.ProfilePage,
          ),
        },
        {
          path: 'partners',
          ...meta('explore'),
          ...feature(
            () => import('../explore.tsx'),
            (m) => m.Explore,
          ),
        },
        {
          path: 'partners/:partnerId',
          ...meta('university'),
          ...feature(
            () => import('../../features/universities/components/university-page.tsx'),
            (m) => m.UniversityPage,
          ),
        },
        {
          path: 'partners/:partnerId/chat',
          ...meta('chat'),
          ...feature(
            () => import('../../features/chat/components/chat-page.tsx'),
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
};
