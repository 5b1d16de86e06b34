import type { MouseEvent } from 'react';
import { Link, NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '../../components/language-switcher.tsx';
import { ThemeSwitcher } from '../../components/theme-switcher.tsx';
import { paths } from '../../lib/paths.ts';
import { HeaderAccountLinks, MenuGetStarted } from '../../components/account-links.tsx';

const NAV = [
  { to: paths.aboutStudent, key: 'nav.students' },
  { to: paths.aboutPartner, key: 'nav.institutions' },
  { to: paths.planForUniversity, key: 'nav.plan' },
  { to: paths.resources, key: 'nav.resources' },
  { to: paths.aboutUs, key: 'nav.about' },
] as const;

export function Logo({ wordmarkClassName = '' }: { wordmarkClassName?: string }) {
  return (
    <span className="flex items-center gap-2 text-lg font-extrabold tracking-tight">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8">
        <rect width="32" height="32" rx="7" fill="#0f5e4d" />
        <path
          d="M10 7v18M10 16l10-9M13 14l8 11"
          stroke="#f7c948"
          strokeWidth="3.2"
          fill="none"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className={wordmarkClassName}>Kaminuza</span>
    </span>
  );
}

/** In the app, a link inside the open menu closes it (static pages navigate away anyway). */
function closeMenu(event: MouseEvent<HTMLElement>) {
  event.currentTarget.closest('details')?.removeAttribute('open');
}

export function SiteHeader() {
  const { t } = useTranslation();
  return (
    <header className="group/header relative border-b border-border bg-surface">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:p-3">
        {t('nav.skip_to_content')}
      </a>
      <div className="container-page flex min-h-16 items-center justify-between gap-3">
        <Link to={paths.landing} aria-label={t('nav.home_label')}>
          {/* On a small phone the link to a signed-in visitor's dashboard needs the wordmark's room. */}
          <Logo wordmarkClassName="max-[419px]:group-has-[[data-session=signed-in]]/header:sr-only" />
        </Link>
        <nav aria-label={t('nav.main_label')} className="hidden lg:block">
          <ul className="flex items-center gap-5 text-sm font-medium">
            {NAV.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  className={({ isActive }) => (isActive ? 'text-brand' : 'text-fg hover:text-brand')}
                >
                  {t(item.key)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          <div className="hidden items-center gap-2 sm:flex">
            <LanguageSwitcher />
            <ThemeSwitcher />
          </div>
          <HeaderAccountLinks />
          {/* A native disclosure: the menu works before (and without) any script. */}
          <details className="group lg:hidden">
            <summary className="btn-secondary cursor-pointer list-none [&::-webkit-details-marker]:hidden">
              <span className="group-open:hidden">{t('nav.menu')}</span>
              <span className="hidden group-open:inline">{t('nav.close_menu')}</span>
            </summary>
            <nav
              aria-label={t('nav.mobile_label')}
              className="absolute inset-x-0 top-full z-40 border-b border-border bg-surface px-4 pb-4 shadow-lg sm:px-6"
            >
              <ul className="flex flex-col py-2">
                {NAV.map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to} onClick={closeMenu} className="block py-3 font-medium">
                      {t(item.key)}
                    </NavLink>
                  </li>
                ))}
              </ul>
              <div className="flex flex-wrap items-center gap-2 sm:hidden">
                <LanguageSwitcher />
                <ThemeSwitcher />
                <MenuGetStarted onNavigate={closeMenu} />
              </div>
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}
