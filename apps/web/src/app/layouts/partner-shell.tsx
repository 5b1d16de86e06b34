import { useTranslation } from 'react-i18next';
import { paths } from '../paths.ts';
import { AppShell } from './app-shell.tsx';

const LINKS = [{ to: paths.partner.dashboard, key: 'shell.partner.dashboard' }] as const;

export function PartnerShell() {
  const { t } = useTranslation();
  return <AppShell label={t('shell.partner.label')} links={LINKS} home={paths.partner.dashboard} />;
}
