import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, customTheme, StoredPartnerSettingsSchema, type PartnerTheme } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

const getSettings = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/settings`, StoredPartnerSettingsSchema, { signal });

/** Same key as the settings screen's, so a theme saved there shows here at once. */
const settingsQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'settings'],
    queryFn: ({ signal }) => getSettings(partnerId, signal),
    staleTime: CACHE_TTL_MS.settings,
  });

/**
 * The institution's own theme, or null while it keeps the default one (the form then keeps the app's
 * light or dark look, as the institution's page does).
 */
export function useInstitutionTheme(partnerId: string): PartnerTheme | null {
  const settings = useQuery({ ...settingsQuery(partnerId), enabled: partnerId !== '' });
  return customTheme(settings.data?.theme);
}
