import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths.ts';
import { ViewFrame } from './view-frame.tsx';

/** An unknown institution or application, or an address this flow does not have. */
export function NotFoundView() {
  const { t } = useTranslation();
  return (
    <ViewFrame>
      <h1 className="text-3xl font-bold tracking-tight">{t('applications.not_found.title')}</h1>
      <p className="text-muted">{t('applications.not_found.text')}</p>
      <div className="flex flex-wrap gap-2">
        <Link to={paths.student.applications} className="btn-primary">
          {t('applications.links.area')}
        </Link>
        <Link to={paths.student.partners} className="btn-secondary">
          {t('applications.links.explore')}
        </Link>
      </div>
    </ViewFrame>
  );
}
