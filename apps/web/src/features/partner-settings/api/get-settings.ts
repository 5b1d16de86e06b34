import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, StoredPartnerSettingsSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getSettings = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/settings`, StoredPartnerSettingsSchema, { signal });

export const settingsQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'settings'],
    queryFn: ({ signal }) => getSettings(partnerId, signal),
    staleTime: CACHE_TTL_MS.settings,
  });

export const useSettings = (partnerId: string) => useQuery(settingsQuery(partnerId));
