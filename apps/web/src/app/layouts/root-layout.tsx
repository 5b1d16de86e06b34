import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useDocumentTitle } from '../page-meta.ts';
import { OfflineBanner } from '../../components/offline-banner.tsx';
import { UpdatePrompt } from '../../components/update-prompt.tsx';

/** Every route change scrolls to the top (spec section 2). */
function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

export function RootLayout() {
  useDocumentTitle();
  return (
    <>
      <ScrollToTop />
      <OfflineBanner />
      <Outlet />
      <UpdatePrompt />
    </>
  );
}
