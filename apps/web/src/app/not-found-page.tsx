import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../lib/paths.ts';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="prose-page py-20 text-center">
      <p className="text-6xl font-black text-brand" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('not_found.title')}</h1>
      <p className="mt-3 text-muted">{t('not_found.text')}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={paths.landing} className="btn-primary">
          {t('not_found.home')}
        </Link>
        <Link to={paths.help} className="btn-secondary">
          {t('not_found.help')}
        </Link>
      </div>
    </section>
  );
}
