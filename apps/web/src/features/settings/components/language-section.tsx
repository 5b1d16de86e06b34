import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@kaminuza/shared';
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
  // The new language's texts may still be loading: the choice shows as made meanwhile.
  const [choosing, setChoosing] = useState<Language | null>(null);
  return (
    <SettingsSection title={t('settings.language.title')} description={t('settings.language.description')}>
      <ChoiceGroup
        legend={t('common.language')}
        value={choosing ?? current}
        choices={LANGUAGES.map((value) => ({ value, label: NATIVE_LANGUAGE_NAMES[value], lang: value }))}
        onChange={(next) => {
          setChoosing(next);
          track(chooseLanguage(next).finally(() => setChoosing(null)));
        }}
      />
      <SaveStatus state={saveState} />
    </SettingsSection>
  );
}
