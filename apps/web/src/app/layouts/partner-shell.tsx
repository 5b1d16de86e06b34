import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { holdsPermission } from '@kaminuza/shared';
import { staffState } from '../../features/partner/components/staff-state.ts';
import { useSession } from '../../lib/session.tsx';
import { paths } from '../../lib/paths.ts';
import { AppShell } from './app-shell.tsx';

const LINKS = [
  { to: paths.partner.dashboard, key: 'shell.partner.dashboard' },
  { to: paths.partner.applications, key: 'shell.partner.applications' },
  { to: paths.partner.finance, key: 'shell.partner.finance' },
  { to: paths.partner.programs, key: 'shell.partner.programs' },
  { to: paths.partner.cycles, key: 'shell.partner.cycles' },
  { to: paths.partner.forms, key: 'shell.partner.forms' },
  { to: paths.partner.onBehalf, key: 'shell.partner.on_behalf', secondary: true },
  { to: paths.partner.feeWaivers, key: 'shell.partner.fee_waivers', secondary: true },
  { to: paths.partner.messages, key: 'shell.partner.messages', secondary: true, unread: 'chats' },
  { to: paths.partner.team, key: 'shell.partner.team', secondary: true },
  { to: paths.partner.profile, key: 'shell.partner.profile', secondary: true },
  { to: paths.partner.settings, key: 'shell.partner.settings', secondary: true },
  { to: paths.partner.account, key: 'shell.partner.account', secondary: true },
] as const;

/**
 * Submitting for an applicant, the review queue and the finance view are offered only to members who may
 * use them (the server refuses the others anyway).
 */
function linksFor(permissions: readonly string[] | null | undefined) {
  const review = holdsPermission(permissions, 'review_applications', 'make_decisions');
  const onBehalf = holdsPermission(permissions, 'submit_applications');
  const finance = holdsPermission(permissions, 'view_payments', 'manage_finance');
  const waivers = holdsPermission(permissions, 'manage_finance');
  return LINKS.filter(
    (link) =>
      (review || link.to !== paths.partner.applications) &&
      (onBehalf || link.to !== paths.partner.onBehalf) &&
      (finance || link.to !== paths.partner.finance) &&
      (waivers || link.to !== paths.partner.feeWaivers),
  );
}

/** The partner dashboard's frame, for approved members of approved institutions; others see where they stand. */
export function PartnerShell() {
  const { t } = useTranslation();
  const { session } = useSession();
  if (session.status === 'signed-in' && staffState(session.user) !== 'approved') {
    return <Navigate to={paths.partnerPending} replace />;
  }
  const user = session.status === 'signed-in' ? session.user : null;
  const links = linksFor(user?.staff_permissions);
  return <AppShell label={t('shell.partner.label')} links={links} home={paths.partner.dashboard} />;
}
