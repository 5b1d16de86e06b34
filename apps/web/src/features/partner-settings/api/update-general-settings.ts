import { useMutation, useQueryClient } from '@tanstack/react-query';
import { StoredPartnerSettingsSchema, type PartnerGeneralSettingsUpdate } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { settingsQuery } from './get-settings.ts';

export const updateGeneral = (partnerId: string, value: PartnerGeneralSettingsUpdate) =>
  api(`/partners/${encodeURIComponent(partnerId)}/settings/general`, StoredPartnerSettingsSchema, {
    method: 'PUT',
    body: value,
  });

/** The answer is the whole settings, which replace the cached ones. */
export function useUpdateGeneral(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: PartnerGeneralSettingsUpdate) => updateGeneral(partnerId, value),
    onSuccess: (settings) => queryClient.setQueryData(settingsQuery(partnerId).queryKey, settings),
  });
}
