import { useTranslation } from 'react-i18next';

/** The Documents tab of the profile; the documents feature replaces this file with the real one. */
export function DocumentsTab() {
  const { t } = useTranslation();
  return <h2 className="text-xl font-semibold">{t('profile.tabs.documents')}</h2>;
}
