import { useTranslation } from 'react-i18next';
import { LOW_DATA_CHOICES, useLowData } from '../../../lib/low-data.ts';
import { ChoiceGroup } from './choice-group.tsx';
import { SettingsSection } from './settings-section.tsx';

/**
 * "Use less data" (ADR 042): automatic, on or off. Kept on this device only, since it is about this
 * device's connection; the line below says whether it is on now and why, as the automatic choice
 * follows the browser.
 */
export function LowDataSection() {
  const { t } = useTranslation();
  const lowData = useLowData();
  return (
    <SettingsSection title={t('settings.low_data.title')} description={t('settings.low_data.description')}>
      <ChoiceGroup
        legend={t('settings.low_data.legend')}
        value={lowData.choice}
        choices={LOW_DATA_CHOICES.map((value) => ({ value, label: t(`settings.low_data.choice_${value}`) }))}
        onChange={lowData.setChoice}
      />
      <p className="text-sm text-muted">{t('settings.low_data.auto_hint')}</p>
      <p role="status" className="text-sm font-medium">
        {t(`settings.low_data.status_${lowData.reason ?? 'off'}`)}
      </p>
    </SettingsSection>
  );
}
