import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PartnerApiKeySchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { apiKeysQuery } from './get-api-keys.ts';

export const revokeApiKey = (partnerId: string, keyId: string) =>
  api(`/partners/${encodeURIComponent(partnerId)}/api-keys/${encodeURIComponent(keyId)}`, PartnerApiKeySchema, {
    method: 'DELETE',
  });

export function useRevokeApiKey(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => revokeApiKey(partnerId, keyId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQuery(partnerId).queryKey }),
  });
}
