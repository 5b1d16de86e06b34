import type { RouteObject } from 'react-router';
import { RootLayout } from './layouts/root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { linkRoutes, publicRoutes } from './routes/public-routes.tsx';
import { studentRoutes } from './routes/student-routes.tsx';
import { adminRoutes } from './routes/admin-routes.tsx';
import { partnerRoutes } from './routes/partner-routes.tsx';

/** The route table: one tree per shell (routes/), each shell's screens loaded lazily. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [publicRoutes, linkRoutes, studentRoutes, adminRoutes, partnerRoutes],
  },
];
