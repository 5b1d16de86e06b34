import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DecisionReleaseResultSchema, type DecisionReleaseInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, reviewKeys } from './keys.ts';

export const releaseDecisions = (partnerId: string, release: DecisionReleaseInput) =>
  api(partnerPath(partnerId, '/decisions/release'), DecisionReleaseResultSchema, { method: 'POST', body: release });

/** Released or scheduled decisions show in the queue and on each application, so every review query is refreshed. */
export function useReleaseDecisions(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (release: DecisionReleaseInput) => releaseDecisions(partnerId, release),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewKeys.all(partnerId) }),
  });
}
