import { Link, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '../../components/language-switcher.tsx';
import { ThemeSwitcher } from '../../components/theme-switcher.tsx';
import { paths } from '../../lib/paths.ts';
import { Logo } from './site-header.tsx';

/**
 * Around a page opened from an emailed link by someone without an account (a referee): the name, the
 * language and theme, and the terms and privacy notice. No navigation of the site or of an account.
 */
export function LinkLayout() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-border bg-surface">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:p-3">
          {t('nav.skip_to_content')}
        </a>
        <div className="container-page flex min-h-16 flex-wrap items-center justify-between gap-x-3 gap-y-2 py-2">
          <Logo wordmarkClassName="max-[379px]:sr-only" />
          <div className="flex items-center gap-2">
            <LanguageSwitcher />
            <ThemeSwitcher />
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <footer className="border-t border-border bg-surface">
        <ul className="container-page flex flex-wrap gap-x-6 gap-y-2 py-4 text-sm">
          <li>
            <Link className="link" to={paths.privacy}>
              {t('nav.privacy')}
            </Link>
          </li>
          <li>
            <Link className="link" to={paths.terms}>
              {t('nav.terms')}
            </Link>
          </li>
        </ul>
      </footer>
    </div>
  );
}
