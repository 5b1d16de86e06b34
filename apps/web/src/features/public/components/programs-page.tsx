import { useTranslation } from 'react-i18next';
import { InfoPage } from './page-parts.tsx';

export function ProgramsPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'public.programs' });
  return <InfoPage title={t('title')} intro={t('text')} />;
}
