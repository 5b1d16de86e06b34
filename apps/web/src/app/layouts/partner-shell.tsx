import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { holdsPermission } from '@kaminuza/shared';
import { staffState } from '../../features/partner/components/staff-state.ts';
import { useSession } from '../../lib/session.tsx';
import { paths } from '../paths.ts';
import { AppShell } from './app-shell.tsx';

const LINKS = [
  { to: paths.partner.dashboard, key: 'shell.partner.dashboard' },
  { to: paths.partner.programs, key: 'shell.partner.programs' },
  { to: paths.partner.cycles, key: 'shell.partner.cycles' },
  { to: paths.partner.forms, key: 'shell.partner.forms' },
  { to: paths.partner.onBehalf, key: 'shell.partner.on_behalf', secondary: true },
  { to: paths.partner.messages, key: 'shell.partner.messages', secondary: true, unread: 'chats' },
  { to: paths.partner.team, key: 'shell.partner.team', secondary: true },
  { to: paths.partner.profile, key: 'shell.partner.profile', secondary: true },
  { to: paths.partner.settings, key: 'shell.partner.settings', secondary: true },
] as const;

/** Submitting for an applicant is offered only to members who may (the server refuses the others anyway). */
const LINKS_WITHOUT_ON_BEHALF = LINKS.filter((link) => link.to !== paths.partner.onBehalf);

/** The partner dashboard's frame, for approved members of approved institutions; others see where they stand. */
export function PartnerShell() {
  const { t } = useTranslation();
  const { session } = useSession();
  if (session.status === 'signed-in' && staffState(session.user) !== 'approved') {
    return <Navigate to={paths.partnerPending} replace />;
  }
  const user = session.status === 'signed-in' ? session.user : null;
  const links = holdsPermission(user?.staff_permissions, 'submit_applications') ? LINKS : LINKS_WITHOUT_ON_BEHALF;
  return <AppShell label={t('shell.partner.label')} links={links} home={paths.partner.dashboard} />;
}
