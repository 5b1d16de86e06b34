import { useMutation, useQueryClient } from '@tanstack/react-query';
import { StoredPartnerSettingsSchema, type PartnerAdmissionsSettingsUpdate } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerReviewKey } from '../../../lib/query-keys.ts';
import { settingsQuery } from './get-settings.ts';

export const updateAdmissionsSettings = (partnerId: string, value: PartnerAdmissionsSettingsUpdate) =>
  api(`/partners/${encodeURIComponent(partnerId)}/settings/admissions`, StoredPartnerSettingsSchema, {
    method: 'PUT',
    body: value,
  });

/**
 * The answer is the whole settings, which replace the cached ones. The review screens offer the stages,
 * the rubric and blind review from these settings, so their options are read again.
 */
export function useUpdateAdmissionsSettings(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: PartnerAdmissionsSettingsUpdate) => updateAdmissionsSettings(partnerId, value),
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsQuery(partnerId).queryKey, settings);
      return queryClient.invalidateQueries({ queryKey: partnerReviewKey(partnerId) });
    },
  });
}
