import type { ReactNode } from 'react';
import { SiteHeader } from './site-header.tsx';
import { SiteFooter } from './site-footer.tsx';

/** The public site's header, main region and footer around a page. */
export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
