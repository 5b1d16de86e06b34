import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@kaminuza/shared';

/** Language names are written in their own language so anyone can find theirs. */
const NATIVE_NAMES = { en: 'English', fr: 'Français', rw: 'Kinyarwanda' } as const;

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
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
        onChange={(event) => void i18n.changeLanguage(event.target.value)}
        data-enhance="language"
        className="min-h-11 rounded-lg border border-border bg-surface px-2 text-sm"
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {NATIVE_NAMES[lng]}
          </option>
        ))}
      </select>
    </div>
  );
}
