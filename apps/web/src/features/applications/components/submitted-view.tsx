import { Link, Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths.ts';
import { useApplyContext } from '../api/get-apply-context.ts';
import { useSubmission } from '../api/get-submission.ts';
import { applicationPath } from '../api/keys.ts';
import { CachedNotice } from '../../../components/cached-notice.tsx';
import { viewPath, type ApplicationArea } from './application-routes.ts';
import { CopyReference } from './copy-reference.tsx';
import { useApplicationFormats } from './formats.ts';
import { QueryState, ViewFrame } from './view-frame.tsx';

/** The confirmation of a submitted application, with its reference to copy. */
export function SubmittedView({ area, partnerId }: { area: ApplicationArea; partnerId: string }) {
  const context = useApplyContext(partnerId);
  const application = context.data?.application ?? null;
  return (
    <QueryState area={area} partnerId={partnerId} query={context}>
      {() =>
        application?.status === 'submitted' ? (
          <Receipt area={area} partnerId={partnerId} id={application.id} />
        ) : (
          <Navigate replace to={viewPath(area, partnerId, application ? 'form' : 'start')} />
        )
      }
    </QueryState>
  );
}

function Receipt({ area, partnerId, id }: { area: ApplicationArea; partnerId: string; id: string }) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const query = useSubmission(id);
  return (
    <QueryState area={area} partnerId={partnerId} query={query}>
      {() => {
        const receipt = query.data!;
        const { payment } = receipt;
        const facts: Array<[string, string]> = [
          [t('applications.submitted.university'), receipt.partner_name],
          [t('applications.submitted.program'), receipt.program_name],
          [t('applications.submitted.campus'), receipt.campus_name],
          [t('applications.submitted.cycle'), receipt.cycle_name],
          [t('applications.submitted.date'), format.moment(receipt.submitted_at)],
          [
            t('applications.submitted.payment'),
            payment.paid
              ? t('applications.submitted.paid', { amount: format.money(payment.amount, payment.currency) })
              : payment.waived
                ? t('waivers.fee_waived')
                : t('applications.submitted.no_payment'),
          ],
        ];
        return (
          <ViewFrame>
            <div className="flex flex-col gap-2">
              <p aria-hidden="true" className="text-4xl text-brand">
                ✓
              </p>
              <h1 className="text-3xl font-bold tracking-tight">{t('applications.submitted.title')}</h1>
              <p className="text-muted">{t('applications.submitted.lead', { name: receipt.partner_name })}</p>
            </div>
            <CachedNotice path={`${applicationPath(id)}/submission`} />
            <CopyReference reference={receipt.reference} />
            <dl className="grid gap-3 sm:grid-cols-2">
              {facts.map(([term, value]) => (
                <div key={term} className="min-w-0 rounded-lg bg-surface-muted/60 p-3">
                  <dt className="text-sm text-muted">{term}</dt>
                  <dd className="font-medium break-words">{value}</dd>
                </div>
              ))}
            </dl>
            <p>{t('applications.submitted.emailed')}</p>
            <div className="flex flex-wrap gap-2">
              <Link to={paths.student.applications} className="btn-primary">
                {t('applications.links.area')}
              </Link>
              <Link to={paths.student.university(receipt.partner_id)} className="btn-secondary">
                {t('applications.links.university', { name: receipt.partner_name })}
              </Link>
              <Link to={viewPath(area, partnerId, 'decision')} className="btn-secondary">
                {t('applications.submitted.decision')}
              </Link>
            </div>
          </ViewFrame>
        );
      }}
    </QueryState>
  );
}
