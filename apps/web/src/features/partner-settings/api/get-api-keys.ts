import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiKeyListSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getApiKeys = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/api-keys`, ApiKeyListSchema, { signal });

export const apiKeysQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'api-keys'],
    queryFn: ({ signal }) => getApiKeys(partnerId, signal),
  });

export const useApiKeys = (partnerId: string) => useQuery(apiKeysQuery(partnerId));
