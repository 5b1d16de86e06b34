import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useDecideStaffRequest } from '../api/decide-staff-request.ts';
import { useStaffRequests } from '../api/get-staff-requests.ts';

/** People asking to join the institution; only its administrators (permission 'all') may see them. */
export function JoinRequests({ partnerId }: { partnerId: string }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'partner.requests' });
  const { t: tRoot } = useTranslation();
  const requests = useStaffRequests(partnerId, partnerId !== '');
  const decide = useDecideStaffRequest(partnerId);

  // Members without the permission simply have no panel.
  if (requests.error instanceof ApiError && requests.error.status === 'PERMISSION_DENIED') return null;
  return (
    <section aria-labelledby="requests-title" className="rounded-2xl border border-border bg-surface p-5 sm:p-6">
      <h2 id="requests-title" className="text-xl font-semibold">
        {t('title')}
      </h2>
      {requests.isPending && <Spinner />}
      {requests.isError && <FormAlert>{tRoot(errorMessageKey(requests.error))}</FormAlert>}
      {decide.isError && <FormAlert>{tRoot(errorMessageKey(decide.error))}</FormAlert>}
      {decide.isSuccess && (
        <p role="status" className="mt-3 text-sm">
          {decide.data.approval_status === 'approved' ? t('approved') : t('declined')}
        </p>
      )}
      {requests.data?.length === 0 && <p className="mt-3 text-muted">{t('empty')}</p>}
      {requests.data && requests.data.length > 0 && (
        <ul className="mt-4 flex flex-col gap-3">
          {requests.data.map((request) => {
            const name = `${request.first_name} ${request.last_name}`;
            return (
              <li key={request.id} className="rounded-lg border border-border p-4">
                <p className="font-medium break-words">{name}</p>
                <p className="text-sm break-words text-muted">
                  {[request.job_title, request.work_email ?? request.email, request.phone].filter(Boolean).join(' · ')}
                </p>
                <div className="mt-3 flex flex-wrap gap-2">
                  <button
                    type="button"
                    className="btn-primary"
                    disabled={decide.isPending}
                    aria-label={t('approve_label', { name })}
                    onClick={() => decide.mutate({ staffId: request.id, action: 'approve' })}
                  >
                    {t('approve')}
                  </button>
                  <button
                    type="button"
                    className="btn-secondary"
                    disabled={decide.isPending}
                    aria-label={t('decline_label', { name })}
                    onClick={() => decide.mutate({ staffId: request.id, action: 'decline' })}
                  >
                    {t('decline')}
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
