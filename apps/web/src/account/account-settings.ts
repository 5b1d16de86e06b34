/*
 * The header's theme and language choices, for the entry pages' own bundle (ADR 044): applied on this
 * device at once, as in the app. These pages are for signing in, so the choice is the device's (a
 * signed-in user saves theirs from the app). The build resolves `lib/account-settings.ts` to this module
 * for those pages only.
 */
import { useTranslation } from 'react-i18next';
import type { Language, Theme } from '@kaminuza/shared/constants';
import { setTheme } from '../lib/theme.ts';

export function useAccountPreferences() {
  const { i18n } = useTranslation();
  return {
    chooseTheme: async (theme: Theme) => setTheme(theme),
    chooseLanguage: (language: Language) => i18n.changeLanguage(language),
  };
}
