import { useTranslation } from 'react-i18next';
import { THEMES } from '@kaminuza/shared';
import { useAccountPreferences } from '../../../lib/account-settings.ts';
import { useTheme } from '../../../lib/use-theme.ts';
import { ChoiceGroup } from './choice-group.tsx';
import { SaveStatus, useSaveState } from './save-state.tsx';
import { SettingsSection } from './settings-section.tsx';

/** Light, dark or the device's setting (spec section 4): applied at once, saved to the account. */
export function AppearanceSection() {
  const { t } = useTranslation();
  const [theme] = useTheme();
  const { chooseTheme } = useAccountPreferences();
  const [saveState, track] = useSaveState();
  return (
    <SettingsSection title={t('settings.appearance.title')} description={t('settings.appearance.description')}>
      <ChoiceGroup
        legend={t('common.theme')}
        value={theme}
        choices={THEMES.map((value) => ({ value, label: t(`common.theme_${value}`) }))}
        onChange={(next) => track(chooseTheme(next))}
      />
      <SaveStatus state={saveState} />
    </SettingsSection>
  );
}
