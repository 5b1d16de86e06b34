import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../../lib/session.tsx';
import { paths } from '../paths.ts';
import { AppShell } from './app-shell.tsx';

const LINKS = [
  { to: paths.student.home, key: 'shell.student.home' },
  { to: paths.student.partners, key: 'shell.student.explore', unread: 'chats' },
  { to: paths.student.applications, key: 'shell.student.applications' },
  { to: paths.student.support, key: 'shell.student.support', unread: 'support' },
  { to: paths.student.profile, key: 'shell.student.profile', secondary: true },
  { to: paths.student.settings, key: 'shell.student.settings', secondary: true },
] as const;

/** The student area. A student who has not finished onboarding is sent there from every other page. */
export function StudentShell() {
  const { t } = useTranslation();
  const { session } = useSession();
  const { pathname } = useLocation();
  const onboarding = pathname === paths.student.onboarding;
  if (session.status === 'signed-in' && !session.user.onboarding_complete && !onboarding) {
    return <Navigate to={paths.student.onboarding} replace />;
  }
  return <AppShell label={t('shell.student.label')} links={LINKS} home={paths.student.home} />;
}
