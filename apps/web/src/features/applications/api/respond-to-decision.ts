import { useMutation, useQueryClient } from '@tanstack/react-query';
import { StudentDecisionSchema, type DecisionResponseInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { applicationKeys, applicationPath } from './keys.ts';

export const respondToDecision = (id: string, input: DecisionResponseInput) =>
  api(`${applicationPath(id)}/decision/response`, StudentDecisionSchema, { method: 'POST', body: input });

/** Accepts or declines an offer, once: the api refuses a second answer (409 already_responded). */
export function useRespondToDecision(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DecisionResponseInput) => respondToDecision(id, input),
    onSuccess: (decision) => {
      queryClient.setQueryData(applicationKeys.decision(id), decision);
      void queryClient.invalidateQueries({ queryKey: applicationKeys.decisions });
    },
  });
}
