import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CycleSchema, type CycleInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { cyclesQuery } from './get-cycles.ts';

export const updateCycle = (partnerId: string, cycleId: string, input: CycleInput) =>
  api(`/partners/${encodeURIComponent(partnerId)}/cycles/${encodeURIComponent(cycleId)}`, CycleSchema, {
    method: 'PUT',
    body: input,
  });

export function useUpdateCycle(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: CycleInput }) => updateCycle(partnerId, id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cyclesQuery(partnerId).queryKey }),
  });
}
