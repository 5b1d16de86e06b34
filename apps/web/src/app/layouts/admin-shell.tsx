import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths.ts';
import { AppShell } from './app-shell.tsx';

const LINKS = [
  { to: paths.admin.dashboard, key: 'shell.admin.dashboard', unread: 'support' },
  { to: paths.admin.settings, key: 'shell.admin.settings', secondary: true },
] as const;

export function AdminShell() {
  const { t } = useTranslation();
  return <AppShell label={t('shell.admin.label')} links={LINKS} home={paths.admin.dashboard} />;
}
