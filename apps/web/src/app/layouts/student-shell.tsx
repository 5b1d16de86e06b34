import { useTranslation } from 'react-i18next';
import { paths } from '../paths.ts';
import { AppShell } from './app-shell.tsx';

const LINKS = [
  { to: paths.student.home, key: 'shell.student.home' },
  { to: paths.student.partners, key: 'shell.student.explore' },
  { to: paths.student.applications, key: 'shell.student.applications' },
  { to: paths.student.support, key: 'shell.student.support' },
  { to: paths.student.settings, key: 'shell.student.settings' },
] as const;

export function StudentShell() {
  const { t } = useTranslation();
  return <AppShell label={t('shell.student.label')} links={LINKS} home={paths.student.home} />;
}
