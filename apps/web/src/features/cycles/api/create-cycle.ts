import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CycleSchema, type CycleInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { cyclesQuery } from './get-cycles.ts';

export const createCycle = (partnerId: string, input: CycleInput) =>
  api(`/partners/${encodeURIComponent(partnerId)}/cycles`, CycleSchema, { method: 'POST', body: input });

export function useCreateCycle(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CycleInput) => createCycle(partnerId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cyclesQuery(partnerId).queryKey }),
  });
}
