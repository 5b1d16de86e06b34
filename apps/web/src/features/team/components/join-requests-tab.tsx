import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useDecideStaffRequest } from '../api/decide-staff-request.ts';
import { useStaffRequests } from '../api/get-staff-requests.ts';
import { useTeamAccess } from './team-parts.tsx';

/** People who signed up asking to join the institution: approve them (as members with no permissions yet) or decline. */
export function JoinRequestsTab() {
  const { t } = useTranslation();
  const { partnerId, manageTeam } = useTeamAccess();
  const requests = useStaffRequests(partnerId, manageTeam);
  const decide = useDecideStaffRequest(partnerId);

  return (
    <section aria-labelledby="requests-title" className="flex flex-col gap-4">
      <div>
        <h2 id="requests-title" className="text-xl font-semibold">
          {t('team.requests.title')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('team.requests.intro')}</p>
      </div>
      {requests.isPending && <Spinner />}
      {requests.isError && <FormAlert>{t(errorMessageKey(requests.error))}</FormAlert>}
      {decide.isError && <FormAlert>{t(errorMessageKey(decide.error))}</FormAlert>}
      {decide.isSuccess && (
        <FormAlert tone="success">
          {decide.data.approval_status === 'approved' ? t('team.requests.approved') : t('team.requests.declined')}
        </FormAlert>
      )}
      {requests.data?.length === 0 && <p className="text-muted">{t('team.requests.empty')}</p>}
      {requests.data && requests.data.length > 0 && (
        <ul className="flex flex-col gap-3">
          {requests.data.map((request) => {
            const name = `${request.first_name} ${request.last_name}`;
            return (
              <li key={request.id} className="rounded-2xl border border-border bg-surface p-4 sm:p-5">
                <h3 className="font-semibold break-words">{name}</h3>
                <p className="text-sm break-words text-muted">
                  {[request.job_title, request.work_email ?? request.email, request.phone].filter(Boolean).join(' · ')}
                </p>
                <div className="mt-3 flex flex-wrap gap-2">
                  <button
                    type="button"
                    className="btn-primary"
                    disabled={decide.isPending}
                    aria-label={t('team.requests.approve_label', { name })}
                    onClick={() => decide.mutate({ staffId: request.id, action: 'approve' })}
                  >
                    {t('team.requests.approve')}
                  </button>
                  <button
                    type="button"
                    className="btn-secondary"
                    disabled={decide.isPending}
                    aria-label={t('team.requests.decline_label', { name })}
                    onClick={() => decide.mutate({ staffId: request.id, action: 'decline' })}
                  >
                    {t('team.requests.decline')}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
