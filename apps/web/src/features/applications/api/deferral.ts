import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeferralCyclesSchema,
  StudentDecisionSchema,
  type DeferralRequestInput,
  type StudentDecision,
} from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { applicationKeys, applicationPath } from './keys.ts';

/*
 * Deferral of an accepted offer (ADR 053): the later intakes it may go to, asking to defer to one of them,
 * and withdrawing the request while it waits. Each answer is the decision as it now stands.
 */

const deferralPath = (id: string) => `${applicationPath(id)}/decision/deferral`;

export const getDeferralCycles = (id: string, signal?: AbortSignal) =>
  api(`${deferralPath(id)}/cycles`, DeferralCyclesSchema, { signal });

/** The intakes the offer may be deferred to, read only while the applicant may ask. */
export function useDeferralCycles(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...applicationKeys.decision(id), 'deferral-cycles'],
    queryFn: ({ signal }) => getDeferralCycles(id, signal),
    enabled,
  });
}

function useDecisionChange(id: string) {
  const queryClient = useQueryClient();
  return (decision: StudentDecision) => {
    queryClient.setQueryData(applicationKeys.decision(id), decision);
    void queryClient.invalidateQueries({ queryKey: applicationKeys.decisions });
  };
}

export function useRequestDeferral(id: string) {
  const changed = useDecisionChange(id);
  return useMutation({
    mutationFn: (input: DeferralRequestInput) =>
      api(deferralPath(id), StudentDecisionSchema, { method: 'POST', body: input }),
    onSuccess: changed,
  });
}

export function useWithdrawDeferral(id: string) {
  const changed = useDecisionChange(id);
  return useMutation({
    mutationFn: () => api(deferralPath(id), StudentDecisionSchema, { method: 'DELETE' }),
    onSuccess: changed,
  });
}
