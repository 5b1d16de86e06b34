import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@kaminuza/shared';
import { useAccountPreferences } from '../lib/account-settings.ts';
import { NATIVE_LANGUAGE_NAMES } from '../lib/languages.ts';

/** Changes the interface at once; a signed-in user's choice is saved to their account too (emails follow it). */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const { chooseLanguage } = useAccountPreferences();
  const id = useId();
  const current = LANGUAGES.find((l) => l === i18n.resolvedLanguage) ?? 'en';
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="sr-only">
        {t('common.language')}
      </label>
      <select
        id={id}
        value={current}
        onChange={(event) => {
          const next = LANGUAGES.find((l) => l === event.target.value);
          // The settings page reports a failed save; here the choice holds on this device regardless.
          if (next) chooseLanguage(next).catch(() => {});
        }}
        data-enhance="language"
        className="min-h-11 rounded-lg border border-border bg-surface px-2 text-sm"
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {NATIVE_LANGUAGE_NAMES[lng]}
          </option>
        ))}
      </select>
    </div>
  );
}
