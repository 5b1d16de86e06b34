import { useMutation, useQueryClient } from '@tanstack/react-query';
import { StoredPartnerSettingsSchema, type PartnerTheme } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { settingsQuery } from './get-settings.ts';

export const updateTheme = (partnerId: string, value: PartnerTheme) =>
  api(`/partners/${encodeURIComponent(partnerId)}/settings/theme`, StoredPartnerSettingsSchema, {
    method: 'PUT',
    body: value,
  });

/** The answer is the whole settings, which replace the cached ones. */
export function useUpdateTheme(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: PartnerTheme) => updateTheme(partnerId, value),
    onSuccess: (settings) => queryClient.setQueryData(settingsQuery(partnerId).queryKey, settings),
  });
}
