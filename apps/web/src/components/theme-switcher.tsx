import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { THEMES, type Theme } from '@kaminuza/shared';
import { useAccountPreferences } from '../lib/account-settings.ts';
import { useTheme } from '../lib/use-theme.ts';

/** Applies at once; a signed-in user's choice is saved to their account too, so it follows them. */
export function ThemeSwitcher() {
  const { t } = useTranslation();
  const [theme] = useTheme();
  const { chooseTheme } = useAccountPreferences();
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="sr-only">
        {t('common.theme')}
      </label>
      <select
        id={id}
        value={theme}
        onChange={(event) => {
          // The settings page reports a failed save; here the choice holds on this device regardless.
          chooseTheme(event.target.value as Theme).catch(() => {});
        }}
        data-enhance="theme"
        className="min-h-11 rounded-lg border border-border bg-surface px-2 text-sm"
      >
        {THEMES.map((value) => (
          <option key={value} value={value}>
            {t(`common.theme_${value}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
