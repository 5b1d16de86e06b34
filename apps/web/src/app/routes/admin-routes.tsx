import type { RouteObject } from 'react-router';
import { RequireUserType } from '../require-user-type.tsx';
import { feature, meta, screen } from './lazy-screens.ts';

/** The platform admin's area: signed-in admins only, in the admin shell. */
export const adminRoutes: RouteObject = {
  element: <RequireUserType type="admin" />,
  children: [
    {
      ...screen(
        () => import('../layouts/admin-shell.tsx'),
        (m) => m.AdminShell,
      ),
      children: [
        {
          path: 'admin/dashboard',
          ...meta('admin_dashboard'),
          ...feature(
            () => import('../admin-dashboard.tsx'),
            (m) => m.AdminDashboard,
          ),
        },
        {
          path: 'admin/settings',
          ...meta('settings'),
          ...feature(
            () => import('../account-settings.tsx'),
            (m) => m.AccountSettings,
          ),
        },
      ],
    },
  ],
};
