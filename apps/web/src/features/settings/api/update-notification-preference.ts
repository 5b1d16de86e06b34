import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountSettings, EmailPreference, PushPreference } from '@kaminuza/shared';
import { accountSettingsQuery, saveAccountSettings } from '../../../lib/account-settings.ts';

export type NotificationChange =
  | { channel: 'email'; preference: EmailPreference; enabled: boolean }
  | { channel: 'push'; preference: PushPreference; enabled: boolean };

const MUTATION_KEY = ['me', 'settings', 'notifications'];

function withChange(settings: AccountSettings, { channel, preference, enabled }: NotificationChange): AccountSettings {
  const notifications = {
    ...settings.notifications,
    [channel]: { ...settings.notifications[channel], [preference]: enabled },
  };
  return { ...settings, notifications };
}

/**
 * Turns one notification preference on or off. The switch moves at once; a failed save puts it back as
 * it was (and the caller shows why).
 */
export function useUpdateNotificationPreference(userId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = accountSettingsQuery(userId);
  return useMutation({
    mutationKey: MUTATION_KEY,
    mutationFn: (change: NotificationChange) =>
      saveAccountSettings({ notifications: { [change.channel]: { [change.preference]: change.enabled } } }),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData<AccountSettings>(queryKey);
      if (previous) queryClient.setQueryData(queryKey, withChange(previous, change));
      return { previous };
    },
    onError: (_error, change, context) => {
      // Undo only this switch: another one saved meanwhile keeps its new state.
      const current = queryClient.getQueryData<AccountSettings>(queryKey);
      const before = context?.previous?.notifications[change.channel];
      if (current && before) {
        const original = (before as Record<string, boolean>)[change.preference] ?? !change.enabled;
        queryClient.setQueryData(queryKey, withChange(current, { ...change, enabled: original } as NotificationChange));
      }
    },
    onSuccess: (saved) => {
      // The last save to land holds every switch as stored; earlier ones would undo later optimistic moves.
      if (queryClient.isMutating({ mutationKey: MUTATION_KEY }) === 1) queryClient.setQueryData(queryKey, saved);
    },
  });
}
