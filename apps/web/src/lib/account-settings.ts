import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AccountSettingsSchema,
  CACHE_TTL_MS,
  type AccountSettings,
  type AccountSettingsUpdate,
  type Language,
  type Theme,
} from '@kaminuza/shared';
import { api } from './api-client.ts';
import { sessionQuery, useSession } from './session.tsx';
import { readTheme, setTheme } from './theme.ts';

/*
 * The signed-in user's settings on the server (GET/PATCH /me/settings). The theme and the language are
 * applied on this device at once and saved to the account, so they follow the user to another device
 * and emails are written in the chosen language; both the header switchers and the settings page go
 * through the functions here.
 */

export const getAccountSettings = (signal?: AbortSignal) =>
  api('/me/settings', AccountSettingsSchema, signal ? { signal } : {});

export const saveAccountSettings = (change: AccountSettingsUpdate) =>
  api('/me/settings', AccountSettingsSchema, { method: 'PATCH', body: change });

/** Keyed by the account, so a later sign-in on this device never sees the previous account's settings. */
export const accountSettingsQuery = (userId: string) =>
  queryOptions({
    queryKey: ['me', userId, 'settings'],
    queryFn: ({ signal }) => getAccountSettings(signal),
    staleTime: CACHE_TTL_MS.users,
  });

/** Whether the theme was chosen on this device since the page loaded: the account's then no longer overrides it. */
let themeChosenThisVisit = false;

/**
 * Choosing the theme or the language: applied on this device at once; for a signed-in user also saved to
 * the account. The returned promise rejects when that save fails (the choice still holds on this device).
 */
export function useAccountPreferences() {
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const userId = session.status === 'signed-in' ? session.user.id : null;

  const save = useCallback(
    async (change: Pick<AccountSettingsUpdate, 'theme' | 'language'>) => {
      if (!userId) return;
      const saved = await saveAccountSettings(change);
      // Only what this change is about: a notification switch saved meanwhile keeps its own state.
      queryClient.setQueryData<AccountSettings>(accountSettingsQuery(userId).queryKey, (old) =>
        old ? { ...old, theme: saved.theme, language: saved.language } : saved,
      );
      // The session carries the language too.
      if (change.language) await queryClient.invalidateQueries({ queryKey: sessionQuery().queryKey });
    },
    [queryClient, userId],
  );

  const chooseTheme = useCallback(
    (theme: Theme) => {
      themeChosenThisVisit = true;
      setTheme(theme);
      return save({ theme });
    },
    [save],
  );

  const chooseLanguage = useCallback(
    async (language: Language) => {
      await i18n.changeLanguage(language);
      await save({ language });
    },
    [i18n, save],
  );

  return { chooseTheme, chooseLanguage };
}

/**
 * When a signed-in session loads, the account's theme replaces this device's (which only served the
 * first paint), unless the user has already chosen one on this page.
 */
export function useAccountTheme(): void {
  const { session } = useSession();
  const userId = session.status === 'signed-in' ? session.user.id : '';
  const { data } = useQuery({ ...accountSettingsQuery(userId), enabled: userId !== '' });
  const theme = data?.theme;
  useEffect(() => {
    if (theme && !themeChosenThisVisit && theme !== readTheme()) setTheme(theme);
  }, [theme]);
}
