import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { lazy, Suspense, useState } from 'react';
import type { UnreadCounts } from '@kaminuza/shared';
import { LanguageSwitcher } from '../../components/language-switcher.tsx';
import { ThemeSwitcher } from '../../components/theme-switcher.tsx';
import { Logo } from './site-header.tsx';
import { useAccountTheme } from '../../lib/account-settings.ts';
import { useSession } from '../../lib/session.tsx';
import { paths } from '../../lib/paths.ts';

const LiveUpdates = lazy(async () => ({ default: (await import('./live-updates.tsx')).LiveUpdates }));
// The bell and its queries load after the first screen, like the live updates it listens to.
const NotificationsBell = lazy(async () => ({
  default: (await import('../../features/notifications/components/notifications-bell.tsx')).NotificationsBell,
}));

export interface ShellLink {
  to: string;
  key: string;
  /**
   * On phones a secondary link sits in the header's menu instead of the bottom bar, which keeps room for
   * four or five whole words in every language; on wide screens the rail shows every link.
   */
  secondary?: boolean;
  /** The unread count this link shows as a badge, if any. */
  unread?: keyof UnreadCounts;
}

function UnreadBadge({ count }: { count: number }) {
  const { t } = useTranslation();
  if (count <= 0) return null;
  return (
    <>
      <span
        aria-hidden="true"
        className="ms-1 inline-flex min-w-5 items-center justify-center rounded-full bg-brand px-1.5 text-xs leading-5 font-semibold text-on-brand"
      >
        {count > 99 ? '99+' : count}
      </span>
      <span className="sr-only">{` (${t('shell.unread', { count })})`}</span>
    </>
  );
}

/**
 * A link is the current page unless a longer link under it is (the review queue and, below it, the page
 * that submits for an applicant): only the most specific link is marked.
 */
function shadowedBy(links: readonly ShellLink[], link: ShellLink, pathname: string): boolean {
  return links.some(
    (other) => other.to.startsWith(`${link.to}/`) && (pathname === other.to || pathname.startsWith(`${other.to}/`)),
  );
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `flex min-h-12 items-center justify-center rounded-lg px-1 text-center text-xs font-medium break-words md:justify-start md:px-3 md:text-left md:text-sm ${isActive ? 'text-brand md:bg-surface-muted' : 'text-muted hover:text-fg'}`;

/**
 * The frame shared by the signed-in areas: a top bar, a navigation that is a side rail on wide screens
 * and a bottom bar on phones, and the page.
 */
function AccountControls({ onSignOut }: { onSignOut: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <LanguageSwitcher />
      <ThemeSwitcher />
      <button type="button" className="btn-secondary" onClick={onSignOut}>
        {t('auth.sign_out')}
      </button>
    </>
  );
}

export function AppShell({ label, links, home }: { label: string; links: readonly ShellLink[]; home: string }) {
  const { t } = useTranslation();
  const { signOut, session } = useSession();
  useAccountTheme();
  const navigate = useNavigate();
  const leave = () => void signOut().finally(() => navigate(paths.login, { replace: true }));
  const secondary = links.filter((link) => link.secondary);
  const [unread, setUnread] = useState<UnreadCounts | null>(null);
  const badgeOf = (link: ShellLink) => (link.unread && unread ? <UnreadBadge count={unread[link.unread]} /> : null);
  const { pathname } = useLocation();
  const current = (link: ShellLink) => (shadowedBy(links, link, pathname) ? { 'aria-current': false as const } : {});
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-border bg-surface">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:p-3">
          {t('nav.skip_to_content')}
        </a>
        <div className="relative flex min-h-14 items-center justify-between gap-3 px-4 py-2">
          <Link to={home} aria-label={t('nav.home_label')}>
            <Logo />
          </Link>
          <div className="flex items-center gap-2">
            <Suspense fallback={<span aria-hidden="true" className="inline-block size-11" />}>
              <NotificationsBell enabled={session.status === 'signed-in'} />
            </Suspense>
            <div className="hidden items-center gap-2 md:flex">
              <AccountControls onSignOut={leave} />
            </div>
            {/* On phones the controls fold into a native disclosure, like the public header's menu. */}
            <details className="group md:hidden">
              <summary className="btn-secondary cursor-pointer list-none [&::-webkit-details-marker]:hidden">
                <span className="group-open:hidden">{t('nav.menu')}</span>
                <span className="hidden group-open:inline">{t('nav.close_menu')}</span>
              </summary>
              <div className="absolute inset-x-0 top-full z-50 flex flex-col gap-3 border-b border-border bg-surface p-4 shadow-lg">
                {secondary.length > 0 && (
                  <nav aria-label={label}>
                    <ul className="flex flex-col gap-1">
                      {secondary.map((link) => (
                        <li key={link.to}>
                          <NavLink
                            to={link.to}
                            className="link flex min-h-11 items-center font-medium"
                            {...current(link)}
                          >
                            {t(link.key)}
                            {badgeOf(link)}
                          </NavLink>
                        </li>
                      ))}
                    </ul>
                  </nav>
                )}
                <div className="flex flex-wrap items-center gap-2">
                  <AccountControls onSignOut={leave} />
                </div>
              </div>
            </details>
          </div>
        </div>
      </header>
      {/* One socket for the whole signed-in area; every screen below reads through TanStack Query. */}
      <Suspense fallback={null}>
        <LiveUpdates enabled={session.status === 'signed-in'} onUnread={setUnread} />
      </Suspense>
      <div className="flex flex-1">
        <nav
          aria-label={label}
          className="fixed inset-x-0 bottom-0 z-40 border-t border-border bg-surface md:static md:w-56 md:border-t-0 md:border-r"
        >
          <ul className="grid auto-cols-[minmax(0,1fr)] grid-flow-col md:flex md:flex-col md:gap-1 md:p-3">
            {links.map((link) => (
              <li key={link.to} className={link.secondary ? 'hidden md:block' : undefined}>
                <NavLink
                  to={link.to}
                  className={({ isActive }) =>
                    navLinkClass({ isActive: isActive && !shadowedBy(links, link, pathname) })
                  }
                  {...current(link)}
                >
                  <span>
                    {t(link.key)}
                    {badgeOf(link)}
                  </span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 pb-24 focus:outline-none md:pb-4">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
