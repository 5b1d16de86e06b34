import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { sessionQuery, useSession } from '../../../lib/session.tsx';
import { paths } from '../../../lib/paths.ts';
import { PartnerCard } from './partner-card.tsx';
import { staffState } from './staff-state.ts';

/** What happens after an institution signs up, and, for its signed-in staff, where they stand. */
export function PartnerPendingPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'partner_pending' });
  const location = useLocation();
  const navigate = useNavigate();
  const { session, signOut } = useSession();
  const [email] = useState(() => (location.state as { email?: string } | null)?.email ?? null);
  const queryClient = useQueryClient();
  // The session is cached for half an hour; an approval since then should show on arrival.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: sessionQuery().queryKey });
  }, [queryClient]);

  if (session.status === 'loading') return <Spinner className="min-h-[50vh]" />;

  const staff = session.status === 'signed-in' && session.user.type === 'staff' ? session.user : null;
  if (!staff) {
    return (
      <PartnerCard title={email ? t('verify.title') : t('next.title')}>
        {email && <p role="status">{t('verify.text', { email })}</p>}
        <ol className="list-decimal space-y-2 pl-6">
          <li>{t('next.verify')}</li>
          <li>{t('next.sign_in')}</li>
          <li>{t('next.review')}</li>
          <li>{t('next.dashboard')}</li>
        </ol>
        <Link to={paths.login} className="btn-primary self-start">
          {t('sign_in')}
        </Link>
      </PartnerCard>
    );
  }

  const state = staffState(staff);
  const leave = () => void signOut().finally(() => navigate(paths.login, { replace: true }));
  return (
    <PartnerCard title={t(`states.${state}.title`)}>
      <p>{t(`states.${state}.text`, { name: staff.partner_name ?? '' })}</p>
      {state === 'rejected' && (
        <div className="rounded-lg border border-border bg-surface-muted p-3">
          <h2 className="font-semibold">{t('reason_label')}</h2>
          <p className="mt-1 break-words">{staff.partner_review_reason || t('no_reason')}</p>
        </div>
      )}
      <dl className="grid gap-2 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
        <dt className="font-medium">{t('institution_label')}</dt>
        <dd className="break-words text-muted">{staff.partner_name}</dd>
        <dt className="font-medium">{t('account_label')}</dt>
        <dd className="break-words text-muted">{staff.email}</dd>
      </dl>
      <div className="flex flex-wrap gap-3">
        {state === 'approved' && (
          <Link to={paths.partner.dashboard} className="btn-primary">
            {t('open_dashboard')}
          </Link>
        )}
        <button type="button" className="btn-secondary" onClick={leave}>
          {t('sign_out')}
        </button>
      </div>
    </PartnerCard>
  );
}
