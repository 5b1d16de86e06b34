import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../../lib/session.tsx';
import { onboardingRedirect } from '../guards.ts';
import { paths } from '../../lib/paths.ts';
import { AppShell } from './app-shell.tsx';

const LINKS = [
  { to: paths.student.home, key: 'shell.student.home' },
  { to: paths.student.partners, key: 'shell.student.explore', unread: 'chats' },
  { to: paths.student.applications, key: 'shell.student.applications' },
  { to: paths.student.support, key: 'shell.student.support', unread: 'support' },
  { to: paths.student.profile, key: 'shell.student.profile', secondary: true },
  { to: paths.student.settings, key: 'shell.student.settings', secondary: true },
] as const;

/** Before onboarding is finished only these pages open, so the navigation offers nothing else. */
const ONBOARDING_LINKS = [
  { to: paths.student.onboarding, key: 'shell.student.onboarding' },
  { to: paths.student.settings, key: 'shell.student.settings' },
] as const;

/** The student area. A student who has not finished onboarding is sent there from every other page but settings. */
export function StudentShell() {
  const { t } = useTranslation();
  const { session } = useSession();
  const { pathname } = useLocation();
  const redirect = onboardingRedirect(session, pathname);
  if (redirect) return <Navigate to={redirect} replace />;
  const onboarding = session.status === 'signed-in' && !session.user.onboarding_complete;
  return (
    <AppShell
      label={t('shell.student.label')}
      links={onboarding ? ONBOARDING_LINKS : LINKS}
      home={onboarding ? paths.student.onboarding : paths.student.home}
    />
  );
}
