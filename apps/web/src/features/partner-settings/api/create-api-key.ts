import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreatedApiKeySchema, type ApiKeyCreate } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { apiKeysQuery } from './get-api-keys.ts';

export const createApiKey = (partnerId: string, input: ApiKeyCreate) =>
  api(`/partners/${encodeURIComponent(partnerId)}/api-keys`, CreatedApiKeySchema, { method: 'POST', body: input });

export function useCreateApiKey(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApiKeyCreate) => createApiKey(partnerId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQuery(partnerId).queryKey }),
  });
}
