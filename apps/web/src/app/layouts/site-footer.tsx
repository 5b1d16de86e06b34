import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { COPYRIGHT_YEAR } from '@kaminuza/shared';
import { paths } from '../../lib/paths.ts';

const COLUMNS = [
  {
    key: 'footer.platform',
    links: [
      { to: paths.aboutStudent, key: 'nav.students' },
      { to: paths.aboutPartner, key: 'nav.institutions' },
      { to: paths.programs, key: 'nav.programs' },
      { to: paths.planForUniversity, key: 'nav.plan' },
    ],
  },
  {
    key: 'footer.company',
    links: [
      { to: paths.aboutUs, key: 'nav.about' },
      { to: paths.resources, key: 'nav.resources' },
      { to: paths.contactUs, key: 'nav.contact' },
    ],
  },
  {
    key: 'footer.support',
    links: [
      { to: paths.help, key: 'nav.help' },
      { to: paths.terms, key: 'nav.terms' },
      { to: paths.privacy, key: 'nav.privacy' },
    ],
  },
] as const;

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="mt-16 border-t border-border bg-surface">
      <div className="container-page grid gap-8 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="font-bold">Kaminuza</p>
          <p className="mt-2 text-sm text-muted">{t('footer.tagline')}</p>
          <p className="mt-4 text-sm">{t('footer.support_hours')}</p>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.key} aria-label={t(column.key)}>
            <h2 className="text-sm font-semibold">{t(column.key)}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-muted hover:text-brand">
                    {t(link.key)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="container-page border-t border-border py-4 text-sm text-muted">
        {t('footer.copyright', { year: COPYRIGHT_YEAR })}
      </p>
    </footer>
  );
}
