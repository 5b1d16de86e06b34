import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { THEMES, type Theme } from '@kaminuza/shared';
import { useTheme } from '../lib/use-theme.ts';

export function ThemeSwitcher() {
  const { t } = useTranslation();
  const [theme, setTheme] = useTheme();
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="sr-only">
        {t('common.theme')}
      </label>
      <select
        id={id}
        value={theme}
        onChange={(event) => setTheme(event.target.value as Theme)}
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
