import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@kaminuza/shared';
import { useAccountPreferences } from '../../../lib/account-settings.ts';
import { NATIVE_LANGUAGE_NAMES } from '../../../lib/languages.ts';
import { ChoiceGroup } from './choice-group.tsx';
import { SaveStatus, useSaveState } from './save-state.tsx';
import { SettingsSection } from './settings-section.tsx';

/** The interface changes at once; the account keeps the choice, and emails are written in it. */
export function LanguageSection() {
  const { t, i18n } = useTranslation();
  const { chooseLanguage } = useAccountPreferences();
  const [saveState, track] = useSaveState();
  const current = LANGUAGES.find((language) => language === i18n.resolvedLanguage) ?? 'en';
  return (
    <SettingsSection title={t('settings.language.title')} description={t('settings.language.description')}>
      <ChoiceGroup
        legend={t('common.language')}
        value={current}
        choices={LANGUAGES.map((value) => ({ value, label: NATIVE_LANGUAGE_NAMES[value], lang: value }))}
        onChange={(next) => track(chooseLanguage(next))}
      />
      <SaveStatus state={saveState} />
    </SettingsSection>
  );
}
