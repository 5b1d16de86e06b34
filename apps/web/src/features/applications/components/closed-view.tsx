import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths.ts';
import { useApplyContext } from '../api/get-apply-context.ts';
import type { ApplicationArea } from './application-routes.ts';
import { useApplicationFormats } from './formats.ts';
import { QueryState, ViewFrame } from './view-frame.tsx';

/** The institution's current cycle takes no applications (none set, not open, or past its closing day). */
export function ClosedView({ area, partnerId }: { area: ApplicationArea; partnerId: string }) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const query = useApplyContext(partnerId);
  return (
    <QueryState area={area} partnerId={partnerId} query={query}>
      {() => {
        const { partner, cycle, application } = query.data!;
        return (
          <ViewFrame theme={partner.theme}>
            <p className="text-sm font-semibold text-institution-ink">{partner.name}</p>
            <h1 className="text-3xl font-bold tracking-tight">{t('applications.closed.title')}</h1>
            {cycle ? (
              <p>
                {t('applications.closed.dates', {
                  cycle: cycle.name,
                  opens: format.day(cycle.opens_on),
                  closes: format.day(cycle.closes_on),
                })}
              </p>
            ) : (
              <p>{t('applications.closed.no_cycle')}</p>
            )}
            {application?.status === 'in_progress' && (
              <p className="rounded-xl border border-border bg-surface p-4">{t('applications.closed.draft_kept')}</p>
            )}
            <div className="flex flex-wrap gap-2">
              <Link to={paths.student.university(partner.id)} className="btn-primary">
                {t('applications.links.university', { name: partner.name })}
              </Link>
              <Link to={paths.student.partners} className="btn-secondary">
                {t('applications.links.explore')}
              </Link>
            </div>
          </ViewFrame>
        );
      }}
    </QueryState>
  );
}
