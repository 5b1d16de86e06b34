import { Outlet } from 'react-router';
import { SiteHeader } from './site-header.tsx';
import { SiteFooter } from './site-footer.tsx';

export function PublicLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
