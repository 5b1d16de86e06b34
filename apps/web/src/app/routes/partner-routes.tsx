import type { RouteObject } from 'react-router';
import { NotFoundPage } from '../not-found-page.tsx';
import { RequireUserType } from '../require-user-type.tsx';
import { feature, meta, page, screen, staffFeature } from './lazy-screens.ts';

/** An institution's dashboard: signed-in staff only, in the partner shell. */
export const partnerRoutes: RouteObject = {
  element: <RequireUserType type="staff" />,
  children: [
    {
      ...screen(
        () => import('../layouts/partner-shell.tsx'),
        (m) => m.PartnerShell,
      ),
      children: [
        {
          path: 'partner/dashboard',
          ...meta('partner_dashboard'),
          ...page(
            () => import('../../features/partner/components/partner-dashboard-page.tsx'),
            (m) => m.PartnerDashboardPage,
          ),
        },
        {
          path: 'partner/profile',
          ...meta('partner_profile'),
          ...page(
            () => import('../../features/partner/components/partner-profile-page.tsx'),
            (m) => m.PartnerProfilePage,
          ),
        },
        {
          path: 'partner/programs',
          ...meta('partner_programs'),
          ...staffFeature(
            () => import('../../features/programs/components/programs-page.tsx'),
            (m) => m.ProgramsPage,
          ),
        },
        {
          path: 'partner/cycles',
          ...meta('partner_cycles'),
          ...staffFeature(
            () => import('../../features/cycles/components/cycles-page.tsx'),
            (m) => m.CyclesPage,
          ),
        },
        {
          path: 'partner/forms',
          ...meta('partner_forms'),
          ...staffFeature(
            () => import('../../features/forms/components/forms-page.tsx'),
            (m) => m.FormsPage,
          ),
        },
        {
          path: 'partner/forms/:formId',
          ...meta('partner_form'),
          ...staffFeature(
            () => import('../../features/forms/components/form-builder-page.tsx'),
            (m) => m.FormBuilderPage,
          ),
        },
        {
          path: 'partner/team',
          ...meta('partner_team'),
          ...staffFeature(
            () => import('../../features/team/components/team-page.tsx'),
            (m) => m.TeamPage,
          ),
        },
        {
          path: 'partner/settings',
          ...meta('partner_settings'),
          ...staffFeature(
            () => import('../../features/partner-settings/components/settings-page.tsx'),
            (m) => m.SettingsPage,
          ),
        },
        {
          path: 'partner/account',
          ...meta('settings'),
          ...feature(
            () => import('../account-settings.tsx'),
            (m) => m.AccountSettings,
          ),
        },
        {
          path: 'partner/messages',
          ...meta('partner_messages'),
          ...staffFeature(
            () => import('../../features/chat/components/inbox-page.tsx'),
            (m) => m.InboxPage,
          ),
        },
        {
          path: 'partner/applications/new',
          // Its title lives with the screen's own texts, which only staff download.
          handle: { title: 'on_behalf.meta.title', description: 'on_behalf.meta.description' },
          ...staffFeature(
            () => import('../../features/on-behalf/components/on-behalf-page.tsx'),
            (m) => m.OnBehalfPage,
          ),
        },
        {
          path: 'partner/applications',
          handle: { title: 'review.meta.queue_title', description: 'review.meta.queue_description' },
          ...staffFeature(
            () => import('../../features/review/components/review-queue-page.tsx'),
            (m) => m.ReviewQueuePage,
          ),
        },
        {
          // 'partner/applications/new' above is ranked first: a static segment beats a parameter.
          path: 'partner/applications/:submissionId',
          handle: { title: 'review.meta.application_title', description: 'review.meta.application_description' },
          ...staffFeature(
            () => import('../../features/review/components/review-application-page.tsx'),
            (m) => m.ReviewApplicationPage,
          ),
        },
        {
          path: 'partner/finance',
          // Its title lives with the screen's own texts, which only staff download.
          handle: { title: 'finance.meta.title', description: 'finance.meta.description' },
          ...staffFeature(
            () => import('../../features/finance/components/finance-page.tsx'),
            (m) => m.FinancePage,
          ),
        },
        {
          path: 'partner/fee-waivers',
          handle: { title: 'waivers.meta.title', description: 'waivers.meta.description' },
          ...staffFeature(
            () => import('../../features/waivers/components/fee-waivers-page.tsx'),
            (m) => m.FeeWaiversPage,
          ),
        },
        { path: 'partner/*', ...meta('not_found'), element: <NotFoundPage /> },
      ],
    },
  ],
};
