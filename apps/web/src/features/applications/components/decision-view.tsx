import { Link, Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../app/paths.ts';
import { useApplyContext } from '../api/get-apply-context.ts';
import { viewPath, type ApplicationArea } from './application-routes.ts';
import { useApplicationFormats } from './formats.ts';
import { QueryState, ViewFrame } from './view-frame.tsx';

/**
 * The decision on a submitted application. Institutions release decisions in a later part of the
 * product; until then this says where the application stands, and nothing it does not know.
 */
export function DecisionView({ area, partnerId }: { area: ApplicationArea; partnerId: string }) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const query = useApplyContext(partnerId);
  return (
    <QueryState area={area} partnerId={partnerId} query={query}>
      {() => {
        const { partner, cycle, application } = query.data!;
        if (!application) return <Navigate replace to={viewPath(area, partnerId, 'start')} />;
        if (application.status !== 'submitted') return <Navigate replace to={viewPath(area, partnerId, 'form')} />;
        return (
          <ViewFrame theme={partner.theme}>
            <p className="text-sm font-medium text-muted">{partner.name}</p>
            <h1 className="text-3xl font-bold tracking-tight">{t('applications.decision.title')}</h1>
            <dl className="grid gap-3 rounded-xl border border-border bg-surface p-4 sm:grid-cols-2">
              <div className="min-w-0">
                <dt className="text-sm text-muted">{t('applications.decision.status')}</dt>
                <dd className="font-medium">{t('applications.decision.submitted')}</dd>
              </div>
              <div className="min-w-0">
                <dt className="text-sm text-muted">{t('applications.submitted.reference')}</dt>
                <dd className="font-mono font-medium break-all">{application.reference}</dd>
              </div>
            </dl>
            <p>
              {cycle?.decision_release_on
                ? t('applications.decision.release_on', { date: format.day(cycle.decision_release_on) })
                : t('applications.decision.none_yet')}
            </p>
            <div className="flex flex-wrap gap-2">
              <Link to={viewPath(area, partnerId, 'submitted')} className="btn-primary">
                {t('applications.decision.back')}
              </Link>
              <Link to={paths.student.applications} className="btn-secondary">
                {t('applications.links.area')}
              </Link>
            </div>
          </ViewFrame>
        );
      }}
    </QueryState>
  );
}
